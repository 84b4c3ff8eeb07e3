package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/soak"
)

// TestStreamMixBytes: a turn of BenchmarkStreamMix's traffic reaches the
// IDE through the bridge in its default configuration with the bytes, in
// the order, that the agent wrote and that a direct pipe delivers, so the
// benchmark times the forwarding of every byte and nothing less. Each mix
// is one turn of 20,000 messages, compared by count and SHA-256.
func TestStreamMixBytes(t *testing.T) {
	for _, mix := range []soak.Mix{soak.Prose, soak.Runs} {
		t.Run(mix.String(), func(t *testing.T) {
			const messages = 20000
			env := []string{soakMixEnv + "=" + mix.String(), soakMessagesEnv + "=" + strconv.Itoa(messages), soakUsageEveryEnv + "=50"}
			cwd := t.TempDir()
			dn, dsum := mixTurn(t, startPeer(t, "soak", false, env), cwd)
			bn, bsum := mixTurn(t, startPeer(t, "soak", true, env), cwd)
			if dn != messages+1 || bn != dn || bsum != dsum {
				t.Fatalf("bridged turn: %d lines, SHA-256 %x; direct: %d lines, %x (want %d lines)", bn, bsum, dn, dsum, messages+1)
			}
		})
	}
}

// mixTurn opens a session in cwd on p, prompts one turn and returns the
// lines of the turn up to and including the prompt's response, and the
// SHA-256 of their bytes, newlines included. It closes p.
func mixTurn(t *testing.T, p *peer, cwd string) (int, [sha256.Size]byte) {
	t.Helper()
	defer p.close(t)
	call := func(id int, method, params string, turn func(line []byte)) json.RawMessage {
		fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		want := []byte(`"id":` + strconv.Itoa(id) + `,`)
		for {
			line, err := p.out.ReadBytes('\n')
			if err != nil {
				t.Fatalf("%s: reading: %v", method, err)
			}
			if turn != nil {
				turn(line)
			}
			if bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","method":"session/update"`)) || !bytes.Contains(line, want) {
				continue
			}
			var r struct {
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(line, &r); err != nil || r.Result == nil {
				t.Fatalf("%s: answer %.200s", method, line)
			}
			return r.Result
		}
	}
	call(1, "initialize", `{"protocolVersion":1,"clientCapabilities":{}}`, nil)
	cwdJSON, _ := json.Marshal(cwd)
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(call(2, "session/new", `{"cwd":`+string(cwdJSON)+`,"mcpServers":[]}`, nil), &s); err != nil || s.SessionID == "" {
		t.Fatalf("session/new: no sessionId (%v)", err)
	}
	h := sha256.New()
	n := 0
	sid, _ := json.Marshal(s.SessionID)
	call(3, "session/prompt", `{"sessionId":`+string(sid)+`,"prompt":[{"type":"text","text":"go on"}]}`, func(line []byte) {
		n++
		h.Write(line)
	})
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return n, sum
}
