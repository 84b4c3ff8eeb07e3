package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// e2ePolicy is the GOVERNANCE.md of the policy scenarios (issue 6's format:
// AIP-7 frontmatter plus the compact Claude-syntax rule list).
var e2ePolicy = governanceDoc("e2e-workspace", "e2e workspace", "The policy the end-to-end policy scenarios run under.", "  default: allow\n  deny:\n    - Read(./secrets/**)\n    - Bash(curl:*)\n")

const envSecret = "E2E_SECRET=hunter2-do-not-leak"

// wireOnly are the bridge flags that turn the agent adapters off, so that
// a scenario exercises enforcement on the ACP wire alone.
var wireOnly = []string{"--adapter", "none"}

// policyRun starts a run with a secret file in the workspace: directly when
// withPolicy is false (to show what the agent does unguarded), else through
// the bridge under e2ePolicy.
func policyRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, withPolicy bool, steps []fakemodel.Step, prompt string) *run {
	t.Helper()
	if withPolicy {
		return policyRunWith(t, s, a, w, nil, steps, prompt)
	}
	return policyStart(t, s, a, w, runOptions{name: "direct"}, steps, prompt)
}

// policyRunWith runs through the bridge under e2ePolicy with extra bridge
// flags; the audit log goes to audit.jsonl in the workspace base (fresh).
func policyRunWith(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, extra []string, steps []fakemodel.Step, prompt string) *run {
	t.Helper()
	policy := writeGovernance(t, w, e2ePolicy)
	audit := filepath.Join(w.base, "audit.jsonl")
	os.Remove(audit)
	name := "policy"
	if len(extra) > 0 {
		name += strings.Join(extra, "_")
	}
	o := runOptions{name: name, bridge: true, bridgeArgs: append([]string{
		"--policy", policy, "--audit", audit, "--cache-dir", filepath.Join(w.base, "cache")}, extra...)}
	return policyStart(t, s, a, w, o, steps, prompt)
}

func policyStart(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, o runOptions, steps []fakemodel.Step, prompt string) *run {
	t.Helper()
	return start(t, s, a, w, runOptions{
		name:       o.name,
		bridge:     o.bridge,
		bridgeArgs: o.bridgeArgs,
		files:      map[string]string{"secrets/token.txt": envSecret + "\n"},
		script:     fakemodel.Script{Steps: steps},
		client:     clientScript{Permission: "allow", Prompts: textPrompts(prompt)},
	})
}

// writeGovernance writes text as the workspace base's GOVERNANCE.md and
// returns its path.
func writeGovernance(t *testing.T, w *workspace, text string) string {
	t.Helper()
	if err := os.MkdirAll(w.base, 0o755); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(w.base, "GOVERNANCE.md")
	if err := os.WriteFile(policy, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return policy
}

// secretReachedModel reports whether the secret file's content reached the model.
func secretReachedModel(r *run) bool {
	for _, req := range r.model.Requests() {
		if strings.Contains(string(req.Body), "hunter2-do-not-leak") {
			return true
		}
	}
	return false
}

// auditHasDenial fails t unless the run's audit log records a denial.
func auditHasDenial(t *testing.T, w *workspace) {
	t.Helper()
	audit, err := os.ReadFile(filepath.Join(w.base, "audit.jsonl"))
	if err != nil || !strings.Contains(string(audit), `"deny"`) {
		t.Errorf("the audit log has no denial (%v)", err)
	}
}

// clientAskedToRead reports whether the agent asked the client to read a
// path ending in name.
func clientAskedToRead(t *testing.T, r *run, name string) bool {
	for _, m := range messages(readTranscript(t, r.transcript), toClient) {
		if strings.Contains(m, `"fs/read_text_file"`) && strings.Contains(m, name+`"`) {
			return true
		}
	}
	return false
}

// The secret lives in secrets/token.txt rather than .env: Gemini CLI 0.61
// refused a replace of .env by itself ("Path not in workspace"), so a .env
// would not show what the bridge adds.

// geminiEditEnv is a Gemini "replace" of the secret file. Gemini CLI 0.61 reads files
// for read_file from disk itself, but its edit tools read the current content
// through the client's fs/read_text_file: that is the read the policy must
// stop. The call names no part of the secret value.
func geminiEditEnv(w *workspace) fakemodel.Step {
	return fakemodel.Tool("replace", map[string]any{
		"file_path": w.path("secrets/token.txt"), "instruction": "Rename the variable.",
		"old_string": "E2E_SECRET=", "new_string": "E2E_SECRET_OLD=",
	})
}

// TestPolicyDeniedRead: Gemini's edit of secrets/token.txt reads it through the client's
// fs/read_text_file; under the policy (wire enforcement only, adapters off)
// the bridge refuses that read, the
// client is never asked, the file is unchanged and the secret never reaches
// the model. The direct run first shows the read does go through the client.
func TestPolicyDeniedRead(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	steps := func(w *workspace) []fakemodel.Step {
		return []fakemodel.Step{geminiEditEnv(w), fakemodel.Text("Done.")}
	}
	w := newWorkspace(t)
	direct := policyRun(t, s, a, w, false, steps(w), "Rename the variable in secrets/token.txt.")
	direct.mustSucceed()
	direct.noLeftovers()
	if !clientAskedToRead(t, direct, "/secrets/token.txt") {
		t.Fatalf("precondition: unguarded, Gemini did not read the secret file through fs/read_text_file; the scenario tests nothing")
	}

	r := policyRunWith(t, s, a, w, wireOnly, steps(w), "Rename the variable in secrets/token.txt.")
	r.mustSucceed()
	r.noLeftovers()
	if secretReachedModel(r) {
		t.Errorf("the secret file's content reached the model")
	}
	if clientAskedToRead(t, r, "/secrets/token.txt") {
		t.Errorf("the client was asked to read the secret file")
	}
	if b, _ := os.ReadFile(w.path("secrets/token.txt")); string(b) != envSecret+"\n" {
		t.Errorf("the secret file changed: %q", b)
	}
	auditHasDenial(t, w)
}

// TestPolicyDeniedCommand: a command the policy denies is asked for with a
// permission request; the bridge (wire enforcement only, adapters off: with
// the adapters the agents' own engines deny it, see the adapter tests)
// denies it, the command never runs and the audit log has the denial. The
// direct run first shows that, allowed, the command runs and was asked for.
func TestPolicyDeniedCommand(t *testing.T) {
	s := needSuite(t)
	// The redirection creates the file even though curl fails: its absence
	// shows the command never ran.
	const cmd = "curl -s http://127.0.0.1:9/ > curl-ran.txt"
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			w := newWorkspace(t)
			steps := []fakemodel.Step{a.shell(cmd), fakemodel.Text("The command was refused.")}
			direct := policyRun(t, s, a, w, false, steps, "Fetch it.")
			sum := direct.mustSucceed()
			direct.noLeftovers()
			if _, err := os.Stat(w.path("curl-ran.txt")); err != nil || sum.Permissions == 0 {
				t.Fatalf("precondition: unguarded and allowed, the command did not run after a permission request (ran: %v, permissions: %d)", err == nil, sum.Permissions)
			}

			r := policyRunWith(t, s, a, w, wireOnly, steps, "Fetch it.")
			r.mustSucceed()
			r.noLeftovers()
			if _, err := os.Stat(w.path("curl-ran.txt")); err == nil {
				t.Errorf("the denied command ran")
			}
			auditHasDenial(t, w)
		})
	}
}

// TestPolicyUnaskedTool: Claude Code reads files itself without asking the
// client, so its Read of the secret file shows up only as tool_call updates;
// the direct run shows the secret reaching the model with no permission
// request. Under a policy that forbids the read:
//   - with the Claude adapter (--adapter auto, the default; issue 7) Claude's
//     own hook asks the bridge first, so the read is denied inside Claude and
//     the secret never reaches the model;
//   - without it (--adapter none) the bridge sees the read only as it
//     happens and must stop the turn (session/cancel to the agent, the
//     prompt ends "cancelled").
//
// Either way the audit log records the denial.
func TestPolicyUnaskedTool(t *testing.T) {
	s, a, w := claudeScene(t)
	steps := []fakemodel.Step{a.read(w.path("secrets/token.txt")), fakemodel.Text("Here it is.")}
	direct := policyRun(t, s, a, w, false, steps, "Show me secrets/token.txt.")
	dsum := direct.mustSucceed()
	direct.noLeftovers()
	if dsum.Permissions != 0 || !secretReachedModel(direct) || clientAskedToRead(t, direct, "/secrets/token.txt") {
		t.Fatalf("precondition: unguarded, Claude should read the secret file itself without asking (permissions %d, secret reached model %v)",
			dsum.Permissions, secretReachedModel(direct))
	}

	for _, adapter := range []string{"auto", "none"} {
		t.Run("adapter-"+adapter, func(t *testing.T) {
			r := policyRunWith(t, s, a, w, []string{"--adapter", adapter}, steps, "Show me secrets/token.txt.")
			sum := r.wait()
			r.noLeftovers()
			auditHasDenial(t, w)
			if adapter == "auto" {
				if secretReachedModel(r) {
					t.Errorf("the secret reached the model although Claude's hook could deny the read")
				}
				return
			}
			if len(sum.StopReasons) != 1 || sum.StopReasons[0] != "cancelled" {
				t.Errorf("stop reasons %v, want [cancelled]: the bridge must stop a forbidden tool run without asking", sum.StopReasons)
			}
			rec := strings.Join(messages(readTranscript(t, r.record), toAgent), "\n")
			if !strings.Contains(rec, `"session/cancel"`) {
				t.Errorf("the bridge sent the agent no session/cancel")
			}
		})
	}
}
