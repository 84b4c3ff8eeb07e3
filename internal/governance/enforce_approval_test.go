package governance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// editPermission is a permission request for call id editing path.
func editPermission(id int, call, path string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":%q,"title":"Write","kind":"edit","status":"pending","locations":[{"path":%q}]},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, id, call, path)
}

// approve has the person answer the permission request with id yes.
func (h *harness) approve(id int) { h.t.Helper(); h.answer(id, "yes") }

// answer checks the IDE got the permission request with id, has the
// person pick option, and checks the agent gets that answer.
func (h *harness) answer(id int, option string) {
	h.t.Helper()
	if m := h.nextAtIDE(); m["method"] != "session/request_permission" || m["id"] != float64(id) {
		h.t.Fatalf("IDE got %v, want permission request %d", m, id)
	}
	h.ide(`{"jsonrpc":"2.0","id":%d,"result":{"outcome":{"outcome":"selected","optionId":%q}}}`, id, option)
	if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != option {
		h.t.Fatalf("agent got %v, want the person's answer %s", m, option)
	}
}

// wantAsked checks the IDE got the bridge's own permission request, and
// answers it with answer.
func (h *harness) wantAsked(answer string) {
	h.t.Helper()
	ask := h.nextAtIDE()
	if ask["method"] != "session/request_permission" {
		h.t.Fatalf("IDE got %v, want the bridge's own permission request", ask)
	}
	id, _ := json.Marshal(ask["id"])
	h.ide(`{"jsonrpc":"2.0","id":%s,"result":{"outcome":{"outcome":"selected","optionId":%q}}}`, id, answer)
}

// TestEnforceOneApprovalPerAction: the person's approval of a tool call
// covers the fs/write_text_file that carries it out, on the same path and
// while the call goes on, and the audit record says which approval; a
// write nobody asked about still asks once, and an approval for one path
// never lets another through.
func TestEnforceOneApprovalPerAction(t *testing.T) {
	t.Run("covered write", func(t *testing.T) {
		h := sessionHarness(t, EnforceOptions{})
		h.agent("%s", editPermission(40, "w1", h.root+"/README.md"))
		h.approve(40)
		h.agent(`{"jsonrpc":"2.0","id":41,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"hi"}}`, h.root+"/README.md")
		if m := h.nextAtIDE(); m["method"] != "fs/write_text_file" {
			t.Fatalf("IDE got %v, want the write itself, not a second question", m)
		}
		evs := h.rec.find("fs.write", "require-approval")
		if len(evs) != 1 {
			t.Fatalf("fs.write records: %+v", evs)
		}
		by, _ := evs[0].ev.Metadata["approvedBy"].(map[string]any)
		if by["toolCallId"] != "w1" || by["permissionRequest"] != "40" {
			t.Fatalf("fs.write record metadata %v, want approvedBy naming w1 and permission request 40", evs[0].ev.Metadata)
		}
		if n := len(h.rec.find("approval.recorded", "")); n != 1 {
			t.Fatalf("%d approval records, want the person's one", n)
		}
	})
	t.Run("unasked write asks once", func(t *testing.T) {
		h := sessionHarness(t, EnforceOptions{})
		h.agent(`{"jsonrpc":"2.0","id":41,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"hi"}}`, h.root+"/README.md")
		h.wantAsked("allow")
		if m := h.nextAtIDE(); m["method"] != "fs/write_text_file" {
			t.Fatalf("IDE got %v, want the approved write", m)
		}
	})
	riders := []struct {
		name string
		then func(h *harness)
	}{
		{"another path", func(h *harness) {}},
		{"after the call ended", func(h *harness) {
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"w1","status":"completed"`))
			h.wantForwarded("w1")
		}},
		{"after the call changed", func(h *harness) {
			h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":"w1","locations":[{"path":%q}]`, h.root+"/NOTES.md"))
			h.wantForwarded("w1")
		}},
		{"another session", func(h *harness) {}},
		{"after the turn ended", func(h *harness) {
			h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
			h.nextAtAgent()
			h.agent(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}`)
			h.nextAtIDE()
		}},
		{"after the turn ended in an answer the bridge refused", func(h *harness) {
			h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
			h.nextAtAgent()
			h.agent(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"},"error":{"code":1,"message":"x"}}`)
			if m := h.nextAtIDE(); m["id"] != float64(5) || m["error"] == nil {
				h.t.Fatalf("IDE got %v, want its prompt answered with an error", m)
			}
		}},
		{"after the turn ended in an answer over the size limit", func(h *harness) {
			h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
			h.nextAtAgent()
			h.agent(`{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn","pad":%q}}`, strings.Repeat("a", 8<<10))
			if m := h.nextAtIDE(); m["id"] != float64(5) || m["error"] == nil {
				h.t.Fatalf("IDE got %v, want its prompt answered with an error", m)
			}
		}},
		{"in the next turn", func(h *harness) {
			// The IDE prompts again only once it read the last turn as
			// over, however the bridge saw it end.
			h.ide(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`)
			h.nextAtAgent()
		}},
		{"after the turn was cancelled", func(h *harness) {
			h.ide(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
			h.nextAtAgent()
		}},
	}
	for _, tt := range riders {
		t.Run("rider: "+tt.name, func(t *testing.T) {
			h := newHarnessWire(t, EnforceOptions{}, true, acpwire.Options{MaxLineSize: 4 << 10})
			h.openSession()
			h.agent("%s", editPermission(40, "w1", h.root+"/README.md"))
			h.approve(40)
			tt.then(h)
			path, sid := h.root+"/README.md", "s1"
			switch tt.name {
			case "another path":
				path = h.root + "/b.txt"
			case "another session":
				h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, h.root)
				h.nextAtAgent()
				h.agent(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s2"}}`)
				h.nextAtIDE()
				sid = "s2"
			}
			h.agent(`{"jsonrpc":"2.0","id":42,"method":"fs/write_text_file","params":{"sessionId":%q,"path":%q,"content":"pwned"}}`, sid, path)
			h.wantAsked("reject")
			if m := h.nextAtAgent(); m["id"] != float64(42) || m["error"] == nil {
				t.Fatalf("agent got %v, want the write refused", m)
			}
			for _, r := range h.rec.find("fs.write", "") {
				if r.ev.Metadata["approvedBy"] != nil {
					t.Fatalf("write recorded as covered: %v", r.ev.Metadata)
				}
			}
		})
	}
	t.Run("read approval does not cover a write", func(t *testing.T) {
		h := sessionHarness(t, EnforceOptions{})
		h.agent(`{"jsonrpc":"2.0","id":40,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"r1","title":"Read","kind":"fetch","status":"pending","locations":[{"path":%q}]},"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, h.root+"/README.md")
		h.approve(40)
		h.agent(`{"jsonrpc":"2.0","id":42,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"x"}}`, h.root+"/README.md")
		h.wantAsked("reject")
		h.nextAtAgent()
	})
}

// TestEnforceApprovalCoversItsCommand: an approved execute call covers
// the terminal/create running its very command in its directory, and no
// other command.
func TestEnforceApprovalCoversItsCommand(t *testing.T) {
	for _, tt := range []struct {
		name, command string
		covered       bool
	}{
		{"same command", `"command":"git commit -m wip","cwd":"%[1]s"`, true},
		{"another command", `"command":"git commit -am everything","cwd":"%[1]s"`, false},
		{"same command elsewhere", `"command":"git commit -m wip","cwd":"%[1]s/src"`, false},
		{"same command with an environment", `"command":"git commit -m wip","cwd":"%[1]s","env":[{"name":"GIT_DIR","value":"/tmp/x"}]`, false},
		{"same command as argv", `"command":"git","args":["commit","-m","wip"],"cwd":"%[1]s"`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent("%s", permissionRequest(50, "x1", "execute", `{"command":"git commit -m wip"}`))
			h.approve(50)
			h.agent("%s", h.rooted(`{"jsonrpc":"2.0","id":51,"method":"terminal/create","params":{"sessionId":"s1",`+tt.command+`}}`))
			if tt.covered {
				if m := h.nextAtIDE(); m["method"] != "terminal/create" {
					t.Fatalf("IDE got %v, want the terminal itself", m)
				}
				return
			}
			h.wantAsked("reject")
			if m := h.nextAtAgent(); m["id"] != float64(51) || m["error"] == nil {
				t.Fatalf("agent got %v, want the terminal refused", m)
			}
		})
	}
}

// TestEnforceAmbiguousOptionsRefused: a permission request whose options
// share an optionId is refused, so a person's "Reject" can never be
// recorded as the "Allow" of the same id (and then cover a write).
func TestEnforceAmbiguousOptionsRefused(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.agent(`{"jsonrpc":"2.0","id":40,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"w1","title":"Write","kind":"edit","status":"pending","locations":[{"path":%q}]},"options":[{"optionId":"x","name":"Reject","kind":"reject_once"},{"optionId":"x","name":"Allow","kind":"allow_once"}]}}`, h.root+"/README.md")
	if m := h.nextAtAgent(); m["id"] != float64(40) || m["error"] == nil {
		t.Fatalf("agent got %v, want the permission request refused", m)
	}
	h.nextAtIDE() // the bridge's note
	h.marker()
	h.agent(`{"jsonrpc":"2.0","id":41,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"x"}}`, h.root+"/README.md")
	h.wantAsked("reject")
	h.nextAtAgent()
}
