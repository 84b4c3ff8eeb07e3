package governance

import (
	"path/filepath"
	"testing"
)

// TestGitRevisionPathsSpelled: git reads REV:PATH's PATH from the top of
// the work tree (unless it starts with ./ or ../), so a line run in a
// subdirectory names the file at the top as well; ":N:PATH" is PATH at
// stage N of the index; and a REV may hold a colon inside "@{...}" (a
// date, "://" too), which git skips over. Each is decided as the file it names.
func TestGitRevisionPathsSpelled(t *testing.T) {
	root := tempTree(t, []string{"sub", "secrets"}, []string{".env", "a.txt", "secrets/key"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n    - Read(./secrets/**)\n  allow:\n    - Read\n    - Bash(git show:*)\n    - Bash(git clone:*)\n    - Bash(git remote:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	tests := []struct {
		line, cwd string
		want      Value
	}{
		{"git show :0:.env", root, Deny},
		{"git show :2:secrets/key", root, Deny},
		{"git show HEAD:secrets/key", filepath.Join(root, "sub"), Deny},
		{"git show HEAD:./a.txt", filepath.Join(root, "sub"), Allow},
		{"git show HEAD:a.txt", filepath.Join(root, "sub"), Allow},
		{"git show HEAD:secrets/key", root, Deny},
		{"git show 'HEAD@{2030-01-01 10:00:00}:.env'", root, Deny},
		{"git show 'main@{1:2}:secrets/key'", root, Deny},
		{"git show 'HEAD@{1 ://}:.env'", root, Deny},
		{"git show 'HEAD^{/http://}:.env'", root, Deny},
		{"git clone https://example.com/r.git", root, Allow},
		{"git remote add o git@example.com:org/r.git", root, Allow},
	}
	for _, tt := range tests {
		checkLine(t, e, tt.cwd, tt.line, tt.want)
	}
}
