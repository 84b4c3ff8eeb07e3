package governance

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestScriptIncludes decides interpreter lines whose script is harmless
// but loads another file by name (require('./evil'), do './evil.pl',
// source evil.tcl): the interpreter runs that
// file too. Before, only the script named on the line was read.
func TestScriptIncludes(t *testing.T) {
	checkTreeLines(t, "script_include_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "script_include_lines.txt")
}

// FuzzScriptIncludes runs scriptIncludes over a node script of any text
// beside files it may load: it must not panic, and every file it returns
// is a regular file of the workspace.
func FuzzScriptIncludes(f *testing.F) {
	f.Add("require('./a')\nimport './b.mjs'\n")
	f.Add("require('pkg')\nsource a\n`./a`")
	f.Add("'../../../etc/passwd' require('') \"*\"")
	f.Fuzz(func(t *testing.T, script string) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"s.js": script, "a.js": "require('./b.mjs')", "b.mjs": ""}, 0o644)
		for _, p := range scriptIncludes([]shellcmd.Word{{Kind: shellcmd.Static, Text: "node"}, {Kind: shellcmd.Static, Text: "s.js"}}, dir) {
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				t.Fatalf("scriptIncludes gave %s, which is no regular file (%v)", p, err)
			}
		}
	})
}
