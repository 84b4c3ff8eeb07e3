package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// approvalPolicy wants the person's approval for touch, and allows the rest.
var approvalPolicy = governanceDoc("e2e-approval", "e2e approval", "touch needs the person's approval.", "  default: allow\n  ask:\n    - Bash(touch:*)\n")

// TestAdapterClaudeBypassModeNeedsApproval: in Claude's bypassPermissions
// mode, which the IDE sets with session/set_mode, Claude Code runs a call
// its PreToolUse hook answered "ask" without asking anyone
// (claude-agent-acp's canUseTool allows every call in that mode). A call
// the policy wants approved is therefore refused by the hook, and the file
// the command would make is never made; the audit log says why. In a mode
// that asks (acceptEdits) the same call goes to the person, who approves
// it, and it runs.
func TestAdapterClaudeBypassModeNeedsApproval(t *testing.T) {
	s := needSuite(t)
	a := &claudeAgent // its environment has IS_SANDBOX=1: bypassPermissions is offered to root
	t.Run("bypassPermissions", func(t *testing.T) {
		w := newWorkspace(t)
		r, auditFile, sum := modeRun(t, s, a, w, "bypassPermissions")
		if _, err := os.Stat(w.path("bypassed.txt")); err == nil {
			t.Errorf("bypassed.txt exists: the command the policy wants approved ran unasked (client asked %d times)", sum.Permissions)
		}
		rec := firstHookRecord(t, r, auditFile)
		if rec.Policy == nil || rec.Policy.Ref != "mode-does-not-ask" || rec.Policy.Decision != "deny" ||
			!strings.Contains(rec.Metadata.Reason, "bypassPermissions") {
			t.Errorf("hook record %+v: want policy mode-does-not-ask, deny, and a reason naming bypassPermissions", rec)
		}
		// The model is told the call was refused, and why.
		if reqs := mainRequestsText(r); len(reqs) < 2 || !strings.Contains(toolResultText(t, reqs[1], "toolu_fake_step0"), "bypassPermissions") {
			t.Errorf("the model was not told why the command was refused")
		}
	})
	t.Run("acceptEdits", func(t *testing.T) {
		w := newWorkspace(t)
		r, auditFile, sum := modeRun(t, s, a, w, "acceptEdits")
		if sum.Permissions < 1 {
			t.Errorf("the client was not asked to approve the command")
		}
		if _, err := os.Stat(w.path("bypassed.txt")); err != nil {
			t.Errorf("the approved command did not run: %v", err)
		}
		if rec := firstHookRecord(t, r, auditFile); rec.Policy == nil || rec.Policy.Decision != "require-approval" {
			t.Errorf("hook record %+v: want require-approval", rec)
		}
	})
}

// modeRun runs "touch bypassed.txt" under approvalPolicy in a session the
// client sets to mode, and checks the agent took the mode.
func modeRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, mode string) (*run, string, clientSummary) {
	t.Helper()
	r, auditFile := governedRun(t, s, a, w, approvalPolicy, runOptions{
		name:   "claude-mode-" + mode,
		script: fakemodel.Script{Steps: []fakemodel.Step{a.shell("touch bypassed.txt"), fakemodel.Text("Done.")}},
		client: clientScript{Permission: "allow", Mode: mode, Prompts: textPrompts("Make bypassed.txt.")},
	})
	sum := r.wait()
	r.noLeftovers()
	t.Logf("summary %+v", sum)
	if sum.Error != nil {
		t.Fatalf("the run failed: %s\n%s", *sum.Error, r.stderrTail())
	}
	if !modeTaken(t, r) {
		t.Fatalf("the agent did not accept session/set_mode %s", mode)
	}
	return r, auditFile, sum
}

// firstHookRecord returns the audit record of the hook's decision on the
// Bash call.
func firstHookRecord(t *testing.T, r *run, auditFile string) auditRecord {
	t.Helper()
	recs := hookRecords(readJSONL[auditRecord](t, auditFile), "Bash")
	if len(recs) == 0 {
		t.Fatalf("no hook record for the Bash call\n%s", r.stderrTail())
	}
	t.Logf("hook decision: %s: %s", recs[0].Policy.Decision, recs[0].Metadata.Reason)
	return recs[0]
}

// modeRequestID returns the id of the client's session/set_mode request.
func modeRequestID(t *testing.T, r *run) json.RawMessage {
	t.Helper()
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(findRequest(t, messages(readTranscript(t, r.transcript), toAgent), "session/set_mode"), &req); err != nil {
		t.Fatal(err)
	}
	return req.ID
}

// modeTaken reports whether the agent answered the client's
// session/set_mode with a result.
func modeTaken(t *testing.T, r *run) bool {
	t.Helper()
	id := modeRequestID(t, r)
	for _, m := range messages(readTranscript(t, r.transcript), toClient) {
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(m), &resp) == nil && string(resp.ID) == string(id) && resp.Result != nil {
			return true
		}
	}
	return false
}
