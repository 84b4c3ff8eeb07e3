package governance

import "testing"

// TestBuildToolProjectFiles decides build tools whose project file or
// script names the policy. Before, only make's makefiles and npm's
// package.json were read, so "cmake -P evil.cmake", "just", "rake" and the
// rest were decided by the policy's rules alone and an approval (or a rule
// allowing the tool) ran a recipe that empties the policy.
func TestBuildToolProjectFiles(t *testing.T) {
	checkTreeLines(t, "build_files_tree.txt", "  default: allow\n  deny: [Bash(rm:*)]\n", "build_files_lines.txt")
}
