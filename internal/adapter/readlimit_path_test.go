package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLimitLargeReadsOpensClaudesFile holds Tier 1 to the file Claude's
// Read opens: a relative file_path is resolved against the call's cwd, as
// Claude Code resolves it and as the policy judged it, never against the
// bridge's own working directory, where the same name may be another file
// (outside the workspace) whose content would be copied to the cache and
// described to the model. A path that names no regular file (a FIFO,
// which blocks whoever opens it) is left alone without being opened.
func TestLimitLargeReadsOpensClaudesFile(t *testing.T) {
	bridgeDir, ws := t.TempDir(), t.TempDir()
	big := bigFile(t, 20000)
	data, err := os.ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	write := func(p string, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, "large.txt"), data)
	write(filepath.Join(ws, "note.txt"), []byte("a short note\n"))
	// The same name at the bridge's working directory: a large secret.
	secret := strings.Replace(string(data), "line 1:", "SECRET-CANARY line 1:", 1)
	write(filepath.Join(bridgeDir, "note.txt"), []byte(secret))
	write(filepath.Join(bridgeDir, "large.txt"), []byte(secret))
	fifo := filepath.Join(ws, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(bridgeDir)

	rows := []struct {
		name, cwd, path string
		limited         bool
	}{
		{"relative to the call's cwd is limited", ws, "large.txt", true},
		{"relative with dot-dot from a subdirectory", filepath.Join(ws, "sub"), "../large.txt", true},
		{"relative small file is not the bridge's large one", ws, "note.txt", false},
		{"relative without a cwd is left alone", "", "note.txt", false},
		{"relative to a relative cwd is left alone", "ws", "note.txt", false},
		{"tilde is left alone", ws, "~/note.txt", false},
		{"fifo is not opened", ws, fifo, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			var copied []string
			d := LimitLargeReads(DeciderFunc(func(context.Context, ToolCall) (Decision, error) {
				return Decision{Verdict: Allow}, nil
			}), ReadLimit{Threshold: 15000, Offload: func(_, tool, content string) (string, error) {
				copied = append(copied, content)
				return "/cache/copy", nil
			}})
			call := ToolCall{Agent: Claude, Tool: "Read", Cwd: r.cwd, Input: json.RawMessage(fmt.Sprintf(`{"file_path":%q}`, r.path))}
			type result struct {
				d   Decision
				err error
			}
			done := make(chan result, 1)
			go func() {
				got, err := d.DecideTool(context.Background(), call)
				done <- result{got, err}
			}()
			var res result
			select {
			case res = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("the decision on %s did not return: the bridge opened what blocks", r.path)
			}
			if res.err != nil {
				t.Fatal(res.err)
			}
			if got := len(res.d.UpdatedInput) > 0; got != r.limited {
				t.Fatalf("limited = %v, want %v (updated input %s)", got, r.limited, res.d.UpdatedInput)
			}
			for _, c := range copied {
				if strings.Contains(c, "SECRET-CANARY") {
					t.Fatalf("the cache got the bridge's %s, not the file Claude reads", r.path)
				}
			}
			if r.limited && len(copied) != 1 {
				t.Fatalf("copies = %d, want 1", len(copied))
			}
		})
	}
}
