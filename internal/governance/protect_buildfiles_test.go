package governance

import "testing"

// TestBuildToolProjectFiles decides build tools whose project file or
// script names the policy. Before, only make's makefiles and npm's
// package.json were read, so "cmake -P evil.cmake", "just", "rake" and the
// rest were decided by the policy's rules alone and an approval (or a rule
// allowing the tool) ran a recipe that empties the policy.
func TestBuildToolProjectFiles(t *testing.T) {
	root := tempTree(t, []string{"src", "sub", "clean", "out"}, []string{"a.txt"})
	evil := "GOVERNANCE.md\n"
	writeFiles(t, root, map[string]string{
		"src/CMakeLists.txt":   "file(WRITE " + evil + " \"\")\n",
		"evil.cmake":           "file(WRITE " + evil + " \"\")\n",
		"justfile":             "build:\n\t: > " + evil,
		"Rakefile":             "task :test do\n  File.write('" + "GOVERNANCE.md" + "', '')\nend\n",
		"Taskfile.yml":         "version: '3'\ntasks:\n  build:\n    cmds: [': > GOVERNANCE.md']\n",
		"build.ninja":          "rule x\n  command = : > " + evil,
		"init.gradle":          "new File('GOVERNANCE.md').text = ''\n",
		"tox.ini":              "[testenv]\ncommands = sh -c ': > GOVERNANCE.md'\n",
		"noxfile.py":           "open('GOVERNANCE.md', 'w')\n",
		"pom.xml":              "<project><!-- GOVERNANCE.md --></project>\n",
		"clean/CMakeLists.txt": "project(x)\n",
		"clean/justfile":       "build:\n\techo hi\n",
		"clean/build.ninja":    "rule x\n  command = echo hi\n",
	}, 0o644)
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(rm:*)]\n")
	checkCommandLines(t, e, root, "build_files_lines.txt", nil)
}
