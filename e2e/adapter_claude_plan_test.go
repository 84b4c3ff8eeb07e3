package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// allowAllPolicy allows every call: what the person's mode restricts is
// then all that stands between the model and an edit.
var allowAllPolicy = governanceDoc("e2e-allow-all", "e2e allow all", "Every call is allowed.", "  default: allow\n")

// enforcingPlanClaude is Claude Code with bypassPermissions disabled in its
// user settings. Where bypass is available (any user but root, or root
// with IS_SANDBOX=1) Claude Code does not enforce plan mode's blocks at
// all, and a Write in plan mode runs unasked with or without the bridge;
// without it, plan mode asks the person before each edit, which is what
// these scenarios hold the bridge to.
func enforcingPlanClaude() *agentSpec {
	a := claudeAgent
	a.setupHome = func(home string) error {
		dir := filepath.Join(home, ".claude")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "settings.json"),
			[]byte(`{"permissions":{"disableBypassPermissionsMode":"disable"}}`+"\n"), 0o644)
	}
	return &a
}

// TestAdapterClaudePlanModeAsksBeforeEdits: the person set the session to
// Plan (no edits until they approve the plan) and the policy allows every
// call. The bridge's hook answered Claude's Write "allow", which made
// Claude skip plan mode's question, and the bridge approved ExitPlanMode's
// question on the person's behalf, which moved the session to Default:
// either way a file was written that the person was never asked about.
// The Write, and ExitPlanMode, reach the person as they do without the
// bridge; refused, nothing is written; approved, the Write runs. In
// dontAsk, Claude refuses the Write as it does without the bridge.
func TestAdapterClaudePlanModeAsksBeforeEdits(t *testing.T) {
	s := needSuite(t)
	a := enforcingPlanClaude()
	type want struct {
		written    bool
		asked      int    // permission requests that reach the client
		askedKinds string // the kinds of their tool calls, in order
	}
	rows := []struct {
		name, mode, answer string
		bridged            bool
		steps              func(w *workspace) []fakemodel.Step
		want               want
	}{
		{"without the bridge plan mode asks", "plan", "reject", false, writeSteps, want{false, 1, "edit"}},
		{"a refused write in plan mode", "plan", "reject", true, writeSteps, want{false, 1, "edit"}},
		{"an approved write in plan mode", "plan", "allow", true, writeSteps, want{true, 1, "edit"}},
		{"leaving plan mode is the person's choice", "plan", "reject", true, exitSteps, want{false, 2, "switch_mode,edit"}},
		{"dontAsk refuses the write", "dontAsk", "reject", true, writeSteps, want{false, 0, ""}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			w := newWorkspace(t)
			o := runOptions{name: "plan", script: fakemodel.Script{Steps: r.steps(w)},
				client: clientScript{Permission: r.answer, Mode: r.mode, Prompts: textPrompts("Plan the change.")}}
			var run *run
			if r.bridged {
				run, _ = governedRun(t, s, a, w, allowAllPolicy, o)
			} else {
				run = start(t, s, a, w, o)
			}
			sum := run.wait()
			run.noLeftovers()
			if sum.Error != nil {
				t.Fatalf("the run failed: %s\n%s", *sum.Error, run.stderrTail())
			}
			_, err := os.Stat(w.path("planned.txt"))
			if written := err == nil; written != r.want.written {
				t.Errorf("planned.txt written: %v, want %v (the client was asked %d times)", written, r.want.written, sum.Permissions)
			}
			var kinds []string
			for _, m := range messages(readTranscript(t, run.transcript), toClient) {
				if strings.Contains(m, `"session/request_permission"`) {
					kinds = append(kinds, jsonString(m, "params", "toolCall", "kind"))
				}
				if strings.Contains(m, `"current_mode_update"`) {
					t.Errorf("the session's mode changed without the person: %.300s", m)
				}
			}
			if sum.Permissions != r.want.asked || strings.Join(kinds, ",") != r.want.askedKinds {
				t.Errorf("the client was asked %d times about %q, want %d about %q", sum.Permissions, kinds, r.want.asked, r.want.askedKinds)
			}
		})
	}
}

// writeSteps has the model write planned.txt.
func writeSteps(w *workspace) []fakemodel.Step {
	return []fakemodel.Step{claudeAgent.write(w.path("planned.txt"), "written while planning\n"), fakemodel.Text("Done.")}
}

// exitSteps has the model leave plan mode, then write planned.txt.
func exitSteps(w *workspace) []fakemodel.Step {
	return append([]fakemodel.Step{fakemodel.Tool("ExitPlanMode", map[string]any{"plan": "Write planned.txt."})}, writeSteps(w)...)
}

// jsonString returns the string at path in the JSON object line, or "".
func jsonString(line string, path ...string) string {
	var v any
	if json.Unmarshal([]byte(line), &v) != nil {
		return ""
	}
	for _, k := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = o[k]
	}
	s, _ := v.(string)
	return s
}
