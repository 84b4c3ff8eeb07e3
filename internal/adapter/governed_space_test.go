package adapter

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// spacePolicy is the hostile suite's: reads allowed but .env, edits in
// the workspace, everything else asked.
const spacePolicy = `---
schema: governance.workspace/v1
name: space-test
title: Space test
description: Reads but .env, edits in the workspace, the rest asked.
version: 1.0.0
rules:
  default: ask
  deny: [Read(**/.env), Edit(**/.env)]
  allow: [Read, Edit(./**)]
---
`

// TestPolicyDeciderPathSpaces holds the hook to the file Claude Code's
// tools open: Claude's path expansion trims the path (JavaScript's
// String.prototype.trim) before resolving it, so "WS/.env " reads WS/.env
// and " /elsewhere/x" (relative to the bridge, a name inside the
// workspace) writes /elsewhere/x. A path member with whitespace at either
// end is refused; spaces inside a name are a name like any other.
func TestPolicyDeciderPathSpaces(t *testing.T) {
	ws, out := t.TempDir(), t.TempDir()
	pol := filepath.Join(ws, "GOVERNANCE.md")
	if err := os.WriteFile(pol, []byte(spacePolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := governance.LoadPolicy(pol)
	if err != nil {
		t.Fatal(err)
	}
	e := governance.NewEngine(p, governance.EngineOptions{})
	d := PolicyDeciderIn(e, Sessions{Roots: func(string) []string { return []string{ws} }})
	rows := []struct {
		name, tool, input string
		want              Verdict
	}{
		{"read with a trailing space", "Read", `{"file_path":"` + ws + `/.env "}`, Deny},
		{"read with a trailing tab", "Read", `{"file_path":"` + ws + `/.env\t"}`, Deny},
		{"read with a trailing no-break space", "Read", `{"file_path":"` + ws + `/.env\u00a0"}`, Deny},
		{"read with a trailing line separator", "Read", `{"file_path":"` + ws + `/.env\u2028"}`, Deny},
		{"read with a leading byte order mark", "Read", `{"file_path":"\ufeff` + ws + `/.env"}`, Deny},
		{"read home with a leading space", "Read", `{"file_path":" ~/.ssh/id_rsa"}`, Deny},
		{"write outside with a leading space", "Write", `{"file_path":" ` + out + `/victim.txt","content":"pwned"}`, Deny},
		{"write the policy with a leading space", "Write", `{"file_path":" ` + pol + `","content":"pwned"}`, Deny},
		{"edit the policy with a trailing newline", "Edit", `{"file_path":"` + pol + `\n","old_string":"ask","new_string":"allow"}`, Deny},
		{"notebook outside with a leading space", "NotebookEdit", `{"notebook_path":" ` + out + `/n.ipynb","new_source":"x"}`, Deny},
		{"glob outside with a leading space", "Glob", `{"pattern":"*","path":" ` + out + `"}`, Deny},
		{"read in the workspace", "Read", `{"file_path":"` + ws + `/a.txt"}`, Allow},
		{"write a name with a space inside", "Write", `{"file_path":"` + ws + `/a b.txt","content":"x"}`, Allow},
		{"a command's trailing space is no path", "Read", `{"file_path":"` + ws + `/a.txt","description":" x "}`, Allow},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := d.DecideTool(context.Background(), ToolCall{Agent: Claude, Tool: r.tool, Input: json.RawMessage(r.input), Cwd: ws, SessionID: "s"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Verdict != r.want {
				t.Fatalf("verdict = %q (%s), want %q", got.Verdict, got.Reason, r.want)
			}
		})
	}
}
