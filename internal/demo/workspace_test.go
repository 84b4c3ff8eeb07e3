package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteWorkspaceKeepsProjectFiles checks that the demo fills an empty
// directory and one it filled before, and writes nothing into one whose
// files are not its own, even when that directory holds its mark (an
// agent can write the mark into the project it works on).
func TestWriteWorkspaceKeepsProjectFiles(t *testing.T) {
	mark := "made by acp-bridge demo\n"
	tests := []struct {
		name    string
		files   map[string]string
		link    string // GOVERNANCE.md made a link to this name in the directory
		wantErr string
	}{
		{name: "empty"},
		{name: "mark only", files: map[string]string{workspaceMark: mark}},
		{name: "no mark", files: map[string]string{"GOVERNANCE.md": "project policy\n"}, wantErr: "not empty"},
		{name: "empty mark", files: map[string]string{workspaceMark: "", "GOVERNANCE.md": "project policy\n"}, wantErr: workspaceMark},
		{name: "mark and project policy", files: map[string]string{workspaceMark: mark, "GOVERNANCE.md": "project policy\n"}, wantErr: "GOVERNANCE.md"},
		{name: "mark and project env", files: map[string]string{workspaceMark: mark, ".env": "API_KEY=real\n"}, wantErr: ".env"},
		{name: "mark and a link at the policy", files: map[string]string{workspaceMark: mark, "real.md": string(Policy)}, link: "real.md", wantErr: "GOVERNANCE.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tt.files {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.link != "" {
				if err := os.Symlink(tt.link, filepath.Join(root, "GOVERNANCE.md")); err != nil {
					t.Fatal(err)
				}
			}
			err := WriteWorkspace(root)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if err := WriteWorkspace(root); err != nil {
					t.Fatalf("filling it again: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one naming %q", err, tt.wantErr)
			}
			for name, text := range tt.files {
				if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != text {
					t.Errorf("%s changed to %q", name, got)
				}
			}
			ents, _ := os.ReadDir(root)
			want := len(tt.files)
			if tt.link != "" {
				want++
			}
			if len(ents) != want {
				t.Errorf("%d entries, want %d: the demo wrote files", len(ents), want)
			}
		})
	}
}
