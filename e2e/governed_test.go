package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// The setup the scenarios of a governed real agent share.

// claudeScene is the start of a scenario with Claude Code: the suite (t is
// skipped when it is not enabled), Claude, and a new workspace.
func claudeScene(t *testing.T) (*suiteEnv, *agentSpec, *workspace) {
	t.Helper()
	return needSuite(t), &claudeAgent, newWorkspace(t)
}

// storedSession runs a first session of agent a, bridged under
// adapterPolicy, with one turn (prompt, answered with text), and returns
// the finished run and its summary, which names the session the agent
// stored in w's HOME for a later run (keepHome) to reopen.
func storedSession(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, prompt string) (*run, clientSummary) {
	t.Helper()
	first, _ := adapterRun(t, s, a, w, runOptions{
		name:   "first",
		script: fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Text("Hello.")}},
		client: clientScript{Prompts: textPrompts(prompt)},
	})
	sum := first.mustSucceed()
	first.noLeftovers()
	if sum.SessionID == "" {
		t.Fatalf("the first run reported no session id")
	}
	return first, sum
}

// geminiAdminRun runs Gemini CLI with no bridge, with --admin-policy naming
// the policy file the Gemini adapter builds from rules (none may be left
// out of it), and the client allowing what it is asked; o gives the run's
// name, files, script and prompts. The run must succeed, leave no process
// and ask no permission: Gemini's own engine decides (under default allow
// the admin policy has Gemini ask about every call, for the bridge to
// decide, so there it may ask). It returns the run.
func geminiAdminRun(t *testing.T, s *suiteEnv, w *workspace, rules adapter.Rules, o runOptions) *run {
	t.Helper()
	built, skipped := adapter.BuildGeminiPolicy(rules, "")
	if len(skipped) > 0 {
		t.Fatalf("rules left out of the Gemini policy: %q", skipped)
	}
	if err := os.MkdirAll(w.base, 0o755); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(w.base, "policy.toml")
	if err := os.WriteFile(policy, adapter.WriteGeminiPolicy(built), 0o600); err != nil {
		t.Fatal(err)
	}
	g := geminiAgent
	g.command = append(append([]string{}, geminiAgent.command...), "--admin-policy", policy)
	o.client.Permission = "allow"
	r := start(t, s, &g, w, o)
	sum := r.mustSucceed()
	r.noLeftovers()
	if sum.Permissions != 0 && rules.Default != "allow" {
		t.Errorf("Gemini asked %d permissions: its own engine should have decided every call", sum.Permissions)
	}
	return r
}

// searchRun runs one call of agent a's search tool with input, bridged
// under policyText, in a workspace whose files (o.files) hold envSecret;
// the client refuses whatever it is asked. It fails t when the secret
// reaches the model, and returns the finished run.
func searchRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, policyText, tool string, input map[string]any, o runOptions) *run {
	t.Helper()
	o.script = fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Tool(tool, input), fakemodel.Text("Done.")}}
	o.client.Permission = "reject"
	o.client.Prompts = textPrompts("Search the workspace.")
	r, _ := governedRun(t, s, a, w, policyText, o)
	r.wait()
	r.noLeftovers()
	if secretReachedModel(r) {
		t.Fatalf("BYPASS: %s %v put the .env content into the model's context", tool, input)
	}
	return r
}
