package governance

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCargoManifestPlaces reads what a Cargo.toml has cargo build from, in
// every spelling: the packages it reaches (path dependencies, [patch] and
// [replace] entries, members), its build scripts, and whether it places a
// source outside its directory or its targets elsewhere.
func TestCargoManifestPlaces(t *testing.T) {
	for _, c := range []struct {
		text                     string
		dirs, scripts            string
		elsewhere, placesTargets bool
	}{
		{text: "[package]\nname = \"x\"\n", scripts: "d/build.rs"},
		{text: "[package]\nname = \"x\"\nbuild = false\n"},
		{text: "[package]\nname = \"x\"\n\"build\" = \"gen.rs\"\n", scripts: "d/gen.rs", elsewhere: true, placesTargets: true},
		{text: "[package]\nname = \"x\"\n[dependencies]\nrb = { \"path\" = \"../rb\" }\n", dirs: "rb", scripts: "d/build.rs", elsewhere: true},
		{text: "[package]\nname = \"x\"\n[dependencies.rb]\n'path' = 'rb'\n", dirs: "d/rb", scripts: "d/build.rs", elsewhere: true},
		{text: "[package]\nname = \"x\"\n[target.'cfg(unix)'.build-dependencies]\nrb.path = \"rb\"\n", dirs: "d/rb", scripts: "d/build.rs", elsewhere: true},
		{text: "[patch.crates-io]\nrb = { path = \"rb\" }\n[replace]\n\"c:0.1.0\" = { path = \"c\" }\n", dirs: "d/rb d/c", elsewhere: true},
		{text: "[workspace]\nmembers = [\n  \"a\",\n  \"b\",\n]\n", dirs: "d/a d/b", placesTargets: true},
		{text: "[workspace]\nmembers = [\"../a\"]\n", dirs: "a", elsewhere: true, placesTargets: true},
		{text: "[package]\nname = \"x\"\n[lib]\n\"path\" = \"../.env\"\n", scripts: "d/build.rs", elsewhere: true, placesTargets: true},
		{text: "[package]\nname = \"x\"\nworkspace = \"..\"\n", scripts: "d/build.rs", elsewhere: true, placesTargets: true},
	} {
		m, why := parseCargoManifest(c.text, "d")
		if why != "" {
			t.Errorf("parseCargoManifest(%q): %s", c.text, why)
			continue
		}
		var dirs []string
		for _, d := range m.packageDirs() {
			dirs = append(dirs, filepath.Clean(d))
		}
		if g := strings.Join(dirs, " "); g != c.dirs {
			t.Errorf("%q: packageDirs = %q; want %q", c.text, g, c.dirs)
		}
		if g := strings.Join(m.buildScripts(), " "); g != c.scripts {
			t.Errorf("%q: buildScripts = %q; want %q", c.text, g, c.scripts)
		}
		if g := m.placesElsewhere(); g != c.elsewhere {
			t.Errorf("%q: placesElsewhere = %v; want %v", c.text, g, c.elsewhere)
		}
		if g := m.placesTargets(); g != c.placesTargets {
			t.Errorf("%q: placesTargets = %v; want %v", c.text, g, c.placesTargets)
		}
	}
	if _, why := parseCargoManifest("[package\n", "d"); why == "" {
		t.Error("parseCargoManifest of no TOML gave no reason")
	}
}

// TestCargoManifestsFollowed follows the packages a manifest reaches in
// turn: a member's path dependency's path dependency, a glob member.
func TestCargoManifestsFollowed(t *testing.T) {
	tmp := t.TempDir()
	tree{texts: map[string]string{
		"Cargo.toml":          "[workspace]\nmembers = [\n  \"crates/*\",\n]\n",
		"crates/a/Cargo.toml": "[package]\nname = \"a\"\n[dependencies]\nb = { \"path\" = \"../../b\" }\n",
		"b/Cargo.toml":        "[package]\nname = \"b\"\nbuild = \"gen.rs\"\n[dependencies]\nc.path = \"../c\"\n",
		"c/Cargo.toml":        "[package]\nname = \"c\"\n",
	}}.make(t, tmp)
	m, why := readCargoManifest(filepath.Join(tmp, "Cargo.toml"))
	if why != "" {
		t.Fatal(why)
	}
	all, why := cargoManifests(m)
	if why != "" {
		t.Fatal(why)
	}
	var got []string
	for _, n := range all[1:] {
		for _, s := range n.buildScripts() {
			rel, _ := filepath.Rel(tmp, filepath.Clean(s))
			got = append(got, rel)
		}
	}
	if want := []string{"crates/a/build.rs", "b/gen.rs", "c/build.rs"}; !slices.Equal(got, want) {
		t.Errorf("build scripts = %q; want %q", got, want)
	}
}
