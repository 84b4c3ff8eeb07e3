package audit_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

func Example() {
	dir, _ := os.MkdirTemp("", "audit")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "audit.jsonl")

	l, err := audit.Open(path, audit.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	agent := audit.Actor{ID: "agent:claude-code", Role: "operator"}
	// A decision is recorded durably before it takes effect.
	l.AppendSync(audit.Event{
		Actor:   agent,
		Action:  "fs.read",
		Subject: audit.Subject{Kind: "file", Path: "/work/project/.env"},
		Policy:  &audit.Policy{Ref: "deny-dotenv", Decision: audit.DecisionDeny},
	})
	// Other records are buffered; secrets never reach the file.
	l.Append(audit.Event{
		Actor:   agent,
		Action:  "tool.call",
		Subject: audit.Subject{Kind: "tool-call", Ref: "toolu_01"},
		Input:   map[string]any{"command": "gh auth login --with-token ghp_" + "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"},
		Metadata: map[string]any{"session": "sess-1", "toolCall": audit.ToolCall{
			Kind: "tool-call", Session: "sess-1", ToolCallID: "toolu_01", Tool: "Bash", Approval: "auto"}},
	})
	l.Close()

	sum, err := audit.Verify(path)
	fmt.Println(sum.Records, "events, starts at GENESIS:", sum.Genesis, "error:", err)
	entries, _ := audit.ReadEntries(path)
	fmt.Println(string(entries[1].Input))
	fmt.Println(entries[1].Session, entries[1].Tool(), entries[1].ToolCall.Approval)
	// Output:
	// 2 events, starts at GENESIS: true error: <nil>
	// {"command":"gh auth login --with-token [REDACTED:github-token]"}
	// sess-1 Bash auto
}
