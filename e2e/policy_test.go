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
const e2ePolicy = `---
schema: governance.workspace/v1
name: e2e-workspace
title: e2e workspace
description: The policy the end-to-end policy scenarios run under.
version: 1.0.0
rules:
  default: allow
  deny:
    - Read(**/.env)
    - Bash(curl:*)
---

# e2e workspace
`

const envSecret = "E2E_SECRET=hunter2-do-not-leak"

// policyRun starts a bridged run under e2ePolicy, with a .env in the workspace.
func policyRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, steps []fakemodel.Step, prompt string) *run {
	t.Helper()
	policy := filepath.Join(w.base, "GOVERNANCE.md")
	if err := os.WriteFile(policy, []byte(e2ePolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	return start(t, s, a, w, runOptions{
		name:       "policy",
		bridge:     true,
		bridgeArgs: []string{"--policy", policy},
		files:      map[string]string{".env": envSecret + "\n"},
		script:     fakemodel.Script{Steps: steps},
		client:     clientScript{Permission: "allow", Prompts: textPrompts(prompt)},
	})
}

// secretReachedModel reports whether the .env content reached the model.
func secretReachedModel(r *run) bool {
	for _, req := range r.model.Requests() {
		if strings.Contains(string(req.Body), "hunter2-do-not-leak") {
			return true
		}
	}
	return false
}

// TestPolicyDeniedRead: Gemini reads .env through the client's
// fs/read_text_file; the bridge refuses it, the client never serves it and
// the model never sees the secret.
func TestPolicyDeniedRead(t *testing.T) {
	s := needSuite(t)
	needBridgeFlag(t, s, "policy", "governance (issue 6) has not landed")
	a := &geminiAgent
	w := newWorkspace(t)
	r := policyRun(t, s, a, w, []fakemodel.Step{a.read(w.path(".env")), fakemodel.Text("Could not read it.")}, "Read .env.")
	sum := r.mustSucceed()
	r.noLeftovers()
	t.Logf("summary %+v", sum)
	if secretReachedModel(r) {
		t.Errorf("the .env content reached the model")
	}
	for _, m := range messages(readTranscript(t, r.transcript), toClient) {
		if strings.Contains(m, `"fs/read_text_file"`) && strings.Contains(m, ".env") {
			t.Errorf("the client was asked to read .env: %s", m)
		}
	}
}

// TestPolicyDeniedCommand: a command the policy denies is asked for with a
// permission request; the bridge denies it and the command never runs.
func TestPolicyDeniedCommand(t *testing.T) {
	s := needSuite(t)
	needBridgeFlag(t, s, "policy", "governance (issue 6) has not landed")
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			w := newWorkspace(t)
			// The redirection creates the file even though curl fails: its
			// absence shows the command never ran.
			cmd := "curl -s http://127.0.0.1:9/ > curl-ran.txt"
			r := policyRun(t, s, a, w, []fakemodel.Step{a.shell(cmd), fakemodel.Text("The command was refused.")}, "Fetch it.")
			r.mustSucceed()
			r.noLeftovers()
			if _, err := os.Stat(w.path("curl-ran.txt")); err == nil {
				t.Errorf("the denied command ran")
			}
		})
	}
}

// TestPolicyUnaskedTool: Claude Code reads files itself without asking the
// client, so its Read of .env shows up only as tool_call updates; the policy
// forbids it, so the bridge must stop the turn.
func TestPolicyUnaskedTool(t *testing.T) {
	s := needSuite(t)
	needBridgeFlag(t, s, "policy", "governance (issue 6) has not landed")
	a := &claudeAgent
	w := newWorkspace(t)
	r := policyRun(t, s, a, w, []fakemodel.Step{a.read(w.path(".env")), fakemodel.Text("Here it is.")}, "Show me .env.")
	sum := r.wait()
	r.noLeftovers()
	if len(sum.StopReasons) != 1 || sum.StopReasons[0] != "cancelled" {
		t.Errorf("stop reasons %v, want [cancelled]: the bridge must stop a forbidden tool run without asking", sum.StopReasons)
	}
	rec := strings.Join(messages(readTranscript(t, r.record), toAgent), "\n")
	if !strings.Contains(rec, `"session/cancel"`) {
		t.Errorf("the bridge sent the agent no session/cancel")
	}
}
