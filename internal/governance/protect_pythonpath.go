package governance

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Python puts the directory of the script it runs (for "python -m MOD",
// the directory it runs in) first on its module path, before the standard
// library: "import json" in a harmless clean.py runs the agent's json.py
// beside it, and so does any import the library makes of a module of
// that name. pythonPathFiles gives the files there a run may import, so
// that their text counts as the line's own as the script's does.

// maxPythonPathFiles bounds the modules read for one python command.
const maxPythonPathFiles = 64

// pythonImport finds the modules a line of Python imports: "import a, b.c
// as d" and "from a.b import c" (the top-level name is what the module
// path is searched for).
var pythonImport = regexp.MustCompile(`(?m)^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*))`)

// pythonPathFiles returns the files a python command (form, run in dir)
// may import from the first directory of its module path: each module
// there named like one of the standard library's, and each the script or
// such a module imports by name, followed through the modules read, up
// to maxPythonPathFiles. nil for any other command.
func pythonPathFiles(form []shellcmd.Word, dir string) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return nil
	}
	name := filepath.Base(form[0].Text)
	if shellcmd.InterpreterName(name) != "python" && name != "ipython" {
		return nil
	}
	first, start := "", ""
	if s := interpreterScript(name, form); s != nil {
		start = joinRaw(dir, s.Text)
		first = filepath.Dir(start)
	} else if m := pythonModuleAt(form); m > 0 {
		first = dir
		start = moduleFile(first, strings.Split(form[m].Text, ".")[0])
	}
	if first == "" {
		return nil
	}
	entries, err := os.ReadDir(first)
	if err != nil {
		return nil
	}
	var shadows, starts []string
	for _, e := range entries {
		if m := strings.TrimSuffix(e.Name(), ".py"); pythonStdlib[m] {
			if f := moduleFile(first, m); f != "" {
				shadows = append(shadows, f)
			}
		}
	}
	if start != "" {
		starts = []string{start}
	}
	return followLoads(starts, shadows, maxPythonPathFiles, func(_, text string) []string {
		var out []string
		for _, m := range pythonImport.FindAllStringSubmatch(text, -1) {
			names := m[1]
			if names == "" {
				names = m[2]
			}
			for _, n := range strings.Split(names, ",") {
				if f := strings.Fields(n); len(f) > 0 {
					if file := moduleFile(first, strings.Split(f[0], ".")[0]); file != "" {
						out = append(out, file)
					}
				}
			}
		}
		return out
	})
}

// moduleFile returns the file a top-level module of that name is read
// from in dir: dir/NAME.py, else the package's dir/NAME/__init__.py; ""
// where dir holds neither.
func moduleFile(dir, module string) string {
	for _, f := range []string{module + ".py", filepath.Join(module, "__init__.py")} {
		p := filepath.Join(dir, f)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}
