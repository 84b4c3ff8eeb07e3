package compress

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/tokens"
)

// hostileTexts are contents that made the tokenizer or the recorder
// superlinear or made them crash, as JSON string literal contents.
func hostileTexts() map[string]string {
	b64 := make([]byte, 2<<20)
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range b64 {
		b64[i] = alpha[(i*7919+i/13)%len(alpha)]
	}
	return map[string]string{
		"one character, 4 MiB":    strings.Repeat("a", 4<<20),
		"base64, 2 MiB":           string(b64),
		"lone surrogates":         strings.Repeat(`\udc00\ud800`, 200000),
		"brackets, 1 MiB":         strings.Repeat("[", 1<<20),
		"spaces, 2 MiB":           strings.Repeat(" ", 2<<20),
		"control escapes":         strings.Repeat(`\u0000\u007f\b`, 100000),
		"error codes everywhere":  strings.Repeat("TS2304 ENOENT status 503 ", 100000),
		"nested JSON as the text": strings.Repeat(`{\"a\":[`, 100000),
		"newlines, 1M lines":      strings.Repeat(`\n`, 1<<20),
	}
}

// TestHostileContent sends each hostile content through every place the
// pipeline reads content (agent output, a tool call's content toward the
// IDE, a read result toward the agent, a prompt, the turn's end) with the
// smallest offload threshold, and checks that nothing panics, everything
// passed on is valid JSON, and the tokenizer was given a bounded amount
// whatever the content's size.
func TestHostileContent(t *testing.T) {
	for name, text := range hostileTexts() {
		t.Run(name, func(t *testing.T) {
			p, h, passed := direct(t, 1000)
			send := func(dir acpwire.Direction, raw string, req *acpwire.Message) {
				t.Helper()
				m, err := acpwire.Parse(dir, []byte(raw))
				if err != nil {
					t.Fatalf("%v: %.300s", err, raw)
				}
				m.Request = req
				if err := h.Handle(context.Background(), m); err != nil {
					t.Fatal(err)
				}
			}
			parse := func(dir acpwire.Direction, raw string) *acpwire.Message {
				t.Helper()
				m, err := acpwire.Parse(dir, []byte(raw))
				if err != nil {
					t.Fatalf("%v: %.300s", err, raw)
				}
				return m
			}
			nested := strings.Repeat(`{"a":[`, 2000) + strings.Repeat(`]}`, 2000)
			before := tokens.Tokenized()
			start := time.Now()
			newReq := parse(acpwire.ClientToAgent, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/r","mcpServers":[]}}`)
			send(acpwire.AgentToClient, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}`, newReq)
			prompt := `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"` + text + `"}]}}`
			send(acpwire.ClientToAgent, prompt, nil)
			send(acpwire.AgentToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`+text+`"}}}}`, nil)
			send(acpwire.AgentToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","kind":"execute","status":"failed","title":"t","rawInput":`+nested+`,"content":[{"type":"content","content":{"type":"text","text":"`+text+`","x":`+nested+`}}]}}}`, nil)
			readReq := parse(acpwire.AgentToClient, `{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/r/x"}}`)
			send(acpwire.ClientToAgent, `{"jsonrpc":"2.0","id":7,"result":{"content":"`+text+`"}}`, readReq)
			send(acpwire.AgentToClient, `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`, parse(acpwire.ClientToAgent, prompt))
			p.settler.wait()
			took := time.Since(start)
			// No text is tokenized beyond CountBytes (plus a chunk), and
			// each content is measured a few times at most (offload
			// decision, reference, summary); the turn's sample is at most
			// SampleBytes.
			bound := int64(12*(CountBytes+tokens.ChunkBytes) + SampleBytes)
			if got := tokens.Tokenized() - before; got > bound {
				t.Errorf("tokenized %d bytes of %d-byte contents, over the bound of %d", got, len(text), bound)
			}
			for _, m := range *passed {
				if !json.Valid(m.Raw) {
					t.Fatalf("passed invalid JSON: %.200s", m.Raw)
				}
			}
			t.Logf("%d bytes: %v", len(text), took)
		})
	}
}

// direct returns a pipeline with the given offload threshold, its
// middleware called as a handler with no bridge around it, and the
// messages it has passed on so far.
func direct(t testing.TB, offloadTokens int) (*Pipeline, acpwire.Handler, *[]*acpwire.Message) {
	t.Helper()
	p, err := New(Config{CacheDir: t.TempDir(), OffloadTokens: offloadTokens}, nopSender{})
	if err != nil {
		t.Fatal(err)
	}
	var passed []*acpwire.Message
	h := p.Middleware()(acpwire.HandlerFunc(func(_ context.Context, m *acpwire.Message) error {
		passed = append(passed, m)
		return nil
	}))
	return p, h, &passed
}
