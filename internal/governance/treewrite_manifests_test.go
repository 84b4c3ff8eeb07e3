package governance

import (
	"path/filepath"
	"testing"
)

// TestDecideManifestWrites checks that a package manager's subcommand that
// rewrites its project's manifest (go get, go mod tidy, npm install, ...)
// is decided by the rules on that file, found above the command's
// directory as the tool finds it, and that one that leaves it alone is
// not.
func TestDecideManifestWrites(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	tree{files: []string{"go.mod", "package.json", "sub/x.go", "web/package.json"}}.make(t, root)
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  ask:\n    - Edit(./go.mod)\n    - Edit(./package.json)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkLineDecisions(t, e, root, []lineDecision{
		{"go get", "go get example.com/x@v1.2.3", RequireApproval, "go.mod"},
		{"go mod tidy", "go mod tidy", RequireApproval, "go.mod"},
		{"go mod edit", "go mod edit -require=example.com/x@v1", RequireApproval, "go.mod"},
		{"go get from a subdirectory finds the module's go.mod", "cd sub && go get example.com/x", RequireApproval, "go.mod"},
		{"npm install", "npm install left-pad", RequireApproval, "package.json"},
		{"npm i in a cluster of options", "npm --silent i left-pad", RequireApproval, "package.json"},
		{"yarn alone installs", "yarn", RequireApproval, "package.json"},
		{"npm install in another package", "cd web && npm install left-pad", Allow, ""},
		{"go -C names the module's directory", "cd web && go -C .. get example.com/x", RequireApproval, "go.mod"},
		{"npm --prefix names the package", "cd web && npm --prefix .. install left-pad", RequireApproval, "package.json"},
		{"npm --prefix= names another package", "npm --prefix=web install left-pad", Allow, ""},
		{"go mod edit -json prints", "go mod edit -json", Allow, ""},
		{"go mod download", "go mod download", Allow, ""},
		{"go build", "go build ./...", Allow, ""},
		{"npm test", "npm test", Allow, ""},
	})
}
