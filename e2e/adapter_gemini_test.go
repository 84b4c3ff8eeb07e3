package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterGeminiDeniedCommand: the bridge hands Gemini CLI its rules as
// an admin policy (--admin-policy), so Gemini's own engine refuses a denied
// shell command without asking anyone: the command never runs, and what
// Gemini reports is in the audit log. With --adapter none the same command
// is only stopped at the wire, after Gemini asks the client for permission,
// which shows the refusal came from Gemini's engine.
func TestAdapterGeminiDeniedCommand(t *testing.T) {
	s := needSuite(t)
	needAdapters(t, s)
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
			if _, err := os.Stat(w.path("adapter-ran.txt")); err == nil {
				t.Fatalf("the denied command ran")
			}
			fromAgent := messages(readTranscript(t, r.record), toClient)
			asked := false
			for _, m := range fromAgent {
				if strings.Contains(m, `"session/request_permission"`) && strings.Contains(m, "touch") {
					asked = true
				}
			}
			switch mode {
			case "auto":
				if asked {
					t.Errorf("Gemini asked permission for the denied command: its own engine did not have the rule")
				}
				log, _ := os.ReadFile(r.record)
				if !strings.Contains(string(log), "--admin-policy") {
					// The flag is on Gemini's command line, not the wire;
					// the bridge log names it.
					blog, _ := os.ReadFile(strings.TrimSuffix(r.record, "bridge-record.jsonl") + "bridge.log")
					if !strings.Contains(string(blog), "admin policy") {
						t.Errorf("the bridge log does not say Gemini got the admin policy")
					}
				}
				audit, err := os.ReadFile(auditFile)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(audit), "touch adapter-ran.txt") {
					t.Errorf("the audit log has no record of the command Gemini refused")
				}
				if len(r.model.MainRequests()) >= 2 && !strings.Contains(string(r.model.MainRequests()[1].Body), "acp-bridge policy denies") {
					t.Logf("Gemini's refusal as the model saw it:\n%.1500s", r.model.MainRequests()[1].Body)
					t.Errorf("the model was not told the bridge's policy denied the command")
				}
			case "none":
				if !asked {
					t.Errorf("without the adapter Gemini should have asked permission (the control case)")
				}
			}
		})
	}
}
