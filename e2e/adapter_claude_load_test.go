package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterClaudeLoadedSessionDenied: a conversation reopened later (as
// Zed does when the user picks a past thread) runs under the same policy as
// a new one. A first bridge and Claude Code hold one harmless turn and end;
// a second bridge and Claude Code, with the same HOME (Claude's session
// store), open that session with session/load, or with session/resume
// (unstable, which claude-agent-acp 0.49.0 also advertises), and the model
// asks to Read .env. The bridge must have put its settings into the request
// that opened the session, Claude must refuse the read, the secret must
// reach neither the model, nor the client, nor the audit log, and the audit
// log must hold the denial.
func TestAdapterClaudeLoadedSessionDenied(t *testing.T) {
	s := needSuite(t)
	for _, method := range []string{"session/load", "session/resume"} {
		t.Run(strings.TrimPrefix(method, "session/"), func(t *testing.T) {
			loadedSessionDenied(t, s, method)
		})
	}
}

func loadedSessionDenied(t *testing.T, s *suiteEnv, method string) {
	a := &claudeAgent
	w := newWorkspace(t)
	// firstPrompt marks the first turn, so the second run can show it
	// really continued that conversation.
	const firstPrompt = "Say hello, first-turn-marker-4821."
	first, sum := storedSession(t, s, a, w, firstPrompt)

	r, auditFile := adapterRun(t, s, a, w, runOptions{
		name:     "loaded",
		keepHome: true,
		files:    map[string]string{".env": envSecret + "\n"},
		script:   fakemodel.Script{Steps: []fakemodel.Step{a.read(w.path(".env")), fakemodel.Text("I could not read it.")}},
		client: clientScript{
			Load:    &sessionLoad{SessionID: sum.SessionID, Method: method},
			Prompts: textPrompts("Show me .env."),
		},
	})
	loaded := r.mustSucceed()
	r.noLeftovers()
	t.Logf("first run %+v; loaded run %+v", sum, loaded)

	// The agent received the session request with the bridge's settings;
	// the recording keeps the IDE's original as "replaced".
	rec := readTranscript(t, r.record)
	var sent, original []byte
	for _, l := range rec {
		var env struct {
			Method string `json:"method"`
		}
		if l.Dir != toAgent || json.Unmarshal(l.Msg, &env) != nil || env.Method != method {
			continue
		}
		switch l.Bridge {
		case "":
			sent = l.Msg
		case "replaced":
			original = l.Msg
		default:
			t.Errorf("the bridge did not pass on the %s: recorded as %q", method, l.Bridge)
		}
	}
	if sent == nil {
		t.Fatalf("the recording has no %s sent to Claude", method)
	}
	if got := rawAt(t, sent, "params", "sessionId"); string(got) != `"`+sum.SessionID+`"` {
		t.Errorf("Claude was asked for session %s, want %q", got, sum.SessionID)
	}
	deny, hooks, err := claudeSettingsIn(sent)
	if err != nil || !strings.Contains(deny, "Read(**/.env)") || hooks == 0 {
		t.Errorf("the %s Claude received lacks the bridge's settings (deny %q, %d PreToolUse hooks, %v):\n%s", method, deny, hooks, err, sent)
	}
	clientLines := readTranscript(t, r.transcript)
	ideSent := findRequest(t, messages(clientLines, toAgent), method)
	if !bytes.Equal(original, ideSent) {
		t.Errorf("the recording's replaced %s is not what the IDE sent:\nrecorded %s\nIDE sent %s", method, original, ideSent)
	}
	// session/load replays the conversation to the client; resume does not.
	if method == "session/load" && !strings.Contains(strings.Join(messages(clientLines, toClient), "\n"), "first-turn-marker-4821") {
		t.Errorf("the client did not receive the replayed first turn")
	}

	// The second run continued the first conversation.
	reqs := mainRequestsText(r)
	if len(reqs) == 0 || !strings.Contains(reqs[0], firstPrompt) {
		t.Errorf("the loaded session's first model request does not carry the first turn (%d requests)", len(reqs))
	}

	// Claude refused the read and told the model so.
	if len(reqs) < 2 {
		t.Errorf("Claude did not tell the model about the denied read (stop reasons %v)", loaded.StopReasons)
	} else {
		got := toolResultText(t, reqs[1], "toolu_fake_step0")
		t.Logf("the model's tool result for the read: %q", got)
		if !strings.Contains(got, "denied by your permission settings") && !strings.Contains(got, "acp-bridge policy") {
			t.Errorf("the model's tool result for the read is %q, want a denial", got)
		}
	}

	// The secret is nowhere it must not be.
	const secret = "hunter2-do-not-leak"
	var modelText strings.Builder
	for _, req := range append(first.model.Requests(), r.model.Requests()...) {
		modelText.Write(req.Body)
	}
	for _, where := range []struct{ name, text string }{
		{"the model requests", modelText.String()},
		{"the client transcript", readFileString(t, r.transcript)},
		{"the audit log", readFileString(t, auditFile)},
	} {
		if n := strings.Count(where.text, secret); n != 0 {
			t.Errorf("the .env secret appears %d times in %s", n, where.name)
		}
	}

	// The audit log holds the denial with the path Claude tried to read.
	denied := envDenial(t, auditFile, r)
	t.Logf("audited: %s (stage %q, policy %s)", denied.Action, denied.Metadata.Stage, denied.Policy.Ref)
}

// claudeSettingsIn returns the permission deny rules and the number of
// PreToolUse hooks in the Claude settings of a session request
// (_meta.claudeCode.options.extraArgs.settings, a JSON string).
func claudeSettingsIn(msg []byte) (deny string, preToolUse int, err error) {
	var req struct {
		Params struct {
			Meta struct {
				ClaudeCode struct {
					Options struct {
						ExtraArgs struct {
							Settings *string `json:"settings"`
						} `json:"extraArgs"`
					} `json:"options"`
				} `json:"claudeCode"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal(msg, &req); err != nil {
		return "", 0, err
	}
	str := req.Params.Meta.ClaudeCode.Options.ExtraArgs.Settings
	if str == nil {
		return "", 0, errors.New("no _meta.claudeCode.options.extraArgs.settings")
	}
	var settings struct {
		Permissions struct{ Deny []string } `json:"permissions"`
		Hooks       map[string][]any        `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(*str), &settings); err != nil {
		return "", 0, fmt.Errorf("settings %q: %v", *str, err)
	}
	return strings.Join(settings.Permissions.Deny, ","), len(settings.Hooks["PreToolUse"]), nil
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
