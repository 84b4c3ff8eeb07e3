package governance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestSourceRunnersScripts decides lines running a source file with a
// program other than an interpreter: Java's source launcher, jshell,
// Kotlin, Swift, go run. Before, their file was not read, so "java
// Evil.java" ran code that empties the policy under a default allow,
// where "python3 evil.py" was refused.
func TestSourceRunnersScripts(t *testing.T) {
	root := tempTree(t, []string{"cmd", "tools"}, []string{"Clean.java", "clean.go", "cmd/main.go"})
	writeFiles(t, root, map[string]string{
		"Evil.java":      "class Evil { public static void main(String[] a) throws Exception { new java.io.FileWriter(\"GOVERNANCE.md\").close(); } }\n",
		"x.jsh":          "new java.io.FileWriter(\"GOVERNANCE.md\").close();\n",
		"x.main.kts":     "java.io.File(\"GOVERNANCE.md\").writeText(\"\")\n",
		"x.swift":        "import Foundation\ntry! \"\".write(toFile: \"GOVERNANCE.md\", atomically: true, encoding: .utf8)\n",
		"evil.go":        "package main\n\nimport \"os\"\n\nfunc main() { os.WriteFile(\"GOVERNANCE.md\", nil, 0o644) }\n",
		"tools/evil.go":  "package main\n\nimport \"os\"\n\nfunc main() { os.WriteFile(\"../GOVERNANCE.md\", nil, 0o644) }\n",
		"x.jl":           "write(\"GOVERNANCE.md\", \"\")\n",
		"x.exs":          "File.write!(\"GOVERNANCE.md\", \"\")\n",
		"tools/input.go": "package main\n",
	}, 0o644)
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(rm:*)]\n")
	checkCommandLines(t, e, root, "source_runner_lines.txt", nil)
}

// TestPythonPathShadowing decides python lines whose script is harmless
// but whose directory holds a module named like one the script imports:
// Python looks there before its standard library, so "import json" runs
// the agent's json.py. Before, only the script was read.
func TestPythonPathShadowing(t *testing.T) {
	root := tempTree(t, []string{"shadow", "pk/logging", "modrun", "safe", "chain", "linked"}, nil)
	writeFiles(t, root, map[string]string{
		"shadow/clean.py":        "import json\nprint('hi')\n",
		"shadow/json.py":         "open('../GOVERNANCE.md', 'w')\n",
		"pk/clean.py":            "import logging\n",
		"pk/logging/__init__.py": "open('../../GOVERNANCE.md', 'w')\n",
		"modrun/tool.py":         "import typing\n",
		"modrun/typing.py":       "open('../GOVERNANCE.md', 'w')\n",
		"safe/clean.py":          "import json\n",
		"safe/util.py":           "def f(): pass\n",
		"chain/clean.py":         "import os, helper as h\n",
		"chain/helper.py":        "from evilmod import x\n",
		"chain/evilmod.py":       "open('../GOVERNANCE.md', 'w')\nx = 1\n",
		"linked/clean.py":        "import helper\n",
		"linked/real.py":         "import evilmod\n",
		"linked/evilmod.py":      "open('../GOVERNANCE.md', 'w')\n",
	}, 0o644)
	if err := os.Symlink("real.py", filepath.Join(root, "linked", "helper.py")); err != nil {
		t.Fatal(err)
	}
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(rm:*)]\n")
	checkCommandLines(t, e, root, "python_path_lines.txt", nil)
}

// FuzzPythonPathFiles runs pythonPathFiles over a script of any text
// beside modules of the standard library's names: it must not panic, and
// every file it returns is a module file of the script's directory.
func FuzzPythonPathFiles(f *testing.F) {
	f.Add("import json\n")
	f.Add("from a.b import c\nimport x as y, z\n")
	f.Add("import ,\nfrom import\nimport a ,b")
	f.Fuzz(func(t *testing.T, script string) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"s.py": script, "json.py": "import a\n", "a.py": "", "b.py": ""}, 0o644)
		for _, p := range pythonPathFiles([]shellcmd.Word{{Kind: shellcmd.Static, Text: "python3"}, {Kind: shellcmd.Static, Text: "s.py"}}, dir) {
			if filepath.Dir(p) != dir || filepath.Ext(p) != ".py" {
				t.Fatalf("pythonPathFiles gave %s, not a module of %s", p, dir)
			}
		}
	})
}
