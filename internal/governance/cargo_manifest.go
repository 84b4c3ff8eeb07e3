package governance

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// cargo builds more than the package where it runs: each dependency a
// Cargo.toml gives by path (in any dependency table, a [patch] or
// [replace] entry), and each member of a workspace, is a package of its
// own, whose manifest places its build script (build.rs, or the file its
// build key names) and its own path dependencies in turn. cargoManifest
// reads a Cargo.toml as TOML (tomlEntries), so a quoted key ("path" =), a
// dotted one (rb.path =) or an array over lines names what the bare
// spelling does, and cargoManifests follows the packages a manifest
// reaches, as cargo does when it builds.

// cargoManifest is one Cargo.toml read: its directory and its values.
type cargoManifest struct {
	dir     string
	entries []tomlEntry
}

// maxCargoManifests is how many manifests cargoManifests follows.
const maxCargoManifests = 256

// cargoTargetKeys are the manifest tables of a package's targets, whose
// path key names a source file, not a package.
var cargoTargetKeys = map[string]bool{"lib": true, "bin": true, "test": true, "example": true, "bench": true}

// readCargoManifest reads the Cargo.toml at p, or says why it cannot.
func readCargoManifest(p string) (cargoManifest, string) {
	text, why := readTextFile(p)
	if why != "" {
		return cargoManifest{}, why
	}
	return parseCargoManifest(text, filepath.Dir(p))
}

// parseCargoManifest reads text, the Cargo.toml of dir.
func parseCargoManifest(text, dir string) (cargoManifest, string) {
	entries, err := tomlEntries(text)
	if err != nil {
		return cargoManifest{}, "it is no TOML the bridge reads (" + err.Error() + ")"
	}
	return cargoManifest{dir: dir, entries: entries}, ""
}

// last returns the last part of e's key.
func (e tomlEntry) last() string { return e.key[len(e.key)-1] }

// isPackage reports whether the manifest declares a package (not only a
// workspace).
func (m cargoManifest) isPackage() bool {
	return slices.ContainsFunc(m.entries, func(e tomlEntry) bool { return e.key[0] == "package" || e.key[0] == "project" })
}

// packageDirs returns the directories of the packages the manifest brings
// into a build: its path dependencies, [patch] and [replace] entries, and
// its workspace's members (each glob matched now).
func (m cargoManifest) packageDirs() []string {
	var out []string
	for _, e := range m.entries {
		switch {
		case !e.isStr:
		case e.last() == "path" && len(e.key) > 1 && !cargoTargetKeys[e.key[0]]:
			out = append(out, joinRaw(m.dir, e.str))
		case e.key[0] == "workspace" && len(e.key) == 2 && (e.key[1] == "members" || e.key[1] == "default-members"):
			p := joinRaw(m.dir, e.str)
			if !strings.ContainsAny(e.str, "*?[") {
				out = append(out, p)
				continue
			}
			matches, _ := filepath.Glob(p)
			out = append(out, matches...)
		}
	}
	return out
}

// buildScripts returns the build scripts the manifest's package runs: the
// file its build key names, else its build.rs; none for a workspace
// without a package, or with build = false.
func (m cargoManifest) buildScripts() []string {
	if !m.isPackage() {
		return nil
	}
	for _, e := range m.entries {
		if len(e.key) == 2 && (e.key[0] == "package" || e.key[0] == "project") && e.key[1] == "build" {
			switch {
			case e.isStr:
				return []string{joinRaw(m.dir, e.str)}
			case e.raw == "false":
				return nil
			}
		}
	}
	return []string{filepath.Join(m.dir, "build.rs")}
}

// placesElsewhere reports whether the manifest may have cargo compile a
// source outside its directory: a path (of a dependency, a [patch] or
// [replace] entry, a target), a build script, a workspace it belongs to,
// a member that is not beneath it.
func (m cargoManifest) placesElsewhere() bool {
	for _, e := range m.entries {
		if !e.isStr {
			continue
		}
		switch {
		case e.last() == "path", (e.key[0] == "package" || e.key[0] == "project") && len(e.key) == 2 && (e.key[1] == "build" || e.key[1] == "workspace"):
			return true
		case e.key[0] == "workspace" && len(e.key) == 2 && (e.key[1] == "members" || e.key[1] == "default-members"):
			if !filepath.IsLocal(e.str) {
				return true
			}
		}
	}
	return false
}

// placesTargets reports whether the manifest places the targets cargo fmt
// formats, or the packages it holds, elsewhere than the usual layout: a
// workspace, a target's path, the package's build script or workspace.
func (m cargoManifest) placesTargets() bool {
	for _, e := range m.entries {
		switch {
		case e.key[0] == "workspace",
			cargoTargetKeys[e.key[0]] && e.last() == "path",
			e.isStr && (e.key[0] == "package" || e.key[0] == "project") && len(e.key) == 2 && (e.key[1] == "build" || e.key[1] == "workspace"):
			return true
		}
	}
	return false
}

// cargoManifests returns the manifest m and those of the packages it
// reaches (packageDirs), in turn, up to maxCargoManifests; why says a
// manifest it reaches cannot be read (one that is not there is left out:
// cargo fails without it) or that there are more.
func cargoManifests(m cargoManifest) ([]cargoManifest, string) {
	out := []cargoManifest{m}
	seen := map[string]bool{filepath.Clean(m.dir): true}
	for i := 0; i < len(out); i++ {
		for _, d := range out[i].packageDirs() {
			d = filepath.Clean(d)
			if seen[d] {
				continue
			}
			seen[d] = true
			p := filepath.Join(d, "Cargo.toml")
			if !fileExists(p) {
				continue
			}
			if len(out) == maxCargoManifests {
				return out, "the packages reach more than " + strconv.Itoa(maxCargoManifests) + " manifests"
			}
			n, why := readCargoManifest(p)
			if why != "" {
				return out, "the manifest " + p + ": " + why
			}
			out = append(out, n)
		}
	}
	return out, ""
}
