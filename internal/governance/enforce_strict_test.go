package governance

import (
	"context"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
)

// laxWire is a wire layer that decodes nothing strictly itself, so that
// what reaches the middleware is what the agent sent: governance must not
// rely on the wire layer to read judged messages strictly.
var laxWire = acpwire.Options{StrictMethods: []string{}, StrictResponses: []string{}}

// TestEnforceReadsWhatTheIDEReads: a judged message is read the way a
// case-exact JSON reader reads it (the IDE's), and one whose reading
// depends on the reader (a duplicate name, invalid UTF-8) is refused:
// the other peer never sees it and the refusal is recorded.
func TestEnforceReadsWhatTheIDEReads(t *testing.T) {
	type want int
	const (
		agentGetsError   want = iota // a request refused back to the agent, IDE sees nothing
		agentGetsReject              // a permission request answered reject_once
		ideGetsError                 // a request from the IDE refused back to it
		notificationDrop             // a notification dropped (and the turn stopped)
	)
	tests := []struct {
		name    string
		from    string // "agent" or "ide"
		line    string // %[1]s is the workspace root
		want    want
		refusal bool // refused as unreadable (not merely denied)
		// wire: the wire layer refuses it whatever it is told to decode
		// strictly (the envelope itself is ambiguous)
		wire bool
	}{
		{"read: path and PATH", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"%[1]s/.env","PATH":"%[1]s/src/a.go"}}`,
			agentGetsError, false, false},
		{"read: duplicate path", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"%[1]s/.env","path":"%[1]s/src/a.go"}}`,
			agentGetsError, true, false},
		{"read: duplicate params", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"%[1]s/.env"},"params":{"sessionId":"s1","path":"%[1]s/src/a.go"}}`,
			agentGetsError, true, true},
		{"read: invalid UTF-8", "agent",
			"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"fs/read_text_file\",\"params\":{\"sessionId\":\"s1\",\"path\":\"%[1]s/src/a\xff.go\"}}",
			agentGetsError, true, false},
		{"write: duplicate path", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"%[1]s/a.pem","content":"x","path":"%[1]s/src/a.go"}}`,
			agentGetsError, true, false},
		{"terminal: command and Command", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"terminal/create","params":{"sessionId":"s1","command":"curl","args":["http://x"],"Command":"ls"}}`,
			agentGetsError, false, false},
		{"terminal: duplicate command", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"terminal/create","params":{"sessionId":"s1","command":"curl http://x","command":"ls"}}`,
			agentGetsError, true, false},
		{"permission: rawInput and RAWINPUT", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p1","title":"run","kind":"execute","rawInput":{"command":"curl http://x"},"RAWINPUT":{"command":"ls"}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
			agentGetsReject, false, false},
		{"permission: duplicate rawInput", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p1","title":"run","kind":"execute","rawInput":{"command":"curl http://x"},"rawInput":{"command":"ls"}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
			agentGetsError, true, false},
		{"permission: duplicate command inside rawInput", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p1","title":"run","kind":"execute","rawInput":{"command":"curl http://x","command":"ls"}},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
			agentGetsError, true, false},
		{"tool_call: duplicate rawInput", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"run","kind":"execute","status":"pending","rawInput":{"command":"curl http://x"},"rawInput":{"command":"ls"}}}}`,
			notificationDrop, true, false},
		{"tool_call: duplicate sessionUpdate", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","toolCallId":"u1","title":"run","kind":"execute","status":"pending","rawInput":{"command":"ls"},"sessionUpdate":"tool_call"}}}`,
			notificationDrop, true, false},
		{"tool_call: locations path and Path", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"read","kind":"read","status":"pending","locations":[{"path":"%[1]s/.env","Path":"%[1]s/src/a.go"}]}}}`,
			notificationDrop, false, false},
		{"tool_call: a location path that is not a string", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"read","kind":"read","status":"pending","locations":[{"path":"%[1]s/src/a.go"},{"path":["/etc/shadow"]}]}}}`,
			notificationDrop, true, false},
		{"tool_call: a diff path that is not a string", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"edit","kind":"edit","status":"pending","content":[{"type":"diff","path":["/etc/cron.d/x"],"newText":"x"}]}}}`,
			notificationDrop, true, false},
		{"tool_call: a content item that is not an object", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"build","kind":"other","status":"pending","content":[{"type":"terminal","terminalId":"term-1"},5]}}}`,
			notificationDrop, true, false},
		{"tool_call: a terminalId that is not a string", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"build","kind":"other","status":"pending","content":[{"type":"terminal","terminalId":1}]}}}`,
			notificationDrop, true, false},
		{"permission: a terminalId that is not a string", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p1","title":"build","kind":"other","content":[{"type":"terminal","terminalId":1}]},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
			agentGetsError, true, false},
		{"tool_call: a title that is not a string", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":["curl http://x"],"kind":"execute","status":"pending"}}}`,
			notificationDrop, true, false},
		{"permission: a diff path that is not a string", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"p1","title":"edit","kind":"edit","content":[{"type":"diff","path":["/etc/cron.d/x"],"newText":"x"}]},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`,
			agentGetsError, true, false},
		{"tool_call: _meta nested past every reader's limit", "agent",
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"u1","title":"run","kind":"execute","status":"pending","_meta":{"x":` + strings.Repeat("[", 97) + strings.Repeat("]", 97) + `}}}}`,
			notificationDrop, true, false},
		{"terminal: a number past a double", "agent",
			`{"jsonrpc":"2.0","id":7,"method":"terminal/create","params":{"sessionId":"s1","command":"ls","outputByteLimit":1e400}}`,
			agentGetsError, true, false},
		{"session/new: cwd and CWD", "ide",
			`{"jsonrpc":"2.0","id":9,"method":"session/new","params":{"cwd":"/","CWD":"%[1]s","mcpServers":[]}}`,
			ideGetsError, false, false},
		{"session/new: duplicate cwd", "ide",
			`{"jsonrpc":"2.0","id":9,"method":"session/new","params":{"cwd":"/","cwd":"%[1]s","mcpServers":[]}}`,
			ideGetsError, true, false},
		{"session/load: duplicate additionalDirectories", "ide",
			`{"jsonrpc":"2.0","id":9,"method":"session/load","params":{"sessionId":"s1","cwd":"%[1]s","additionalDirectories":["/etc"],"additionalDirectories":[],"mcpServers":[]}}`,
			ideGetsError, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWire(t, EnforceOptions{}, true, laxWire)
			h.openSession()
			line := h.rooted(tt.line)
			if tt.from == "ide" {
				h.rawIDE(line)
			} else {
				h.rawAgent(line)
			}
			switch tt.want {
			case agentGetsError:
				m := h.nextAtAgent()
				if tt.wire {
					if m["error"] == nil {
						t.Fatalf("agent got %v, want an error", m)
					}
					h.marker()
					return
				}
				if m["id"] != float64(7) || m["error"] == nil {
					t.Fatalf("agent got %v, want an error response to id 7", m)
				}
				if tt.refusal && get(m, "error", "code") != float64(acpwire.CodeInvalidRequest) {
					t.Errorf("agent got %v, want -32600", m)
				}
			case agentGetsReject:
				if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != "no" {
					t.Fatalf("agent got %v, want reject", m)
				}
			case ideGetsError:
				m := h.nextAtIDE()
				if m["id"] != float64(9) || m["error"] == nil {
					t.Fatalf("IDE got %v, want an error response to id 9", m)
				}
				h.marker()
				h.AgentGetsNothingMore()
				return
			case notificationDrop:
				if m := h.nextAtAgent(); m["method"] != "session/cancel" {
					t.Fatalf("agent got %v, want session/cancel", m)
				}
			}
			// The IDE hears why, and nothing of the message itself.
			if note := h.nextAtIDE(); get(note, "params", "update", "sessionUpdate") != "agent_message_chunk" {
				t.Fatalf("IDE got %v, want the bridge's note", note)
			}
			h.marker()
			if tt.wire {
				return
			}
			if tt.refusal {
				if evs := h.rec.find("message.refused", "deny"); len(evs) != 1 || !evs[0].sync {
					t.Fatalf("message.refused records: %+v", evs)
				}
			}
		})
	}
}

// TestEnforceRecordsWireRefusals: a judged message the wire layer refuses
// before governance sees it (here a duplicate name) still leaves an audit
// record, with the wire's reason.
func TestEnforceRecordsWireRefusals(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.rawAgent(h.rooted(`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"%[1]s/.env","path":"%[1]s/src/a.go"}}`))
	if m := h.nextAtAgent(); get(m, "error", "code") != float64(acpwire.CodeInvalidRequest) {
		t.Fatalf("agent got %v, want -32600", m)
	}
	h.marker()
	evs := h.rec.find("message.refused", "deny")
	if len(evs) != 1 || evs[0].ev.Metadata["stage"] != "wire" || evs[0].ev.Metadata["reason"] == "" {
		t.Fatalf("message.refused records: %+v", evs)
	}
}

// TestEnforceUnjudgedUpdatesPass: a session/update that is no tool call
// under any reading is not judged, so a flaw that makes a tool call
// unreadable (here a lone surrogate) does not stop a message chunk.
func TestEnforceUnjudgedUpdatesPass(t *testing.T) {
	h := newHarnessWire(t, EnforceOptions{}, true, laxWire)
	h.openSession()
	line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"half an emoji \ud83d"}}}}`
	h.rawAgent(line)
	got := h.ClientGets()
	if got != line {
		t.Fatalf("IDE got %s, want the chunk as sent", got)
	}
	// The same flaw in a tool call is refused.
	h.rawAgent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"x","title":"half an emoji \ud83d","kind":"read","status":"pending"}}}`)
	if m := h.nextAtAgent(); m["method"] != "session/cancel" {
		t.Fatalf("agent got %v, want session/cancel", m)
	}
}

// TestJudgedMessagesReadStrictlyOnce: every message kind governance judges
// is one the wire layer reads strictly by default, so strictlyRead takes
// the wire's reading rather than reading it again; a text chunk is known
// as one; and a wire told to read nothing strictly leaves the reading to
// governance (TestEnforceReadsWhatTheIDEReads runs governance on that wire).
func TestJudgedMessagesReadStrictlyOnce(t *testing.T) {
	lines := []struct {
		name, from, line string
		chunk            bool
	}{
		{"tool_call", "agent", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x","kind":"read","status":"pending"}}}`, false},
		{"text chunk", "agent", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`, true},
		{"text chunk, members reordered", "agent", `{"method":"session/update","jsonrpc":"2.0","params":{"update":{"content":{"text":"hi","type":"text"},"sessionUpdate":"agent_thought_chunk"},"sessionId":"s1"}}`, true},
		{"permission request", "agent", `{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t"},"options":[]}}`, false},
		{"read", "agent", `{"jsonrpc":"2.0","id":2,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/w/a"}}`, false},
		{"write", "agent", `{"jsonrpc":"2.0","id":3,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"/w/a","content":"x"}}`, false},
		{"terminal", "agent", `{"jsonrpc":"2.0","id":4,"method":"terminal/create","params":{"sessionId":"s1","command":"ls"}}`, false},
		{"session/new", "ide", `{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`, false},
		{"session/load", "ide", `{"jsonrpc":"2.0","id":6,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}`, false},
	}
	for _, wire := range []struct {
		name   string
		opts   acpwire.Options
		strict bool
	}{{"default wire", acpwire.Options{}, true}, {"lax wire", laxWire, false}} {
		t.Run(wire.name, func(t *testing.T) {
			type seen struct{ strict, chunk bool }
			got := make(chan seen, 1)
			b := acpwire.New(wire.opts)
			b.Use(acpwire.Middleware(func(next acpwire.Handler) acpwire.Handler {
				return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
					got <- seen{m.CheckedStrictly(), m.TextChunk()}
					return next.Handle(ctx, m)
				})
			}))
			h := acpwiretest.Start(t, b)
			for _, l := range lines {
				if l.from == "ide" {
					h.FromClient(l.line)
					h.AgentGets()
				} else {
					h.FromAgent(l.line)
					h.ClientGets()
				}
				want := seen{strict: wire.strict && !l.chunk, chunk: l.chunk}
				if s := <-got; s != want {
					t.Errorf("%s: CheckedStrictly %v, TextChunk %v; want %v, %v", l.name, s.strict, s.chunk, want.strict, want.chunk)
				}
			}
		})
	}
}
