package main

import (
	"encoding/json"
	"io"
	"testing"
)

// awaitOpen is the start of a shell agent that acts in session s1: it waits
// for the IDE's session/load of s1 (sent by openSession) before it sends
// anything, since governance refuses agent requests for a session the IDE
// never opened.
const awaitOpen = `IFS= read -r opened; `

// openSession writes the IDE's session/load of s1 in cwd to the bridge's
// input, so that the agent's requests in s1 are for a session the IDE opened.
func openSession(t *testing.T, ide io.Writer, cwd string) {
	t.Helper()
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "open-s1", "method": "session/load",
		"params": map[string]any{"sessionId": "s1", "cwd": cwd, "mcpServers": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ide.Write(append(line, '\n')); err != nil {
		t.Fatalf("opening session s1: %v", err)
	}
}
