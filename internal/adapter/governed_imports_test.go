package adapter

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestHookJudgesWrittenImports: Claude Code reads the files a CLAUDE.md
// imports ("@../.env") into the model's context with no tool call, so a
// call that writes such an import of a file the policy refuses reading is
// denied, whatever tool writes it (Write's content, Edit's new_string, a
// Bash line); an import of a readable file is allowed.
func TestHookJudgesWrittenImports(t *testing.T) {
	e, dir := loadTestEngine(t)
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{".env": "SECRET=1\n", "sub/b.txt": "b\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claudeMD := filepath.Join(dir, "sub", "CLAUDE.md")
	cases := []struct {
		name, tool string
		input      map[string]any
		want       Verdict
	}{
		{"write", "Write", map[string]any{"file_path": claudeMD, "content": "See @../.env\n"}, Deny},
		{"edit", "Edit", map[string]any{"file_path": claudeMD, "old_string": "x", "new_string": "x @../.env"}, Deny},
		{"multiedit", "MultiEdit", map[string]any{"file_path": claudeMD, "edits": []any{map[string]any{"old_string": "x", "new_string": "@../.env"}}}, Deny},
		{"bash", "Bash", map[string]any{"command": "echo '@.env' > CLAUDE.md"}, Deny},
		{"readable import", "Write", map[string]any{"file_path": claudeMD, "content": "See @b.txt\n"}, Allow},
	}
	d := PolicyDecider(e)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, _ := json.Marshal(c.input)
			got, err := d.DecideTool(context.Background(), ToolCall{Agent: "claude", Tool: c.tool, Input: in, Cwd: dir, SessionID: "s1"})
			if err != nil || got.Verdict != c.want {
				t.Errorf("DecideTool(%s %s) = %+v, %v; want %s", c.tool, in, got, err, c.want)
			}
		})
	}
}
