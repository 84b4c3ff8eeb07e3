package governance

import (
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
	checkTreeLines(t, "source_runner_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "source_runner_lines.txt")
}

// TestPythonPathShadowing decides python lines whose script is harmless
// but whose directory holds a module named like one the script imports:
// Python looks there before its standard library, so "import json" runs
// the agent's json.py. Before, only the script was read.
func TestPythonPathShadowing(t *testing.T) {
	checkTreeLines(t, "python_path_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "python_path_lines.txt")
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
