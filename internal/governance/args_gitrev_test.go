package governance

import "testing"

// TestGitRevisionPaths checks that a git word REV:PATH ("HEAD:.env",
// ":.env" for the index) is decided as the file PATH names, which git
// prints from its objects: a rule that refuses reading .env refuses
// "git show HEAD:.env" as it refuses "cat .env".
func TestGitRevisionPaths(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Bash(git show:*)\n    - Bash(git cat-file:*)\n    - Bash(git log:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLines(t, e, root, lineCases(t, "git_revision_lines.txt", map[string]string{"$ROOT": root}))
}
