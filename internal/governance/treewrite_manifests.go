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
	sub := -1
	for i := 1; i < len(form); i++ {
		if form[i].Kind != shellcmd.Static {
			return nil
		}
		if !strings.HasPrefix(form[i].Text, "-") {
			sub = i
			break
		}
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
	top := dir
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, tool.files[0])); err == nil {
			top = d
			break
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	out := make([]string, len(tool.files))
	for i, f := range tool.files {
		out[i] = filepath.Join(top, f)
	}
	return out
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
