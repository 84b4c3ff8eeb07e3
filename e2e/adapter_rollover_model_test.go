package e2e

import (
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

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
			o.script = fakemodel.Script{Steps: []fakemodel.Step{fakemodel.Text("Noted."), fakemodel.Text("Still here.")}}
			first := "Say hello."
			if c.agent == &geminiAgent {
				// Gemini CLI reports no usage_update: the bridge's estimate
				// of its context must exceed the summary's size.
				first += strings.Repeat(" The exporter writes one CSV row per record.", 200)
			}
			o.client.Prompts = textPrompts(first, "/bridge-compress", "Go on.")
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
