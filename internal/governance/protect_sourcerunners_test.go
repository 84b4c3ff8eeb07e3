package governance

import "testing"

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
