package governance

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestEnforceRefusesUpdatesGoReadsAsToolCalls: acp-go-sdk reads a
// session/update whose sessionUpdate it does not know (null, a case
// variant, a variant newer than it, none at all) by the members it holds,
// so one carrying a toolCallId and a title, or a content array, is a tool
// call to a Go IDE, which then shows a permission request's call as that
// update left it, while the bridge, the TypeScript SDK and Zed read no
// tool call and the bridge judges the call as it was. Such an update is
// refused, on a wire that reads it strictly and on one that leaves the
// reading to governance; updates that are no tool call to any reader
// still pass byte for byte.
func TestEnforceRefusesUpdatesGoReadsAsToolCalls(t *testing.T) {
	const pre = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{`
	tests := []struct {
		name, update string
		refused      bool
	}{
		{"sessionUpdate null", `"sessionUpdate":null,"toolCallId":"c1","title":"Look at the docs","kind":"think"`, true},
		{"sessionUpdate upper case", `"sessionUpdate":"TOOL_CALL_UPDATE","toolCallId":"c1","title":"Look at the docs","kind":"think"`, true},
		{"a variant acp-go-sdk does not know", `"sessionUpdate":"notice","toolCallId":"c1","title":"Look at the docs"`, true},
		{"a variant name with a NUL", `"sessionUpdate":"tool_call_update\u0000","toolCallId":"c1","kind":"think"`, true},
		{"only a toolCallId", `"sessionUpdate":"progress","toolCallId":"c1"`, true},
		{"no sessionUpdate, a content array", `"title":"rm -rf x","kind":"execute","content":[]`, true},
		{"no sessionUpdate, a toolCallId", `"toolCallId":"c1","title":"rm -rf x","kind":"execute","content":[]`, true},
		{"sessionUpdate a number", `"sessionUpdate":5,"toolCallId":"c1","title":"Look at the docs"`, false}, // acp-go-sdk drops it too
		{"a plan", `"sessionUpdate":"plan","entries":[]`, false},
		// One holding content is the person's words to acp-go-sdk
		// (TestUserWordsOnlyFromThePerson).
		{"an unknown variant without a call", `"sessionUpdate":"notice","text":"hi"`, false},
		{"usage", `"sessionUpdate":"usage_update","used":1,"size":10`, false},
	}
	for _, wire := range []struct {
		name string
		opts acpwire.Options
	}{{"strict wire", acpwire.Options{}}, {"lax wire", laxWire}} {
		for _, tt := range tests {
			t.Run(wire.name+"/"+tt.name, func(t *testing.T) {
				h := newHarnessWire(t, EnforceOptions{}, true, wire.opts)
				h.openSession()
				line := pre + tt.update + `}}}`
				h.rawAgent(line)
				got := h.ClientGets()
				if !tt.refused {
					if got != line {
						t.Fatalf("IDE got %s, want the update as sent", got)
					}
					return
				}
				if got == line {
					t.Fatalf("IDE got the update as sent: %s", got)
				}
				if !strings.Contains(got, `"sessionUpdate":"agent_message_chunk"`) || !strings.Contains(got, "acp-go-sdk reads it as a tool call") && !strings.Contains(got, "not strict JSON") {
					t.Fatalf("IDE got %s, want the bridge's note", got)
				}
				if m := h.nextAtAgent(); m["method"] != "session/cancel" {
					t.Fatalf("agent got %v, want session/cancel", m)
				}
				h.marker()
				if evs := h.rec.find("message.refused", "deny"); len(evs) != 1 {
					t.Fatalf("message.refused records: %+v", evs)
				}
			})
		}
	}
}

// TestEnforceRefusesContentGoReadsAsDiff: acp-go-sdk reads a tool call
// content item whose type it does not name ("Diff", "diff\u0000", null)
// by its members, so one with a path and a newText is a diff to a Go IDE,
// a diff of the policy file say, which the bridge, reading no diff, would
// not have judged. A tool call or permission request carrying one is
// refused; a real diff of a workspace file still passes.
func TestEnforceRefusesContentGoReadsAsDiff(t *testing.T) {
	tests := []struct {
		name, line string
		request    bool
		refused    bool
	}{
		{"tool_call Diff", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit notes","kind":"edit","content":[{"type":"Diff","path":"%[1]s/GOVERNANCE.md","newText":"x"}]}}}`, false, true},
		{"tool_call diff NUL", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit notes","kind":"edit","content":[{"type":"diff\u0000","path":"%[1]s/GOVERNANCE.md","newText":"x"}]}}}`, false, true},
		{"tool_call_update TERMINAL", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":[{"type":"TERMINAL","terminalId":"t9"}]}}}`, false, true},
		{"permission Diff", `{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c2","content":[{"type":"Diff","path":"%[1]s/GOVERNANCE.md","newText":"x"}]},"options":[{"optionId":"a","name":"Allow","kind":"allow_once"}]}}`, true, true},
		{"tool_call diff", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c3","title":"Edit a","kind":"edit","content":[{"type":"diff","path":"%[1]s/src/a.go","newText":"x"}]}}}`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWire(t, EnforceOptions{}, true, acpwire.Options{})
			h.openSession()
			line := h.rooted(tt.line)
			h.rawAgent(line)
			if !tt.refused {
				if got := h.ClientGets(); got != line {
					t.Fatalf("IDE got %s, want the update as sent", got)
				}
				return
			}
			if got := h.ClientGets(); !strings.Contains(got, "acp-go-sdk reads content item 0") {
				t.Fatalf("IDE got %s, want the bridge's note of the refusal", got)
			}
			m := h.nextAtAgent()
			if tt.request {
				if get(m, "error", "code") != float64(acpwire.CodeInvalidRequest) {
					t.Fatalf("agent got %v, want -32600", m)
				}
			} else if m["method"] != "session/cancel" {
				t.Fatalf("agent got %v, want session/cancel", m)
			}
			h.marker()
			if evs := h.rec.find("message.refused", "deny"); len(evs) != 1 {
				t.Fatalf("message.refused records: %+v", evs)
			}
		})
	}
}
