package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGoBinaryLines decides the lines of testdata/cases/go_binary_lines.txt
// in a Go module (module example.com/proj, whose packages include
// x/acp-bridge and cmd/tool) while the bridge's program lies at
// $GOBIN/acp-bridge and at $OUT/acp-bridge, protected: go install and go
// build write a binary named after each main package they build into
// GOBIN, -o's directory or where they run, and may replace it.
func TestGoBinaryLines(t *testing.T) {
	tmp, root := tempWorkspace(t)
	gobin := filepath.Join(tmp, "gobin")
	out := filepath.Join(root, "out")
	tree{
		texts: map[string]string{
			"ws/go.mod":               "module example.com/proj\n\ngo 1.22\n",
			"ws/x/acp-bridge/main.go": "package main\n",
			"ws/cmd/tool/main.go":     "package main\n",
			"ws/lib/lib.go":           "package lib\n",
			"ws/clean/go.mod":         "module example.com/clean\n",
			"ws/clean/cmd/a/main.go":  "package main\n",
			"ws/out/acp-bridge":       "bridge",
			"gobin/acp-bridge":        "bridge",
			"gopath/bin/tool":         "bridge",
		},
	}.make(t, tmp)
	for _, f := range []string{"ws/out/acp-bridge", "gobin/acp-bridge", "gopath/bin/tool"} {
		if err := os.Chmod(filepath.Join(tmp, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOBIN", gobin)
	t.Setenv("GOPATH", filepath.Join(tmp, "gopath"))
	e := rootPolicyEngine(t, root, "  default: allow\n",
		ProtectedPath{Path: filepath.Join(gobin, "acp-bridge"), What: "the bridge's program, which the hook runs"},
		ProtectedPath{Path: filepath.Join(out, "acp-bridge"), What: "the bridge's program, which the hook runs"},
		ProtectedPath{Path: filepath.Join(tmp, "gopath", "bin", "tool"), What: "a tool"})
	checkCommandLines(t, e, root, "go_binary_lines.txt", map[string]string{"$ROOT": root, "$TMP": tmp})
}
