package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterGeminiDeniedCommand: the bridge hands Gemini CLI its rules as
// an admin policy (--admin-policy), so Gemini's own engine refuses a denied
// shell command without asking anyone: the command never runs, and what
// Gemini reports is in the audit log. With --adapter none Gemini asks for
// permission instead, which shows the refusal came from Gemini's engine.
func TestAdapterGeminiDeniedCommand(t *testing.T) {
	s := needSuite(t)
	a := &geminiAgent
	for _, mode := range []string{"auto", "none"} {
		t.Run("adapter-"+mode, func(t *testing.T) {
			w := newWorkspace(t)
			cmd := "touch adapter-ran.txt"
			r, auditFile := adapterRun(t, s, a, w, runOptions{
				name:       "gemini-deny-" + mode,
				bridgeArgs: []string{"--adapter", mode},
				script:     fakemodel.Script{Steps: []fakemodel.Step{a.shell(cmd), fakemodel.Text("The command was refused.")}},
				client:     clientScript{Prompts: textPrompts("Create the file.")},
			})
			sum := r.wait()
			r.noLeftovers()
			t.Logf("summary %+v", sum)
			_, statErr := os.Stat(w.path("adapter-ran.txt"))
			ran := statErr == nil
			// A permission request is answered by the client or, when the
			// policy decides it, by the bridge: either way an outcome goes
			// to the agent.
			asked := false
			for _, m := range messages(readTranscript(t, r.record), toAgent) {
				if strings.Contains(m, `"outcome"`) {
					asked = true
				}
			}
			switch mode {
			case "auto":
				if ran {
					t.Fatalf("the denied command ran")
				}
				if asked {
					t.Errorf("Gemini asked permission for the denied command: its own engine did not have the rule")
				}
				// The policy file is on Gemini's command line, not the
				// wire; the bridge log names it.
				blog, _ := os.ReadFile(filepath.Join(filepath.Dir(r.record), "bridge.log"))
				if !strings.Contains(string(blog), "as an admin policy") {
					t.Errorf("the bridge log does not say Gemini got the admin policy")
				}
				// Gemini reports the refused call as a failed execute
				// tool call (without the command or the rule); the bridge
				// records it as a deny of Gemini's policy engine.
				audit, err := os.ReadFile(auditFile)
				if err != nil {
					t.Fatal(err)
				}
				var refused bool
				for _, rec := range readJSONL[auditRecord](t, auditFile) {
					if rec.Metadata.Stage == "agent-policy" && rec.Policy != nil && rec.Policy.Decision == "deny" &&
						strings.HasPrefix(rec.Subject.Ref, "run_shell_command") {
						refused = true
					}
				}
				if !refused || !strings.Contains(string(audit), `denied by policy`) {
					t.Errorf("the audit log has no deny record of the call Gemini refused")
				}
				if reqs := r.model.MainRequests(); len(reqs) < 2 || !strings.Contains(string(reqs[1].Body), "denied by policy") {
					t.Errorf("the model was not told Gemini's policy denied the command")
				}
			case "none":
				// The control: without the admin policy Gemini asks, and
				// only the wire-level enforcement can refuse.
				if !asked {
					t.Errorf("without the adapter Gemini should have asked permission")
				}
				t.Logf("wire-level enforcement only: the command ran = %v", ran)
			}
		})
	}
}

// TestAdapterGeminiAdminPolicy checks, with the real Gemini CLI and no
// bridge, that Gemini loads the policy file the Gemini adapter writes and
// enforces it with its own engine: a denied shell command and a denied read
// are refused without a permission request. (Gemini refuses to read .env on
// its own, so the read rule is tried on another file.)
func TestAdapterGeminiAdminPolicy(t *testing.T) {
	s := needSuite(t)
	w := newWorkspace(t)
	a := &geminiAgent
	r := geminiAdminRun(t, s, w, adapter.Rules{Deny: []string{"Bash(touch:*)", "Read(**/secret.txt)"}}, runOptions{
		name:  "gemini-admin-policy",
		files: map[string]string{"secret.txt": envSecret + "\n"},
		script: fakemodel.Script{Steps: []fakemodel.Step{
			a.shell("touch admin-ran.txt"),
			a.read(w.path("secret.txt")),
			fakemodel.Text("Both were refused."),
		}},
		client: clientScript{Prompts: textPrompts("Create the file, then read .env.")},
	})
	if _, err := os.Stat(w.path("admin-ran.txt")); err == nil {
		t.Errorf("the denied command ran")
	}
	if secretReachedModel(r) {
		t.Errorf("the secret file's content reached the model")
	}
	reqs := r.model.MainRequests()
	if len(reqs) < 3 {
		t.Fatalf("%d main requests, want 3\n%s", len(reqs), r.stderrTail())
	}
	// Gemini tells the model its policy refused the call (the rule's
	// denyMessage is not passed on).
	for i, want := range []string{`"run_shell_command","response":{"error":"Tool execution for \"Shell\" denied by policy.`, `"read_file","response":{"error":"Tool execution for \"ReadFile\" denied by policy.`} {
		if !strings.Contains(string(reqs[i+1].Body), want) {
			t.Errorf("main request %d lacks %q:\n%.1500s", i+2, want, reqs[i+1].Body)
		}
	}
}
