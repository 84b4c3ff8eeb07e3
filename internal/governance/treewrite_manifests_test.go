package governance

import (
	"path/filepath"
	"testing"
)

// TestDecideManifestWrites checks that a package manager's subcommand that
// rewrites its project's manifest (go get, go mod tidy, npm install, ...)
// is decided by the rules on that file, found above the command's
// directory as the tool finds it, and that one that leaves it alone is
// not. Its rows are in testdata/cases/manifest_write_lines.txt.
func TestDecideManifestWrites(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	tree{files: []string{"go.mod", "package.json", "sub/x.go", "web/package.json"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  ask:\n    - Edit(./go.mod)\n    - Edit(./package.json)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, lineDecisionCases(t, "manifest_write_lines.txt", nil))
}
