package governance

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A script an interpreter runs may run other files of the workspace by
// naming them: node's require('./evil') and import './evil.mjs', a
// perl's do './evil.pl', ruby's
// require_relative 'evil', php's include, lua's require 'evil' (lua looks
// in ./?.lua), R's source(), tcl's source. A harmless script that only
// names another file then runs what that file says, so scriptIncludes
// follows such names from the script, as the interpreter would find
// them, and the files found count as code the line runs. A bare module
// name (require('lodash')) is not followed into node_modules: installed
// packages name the agents' own configuration (Claude's SDK names
// .claude/settings.json), and reading them would refuse everyday scripts;
// docs/security.md, Limits.

// maxIncludedFiles bounds the files followed from one script.
const maxIncludedFiles = 64

// includeExtensions are, by interpreter, the endings a name it loads may
// be given without (node's require('./evil') loads evil.js).
var includeExtensions = map[string][]string{
	"node":    {".js", ".cjs", ".mjs"},
	"deno":    {".ts", ".js", ".mjs", ".tsx", ".jsx"},
	"bun":     {".ts", ".js", ".mjs", ".cjs", ".tsx", ".jsx"},
	"tsx":     {".ts", ".js", ".mjs", ".cjs", ".tsx", ".jsx", ".mts", ".cts"},
	"perl":    {".pl", ".pm"},
	"ruby":    {".rb"},
	"php":     {".php", ".inc"},
	"lua":     {".lua"},
	"Rscript": {".R", ".r"},
	"tclsh":   {".tcl"},
	"wish":    {".tcl"},
	"expect":  {".tcl", ".exp"},
}

// quotedName finds the string literals of a script in any of the
// languages above, and tcl's "source FILE", which needs no quotes: each
// is a name it may load.
var quotedName = regexp.MustCompile(`"([^"\n\\]{1,256})"|'([^'\n\\]{1,256})'|` + "`([^`\\n\\\\]{1,256})`" + `|\bsource\s+([\w./-]{1,256})`)

// scriptIncludes returns the workspace files the script of an
// interpreter's form (run in dir) loads by name, and those they load,
// up to maxIncludedFiles: each string literal of a script that names a
// file beside it or where the script runs (as written, or with one of
// its interpreter's endings, or a directory's index.js). nil for any
// other form.
func scriptIncludes(form []shellcmd.Word, dir string) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return nil
	}
	name := shellcmd.InterpreterName(filepath.Base(form[0].Text))
	exts, ok := includeExtensions[name]
	if !ok {
		return nil
	}
	script := interpreterScript(filepath.Base(form[0].Text), form)
	if script == nil {
		return nil
	}
	start := joinRaw(dir, script.Text)
	return followLoads([]string{start}, nil, maxIncludedFiles, func(f, text string) []string {
		var out []string
		for _, m := range quotedName.FindAllStringSubmatch(text, -1) {
			out = append(out, includeCandidates(m[1]+m[2]+m[3]+m[4], filepath.Dir(f), dir, name, exts)...)
		}
		return out
	})
}

// followLoads returns first and the files loads finds in the text of
// each of starts, of first and of each file found, each read once through
// its links (starts are read, not returned), up to most files.
func followLoads(starts, first []string, most int, loads func(file, text string) []string) []string {
	seen := map[string]bool{}
	queue := append([]string(nil), starts...)
	for _, p := range starts {
		seen[p] = true
	}
	var out []string
	add := func(p string) {
		if !seen[p] && len(out) < most {
			seen[p] = true
			out = append(out, p)
			queue = append(queue, p)
		}
	}
	for _, p := range first {
		add(p)
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if text, why := readResolved(f); why == "" {
			for _, p := range loads(f, text) {
				add(p)
			}
		}
	}
	return out
}

// includeCandidates returns the regular files ref may load from a script
// in from, run in dir: ref itself where it ends as code of exts does,
// ref with each of exts, as a directory's
// index file, and lua's dotted module as a path.
func includeCandidates(ref, from, dir, interp string, exts []string) []string {
	if ref == "" || strings.ContainsAny(ref, "*?$<>|;") || strings.Contains(ref, "://") {
		return nil
	}
	var names []string
	for _, base := range []string{from, dir} {
		p := joinRaw(base, ref)
		if slices.Contains(exts, filepath.Ext(ref)) {
			names = append(names, p) // a file of code, not a README.md the script prints
		}
		for _, e := range exts {
			names = append(names, p+e, filepath.Join(p, "index"+e))
		}
		if interp == "lua" && !strings.Contains(ref, "/") {
			names = append(names, joinRaw(base, strings.ReplaceAll(ref, ".", "/")+".lua"))
		}
	}
	var out []string
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && st.Mode().IsRegular() && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// readResolved is readTextFile of the file p leads to through its links:
// a script loading a link to a file loads that file.
func readResolved(p string) (string, string) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", "it cannot be read now (" + err.Error() + ")"
	}
	return readTextFile(r)
}
