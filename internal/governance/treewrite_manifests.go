package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A package manager rewrites its project's manifest and lock file without
// naming them: "go get x" rewrites go.mod and go.sum, "npm install x"
// package.json and package-lock.json. manifestWrites names them, so a rule
// on them (ask: [Edit(./go.mod)]) decides such a command as it decides an
// edit of the file.

// manifestTool is one package manager's subcommands that rewrite its
// project files, and those files (the first found by walking up from the
// command's directory, as the tool finds it).
type manifestTool struct {
	subs  map[string]bool
	files []string
}

// manifestTools are the package managers whose rewriting subcommands the
// bridge knows.
var manifestTools = map[string]manifestTool{
	"go": {setOf("get", "mod"), []string{"go.mod", "go.sum"}},
	"npm": {setOf("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "add", "uninstall",
		"un", "unlink", "remove", "rm", "r", "update", "up", "upgrade", "udpate", "dedupe", "ddp", "prune", "link", "ln",
		"version", "pkg"), []string{"package.json", "package-lock.json", "npm-shrinkwrap.json"}},
	"yarn":   {setOf("add", "remove", "upgrade", "up", "install", "version"), []string{"package.json", "yarn.lock"}},
	"pnpm":   {setOf("add", "remove", "rm", "update", "up", "install", "i", "version"), []string{"package.json", "pnpm-lock.yaml"}},
	"cargo":  {setOf("add", "remove", "rm", "update", "generate-lockfile"), []string{"Cargo.toml", "Cargo.lock"}},
	"poetry": {setOf("add", "remove", "lock", "update", "version"), []string{"pyproject.toml", "poetry.lock"}},
	"uv":     {setOf("add", "remove", "lock", "sync", "version"), []string{"pyproject.toml", "uv.lock"}},
}

// manifestDirOptions are the options that move a package manager to
// another project directory (go -C, npm --prefix, yarn --cwd, pnpm --dir,
// cargo --manifest-path, poetry --directory, uv --directory and
// --project).
var manifestDirOptions = map[string][]string{
	"go": {"-C"}, "npm": {"--prefix", "-C"}, "yarn": {"--cwd"}, "pnpm": {"-C", "--dir"},
	"cargo": {"--manifest-path"}, "poetry": {"-C", "--directory"}, "uv": {"--directory", "--project"},
}

// manifestDirOption reads one of manifestDirOptions at form[*i] (as
// "--opt value" or "--opt=value", moving *i past the value): the
// directory, "" when it is computed; ok is false for any other word.
func manifestDirOption(name string, form []shellcmd.Word, i *int) (string, bool) {
	t := form[*i].Text
	for _, o := range manifestDirOptions[name] {
		if v, ok := strings.CutPrefix(t, o+"="); ok {
			return v, true
		}
		if t == o {
			if *i+1 >= len(form) || form[*i+1].Kind != shellcmd.Static {
				*i = len(form)
				return "", true
			}
			*i++
			return form[*i].Text, true
		}
	}
	return "", false
}

// goModReads are go mod's subcommands that leave go.mod alone, and go mod
// edit's options that only print it.
var goModReads = setOf("download", "graph", "verify", "why", "-json", "-print")

// manifestWrites returns the project files a package manager's form, run
// in dir, rewrites: its manifest and lock file in the nearest directory at
// or above dir holding the manifest, or in dir when none does. nil for any
// other form.
func manifestWrites(form []shellcmd.Word, dir string) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return nil
	}
	name := filepath.Base(form[0].Text)
	tool, ok := manifestTools[name]
	if !ok {
		return nil
	}
	top, sub, ok := manifestDir(name, tool, form, dir)
	if !ok {
		return nil
	}
	switch {
	case sub < 0 && (name == "yarn" || name == "uv"):
		// yarn alone installs
	case sub < 0 || !tool.subs[form[sub].Text]:
		return nil
	case name == "go" && form[sub].Text == "mod":
		for _, w := range form[sub+1:] {
			if goModReads[w.Text] {
				return nil
			}
		}
	}
	out := make([]string, len(tool.files))
	for i, f := range tool.files {
		out[i] = filepath.Join(top, f)
	}
	return out
}

// manifestDir returns the directory a package manager's form, run in dir,
// works on: the one its directory option names (else dir), or the nearest
// at or above it holding the tool's manifest; sub is the index of the
// form's subcommand, -1 for none. ok is false when a word before the
// subcommand is computed.
func manifestDir(name string, tool manifestTool, form []shellcmd.Word, dir string) (top string, sub int, ok bool) {
	sub = -1
	for i := 1; i < len(form); i++ {
		if form[i].Kind != shellcmd.Static {
			return "", -1, false
		}
		t := form[i].Text
		if d, ok := manifestDirOption(name, form, &i); ok {
			if d == "" {
				continue // computed: the files are looked for from dir still
			}
			if strings.HasSuffix(d, tool.files[0]) {
				d = filepath.Dir(d) // cargo's --manifest-path names the file
			}
			if !filepath.IsAbs(d) {
				d = filepath.Join(dir, d)
			}
			dir = d
			continue
		}
		if !strings.HasPrefix(t, "-") {
			sub = i
			break
		}
	}
	top = dir
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, tool.files[0])); err == nil {
			top = d
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return top, sub, true
}

// manifests decides the project files a form rewrites (manifestWrites) as
// writes.
func (w *treeWalk) manifests(form []shellcmd.Word, dir string) {
	for _, p := range manifestWrites(form, dir) {
		if v, ok := w.refused(p, false, true, true); ok {
			v.reason = fmt.Sprintf("running %q: %s rewrites %s: %s", w.source, filepath.Base(form[0].Text), p, v.reason)
			w.keep(v)
		}
	}
}

// clearedDirs returns the directories a form empties and fills anew
// without naming them as removed: "go mod vendor" its -o directory
// (vendor by default), "python3 -m venv --clear" (also --upgrade-deps
// with --clear) its environment directories. Each is decided as rm -r of
// it.
func clearedDirs(form []shellcmd.Word) []string {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return nil
	}
	name := filepath.Base(form[0].Text)
	switch {
	case name == "go" && wordText(form, 1) == "mod" && wordText(form, 2) == "vendor":
		for i := 3; i < len(form); i++ {
			t := form[i].Text
			if v, ok := strings.CutPrefix(strings.TrimLeft(t, "-"), "o="); ok && strings.HasPrefix(t, "-") {
				return []string{v}
			}
			if (t == "-o" || t == "--o") && i+1 < len(form) {
				return []string{form[i+1].Text}
			}
		}
		return []string{"vendor"}
	case strings.HasPrefix(name, "python") && wordText(form, 1) == "-m" && wordText(form, 2) == "venv" && hasWord(form, "--clear"):
		var dirs []string
		for _, w := range form[3:] {
			if w.Kind == shellcmd.Static && !strings.HasPrefix(w.Text, "-") {
				dirs = append(dirs, w.Text)
			}
		}
		return dirs
	}
	return nil
}

// goOutputDirWrites returns the files go test writes beneath its
// -outputdir: each profile given by a relative name ("-outputdir keys
// -coverprofile a.key" writes keys/a.key).
func goOutputDirWrites(form []shellcmd.Word) []argWord {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "go" {
		return nil
	}
	value := func(i int, names map[string]bool) (string, int, bool) {
		t := strings.TrimLeft(form[i].Text, "-")
		n, v, eq := strings.Cut(strings.TrimPrefix(t, "test."), "=")
		if !strings.HasPrefix(form[i].Text, "-") || !names[n] {
			return "", i, false
		}
		if eq {
			return v, i, true
		}
		if i+1 < len(form) {
			return form[i+1].Text, i + 1, true
		}
		return "", i, false
	}
	dir := ""
	var profiles []string
	for i := 1; i < len(form); i++ {
		if v, j, ok := value(i, setOf("outputdir")); ok {
			dir, i = v, j
			continue
		}
		if v, j, ok := value(i, setOf("coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace")); ok {
			profiles, i = append(profiles, v), j
		}
	}
	if dir == "" {
		return nil
	}
	var out []argWord
	for _, p := range profiles {
		if !filepath.IsAbs(p) {
			n := strings.TrimSuffix(dir, "/") + "/" + p
			out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
		}
	}
	return out
}
