package adapter

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestHookDecidesInTheSessionsRoots: the hook's payload names a cwd, and a
// model that moved its shell to / would make / the workspace; with the
// sessions' roots the bridge knows, a read outside them is denied.
func TestHookDecidesInTheSessionsRoots(t *testing.T) {
	e, dir := loadTestEngine(t)
	ws := filepath.Join(dir, "ws")
	call := ToolCall{Agent: Claude, Tool: "Read", Input: json.RawMessage(`{"file_path":"/etc/passwd"}`), Cwd: "/", SessionID: "s1", ToolUseID: "t1"}
	roots := func(sid string) []string {
		if sid == "s1" {
			return []string{ws}
		}
		return nil
	}
	d, err := PolicyDeciderIn(e, Sessions{Roots: roots}).DecideTool(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != Deny {
		t.Fatalf("Read /etc/passwd with cwd / in a session rooted at %s: %+v, want deny", ws, d)
	}
	// Without the sessions' roots the claimed cwd is the root, and the
	// default (allow) applies: what the roots are for.
	d, _ = PolicyDecider(e).DecideTool(context.Background(), call)
	if d.Verdict != Allow {
		t.Fatalf("without session roots: %+v, want the default allow", d)
	}
}
