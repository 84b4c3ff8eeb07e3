package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterClaudeRolloverKeepsPolicy: with --compress on, /bridge-compress
// has the next prompt continue in a fresh Claude session the bridge opens
// itself with its own session/new, written to the agent past the middleware
// inside compression. That session must carry the adapter's settings as the
// IDE's did (Claude's permission rules and the PreToolUse hook), or Claude
// would read .env itself there: the rollover reuses the session/new params
// as they reached the agent, the adapter's additions included.
func TestAdapterClaudeRolloverKeepsPolicy(t *testing.T) {
	s, a, w := claudeScene(t)
	denied := rolloverKeepsPolicy(t, s, a, w, runOptions{name: "claude-rollover"})
	t.Logf("audited: %s (stage %q, policy %s)", denied.Action, denied.Metadata.Stage, denied.Policy.Ref)
}

// TestAdapterClaudeLoadedRolloverKeepsPolicy: a session the IDE reopened
// with session/load or session/resume, then rolled over with
// /bridge-compress, continues in a fresh Claude session the bridge opens
// with the reopening request's params. Those must be the params as they
// reached the agent, with the adapter's settings (Claude's permission rules
// and the PreToolUse hook), not the IDE's as compression saw them before
// the adapter: with the IDE's, Claude read .env itself in the fresh session
// and its content reached the model.
func TestAdapterClaudeLoadedRolloverKeepsPolicy(t *testing.T) {
	s := needSuite(t)
	for _, method := range []string{"session/load", "session/resume"} {
		t.Run(strings.TrimPrefix(method, "session/"), func(t *testing.T) {
			a := &claudeAgent
			w := newWorkspace(t)
			_, sum := storedSession(t, s, a, w, "Say hello.")
			rolloverKeepsPolicy(t, s, a, w, runOptions{
				name:     "loaded-rollover",
				keepHome: true,
				client:   clientScript{Load: &sessionLoad{SessionID: sum.SessionID, Method: method}},
			})
		})
	}
}

// rolloverKeepsPolicy runs Claude under adapterPolicy with compression on
// (o names the run and may reopen a session) through three prompts: a turn
// that reads notes.txt, /bridge-compress, and one asking for .env, which
// the fresh session the bridge opens for the rollover must refuse. It
// fails t unless the audit log records the rollover and the denial of the
// read and the .env content stays away from the model, and returns the
// denial.
func rolloverKeepsPolicy(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, o runOptions) auditRecord {
	t.Helper()
	o.files = map[string]string{".env": envSecret + "\n", "notes.txt": "notes\n"}
	readAfterRollover(&o, a, w, ".env", "I could not read it.", "Show me .env.")
	r, auditFile, sum := rolloverRun(t, s, a, w, o)
	t.Logf("summary %+v", sum)
	if secretReachedModel(r) {
		t.Fatalf("the .env content reached the model from the session the bridge opened for the rollover")
	}
	return envDenial(t, auditFile, r)
}

// readAfterRollover scripts o's run as three prompts: a turn that reads
// notes.txt, /bridge-compress, and prompt, which the model answers by
// reading file and then replying reply. The first turn reads notes.txt: a
// fresh session's first request must not have the history length of the
// previous main request, which the fake model takes for a retry.
func readAfterRollover(o *runOptions, a *agentSpec, w *workspace, file, reply, prompt string) {
	o.script = fakemodel.Script{Steps: []fakemodel.Step{
		a.read(w.path("notes.txt")),
		fakemodel.Text("Noted."),
		a.read(w.path(file)),
		fakemodel.Text(reply),
	}}
	o.client.Prompts = textPrompts("Keep notes on this project.", "/bridge-compress", prompt)
}

// rolloverRun runs o, whose prompts include /bridge-compress, with
// compression on (the cache under w.base) and waits for it to end; it
// fails t unless the audit log records the rollover, and returns the run,
// its audit file and the client's summary.
func rolloverRun(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, o runOptions) (*run, string, clientSummary) {
	t.Helper()
	o.bridgeArgs = []string{"--compress", "on", "--cache-dir", filepath.Join(w.base, "cache")}
	r, auditFile := adapterRun(t, s, a, w, o)
	sum := r.wait()
	r.noLeftovers()
	if b, err := os.ReadFile(auditFile); err != nil || !strings.Contains(string(b), `"ROLLOVER"`) {
		t.Fatalf("no rollover in the audit log (%v; client: %+v)\n%s", err, sum, r.stderrTail())
	}
	return r, auditFile, sum
}

// TestAdapterClaudeRolloverAuditsIDESession: after /bridge-compress the
// next prompt continues in a fresh Claude session the bridge opened, whose
// id Claude's hook payload carries. Every record of the session's work,
// the hook's decisions included, names the IDE's session: a record naming
// the fresh one would put a session nobody opened in "audit sessions" and
// leave the decision out of "audit show --session" for the person's.
func TestAdapterClaudeRolloverAuditsIDESession(t *testing.T) {
	s, a, w := claudeScene(t)
	o := runOptions{name: "claude-rollover-audit"}
	o.files = map[string]string{"notes.txt": "notes\n", "more.txt": "more\n"}
	readAfterRollover(&o, a, w, "more.txt", "Read it.", "Read more.txt.")
	r, auditFile, sum := rolloverRun(t, s, a, w, o)
	type sessionRecord struct {
		Action   string `json:"action"`
		Metadata struct {
			Session      string `json:"session"`
			AgentSession string `json:"agentSession"`
			Stage        string `json:"stage"`
		} `json:"metadata"`
		Subject struct {
			Path string `json:"path"`
		} `json:"subject"`
	}
	recs := readJSONL[sessionRecord](t, auditFile)
	hookAfter := false
	for _, rec := range recs {
		if rec.Metadata.Session != "" && rec.Metadata.Session != sum.SessionID {
			t.Errorf("a %s record (%s) names session %s; the IDE opened only %s", rec.Action, rec.Subject.Path, rec.Metadata.Session, sum.SessionID)
		}
		if rec.Metadata.Stage == "hook" && strings.HasSuffix(rec.Subject.Path, "more.txt") {
			hookAfter = true
			if rec.Metadata.AgentSession == "" || rec.Metadata.AgentSession == sum.SessionID {
				t.Errorf("the hook's record after the rollover names the agent's session as %q", rec.Metadata.AgentSession)
			}
		}
	}
	if !hookAfter {
		t.Fatalf("no hook record of the Read after the rollover\n%s", r.stderrTail())
	}
}

// TestAdapterClaudeRolloverKeepsMode: the person set the session to Plan
// in the IDE (session/set_mode), so Claude tells the model it must not make
// edits yet. /bridge-compress then has the next prompt continue in a fresh
// Claude session the bridge opened, which starts in Claude's default mode
// while the IDE still shows Plan: the bridge gives it the session's mode
// before the prompt, and the model is told Plan mode is active there too.
func TestAdapterClaudeRolloverKeepsMode(t *testing.T) {
	s, a, w := claudeScene(t)
	o := runOptions{name: "claude-rollover-mode"}
	o.files = map[string]string{"notes.txt": "notes\n"}
	o.client.Mode = "plan"
	o.script = fakemodel.Script{Steps: []fakemodel.Step{
		a.read(w.path("notes.txt")),
		fakemodel.Text("Noted."),
		fakemodel.Text("Still planning."),
	}}
	o.client.Prompts = textPrompts("Plan the notes layout; change nothing yet.", "/bridge-compress", "Go on planning.")
	r, _, sum := rolloverRun(t, s, a, w, o)
	if sum.Error != nil {
		t.Fatalf("the run failed: %s\n%s", *sum.Error, r.stderrTail())
	}
	const planActive = "Plan mode is active"
	reqs := mainRequestsText(r)
	if len(reqs) < 2 || !strings.Contains(reqs[0], planActive) {
		t.Fatalf("the model was not told %q before the rollover (%d requests)", planActive, len(reqs))
	}
	if !strings.Contains(reqs[len(reqs)-1], planActive) {
		t.Errorf("the fresh session the rollover opened is not in Plan mode: the model was not told %q", planActive)
	}
}

// TestAdapterRolloverKeepsModel: the person chose a model for the session
// in the IDE (Claude: session/set_config_option "model"; Gemini CLI:
// session/set_model), which the agent took; a rollover's fresh agent
// session starts with the agent's default model. The bridge gives the
// fresh session the chosen model before the prompt reaches it: the model
// server is asked for that model before the rollover and after it.
func TestAdapterRolloverKeepsModel(t *testing.T) {
	s := needSuite(t)
	for _, c := range []struct {
		name   string
		agent  *agentSpec
		client clientScript
		want   string
	}{
		{"claude", &claudeAgent, clientScript{Config: []map[string]any{{"configId": "model", "value": "haiku"}}}, "haiku"},
		{"gemini", &geminiAgent, clientScript{Model: "gemini-2.5-flash-lite"}, "gemini-2.5-flash-lite"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			o := runOptions{name: c.name + "-rollover-model", client: c.client}
			reply := "Noted."
			if c.agent == &geminiAgent {
				// Gemini CLI reports no usage_update: the bridge's estimate
				// of its context must exceed the summary's size. The bulk
				// is the model's answer, which the summary does not keep
				// (a long first prompt, its intent, it keeps whole, so the
				// two came within a few hundred tokens of each other, and
				// what else Gemini sent before /bridge-compress decided it).
				// Each sentence differs: Gemini CLI ends a turn whose
				// output repeats itself.
				for i := range 300 {
					reply += fmt.Sprintf(" Record %d goes to row %d of sheet %d.", i*7919%10007, i*31+5, i%13+1)
				}
			}
			o.script = fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Text(reply), fakemodel.Text("Still here.")}}
			o.client.Prompts = textPrompts("Say hello.", "/bridge-compress", "Go on.")
			r, _, sum := rolloverRun(t, s, c.agent, w, o)
			if sum.Error != nil {
				t.Fatalf("the run failed: %s\n%s", *sum.Error, r.stderrTail())
			}
			var models []string
			for _, req := range r.model.MainRequests() {
				models = append(models, req.Model)
			}
			if len(models) < 2 || !strings.Contains(models[0], c.want) {
				t.Fatalf("the model server was not asked for the chosen model before the rollover: %q", models)
			}
			if last := models[len(models)-1]; last != models[0] {
				t.Errorf("the fresh session the rollover opened asks for %q, the session chose %q (every request: %q)", last, models[0], models)
			}
		})
	}
}
