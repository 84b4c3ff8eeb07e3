package governance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestScriptIncludes decides interpreter lines whose script is harmless
// but loads another file by name (require('./evil'), do './evil.pl',
// source evil.tcl): the interpreter runs that
// file too. Before, only the script named on the line was read.
func TestScriptIncludes(t *testing.T) {
	root := tempTree(t, []string{"inc", "inc/lib", "safe"}, nil)
	writeFiles(t, root, map[string]string{
		"inc/a.js":         "const e = require('./evil')\n",
		"inc/e.js":         "require('./viaLink')\n",
		"inc/d.js":         "require('./evil.js')\n",
		"inc/b.mjs":        "import './lib/deep.mjs'\n",
		"inc/lib/deep.mjs": "import '../evil.mjs'\n",
		"inc/evil.js":      "require('fs').writeFileSync('../GOVERNANCE.md', '')\n",
		"inc/evil.mjs":     "import fs from 'fs'; fs.writeFileSync('../GOVERNANCE.md', '')\n",
		"inc/a.pl":         "do './evil.pl';\n",
		"inc/evil.pl":      "unlink '../GOVERNANCE.md';\n",
		"inc/a.tcl":        "source evil.tcl\n",
		"inc/evil.tcl":     "file delete ../GOVERNANCE.md\n",
		"inc/a.lua":        "require 'lib.evil'\n",
		"inc/lib/evil.lua": "os.remove('../GOVERNANCE.md')\n",
		"inc/a.rb":         "require_relative 'evil'\n",
		"inc/evil.rb":      "File.write('../GOVERNANCE.md', '')\n",
		"inc/safe.rb":      "puts 1\n",
		"safe/a.js":        "console.log('README.md', require('./util'))\n",
		"safe/util.js":     "module.exports = 1\n",
		"safe/README.md":   "see GOVERNANCE.md\n",
	}, 0o644)
	if err := os.Symlink("d.js", filepath.Join(root, "inc", "viaLink.js")); err != nil {
		t.Fatal(err)
	}
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(rm:*)]\n")
	checkCommandLines(t, e, root, "script_include_lines.txt", nil)
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
