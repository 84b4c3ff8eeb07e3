package compress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestRolloverKeepsTheSessionSettings: the person chose a model and
// configuration options in the IDE (session/set_model,
// session/set_config_option); a rollover's fresh agent session starts with
// the agent's defaults. The bridge sets each choice the fresh session shows
// otherwise, in the IDE's words and in the order the person made them,
// before the prompt reaches it, and leaves alone what it already shows and
// the options of the category "mode" (the session's mode is restored on
// its own, as the wire showed it, after them: here through its option, as
// the agent shows no modes). If the agent refuses an option, the
// person gets a note; the IDE is sent no options in the agent's words.
func TestRolloverKeepsTheSessionSettings(t *testing.T) {
	options := func(model, effort string, fast bool) string {
		return fmt.Sprintf(`[{"id":"model","name":"Model","type":"select","currentValue":%q,"options":[]},`+
			`{"id":"effort","name":"Effort","type":"select","currentValue":%q,"options":[]},`+
			`{"id":"fast","name":"Fast","type":"boolean","currentValue":%v},`+
			`{"id":"permissions","name":"Mode","category":"mode","type":"select","currentValue":"default","options":[]}]`, model, effort, fast)
	}
	for _, refuse := range []bool{false, true} {
		t.Run(fmt.Sprintf("refused=%v", refuse), func(t *testing.T) {
			h := newHarness(t, Config{ContextSize: 2000})
			h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/repo","mcpServers":[]}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","models":{"currentModelId":"small","availableModels":[]},"configOptions":` + options("default", "low", false) + `}}`)
			h.untilIDE(isResponse("1"))
			// Each choice, and what the agent answers; the effort is
			// chosen twice, the last one stands; a refused choice is not one.
			for i, c := range []struct{ req, result string }{
				{`"session/set_config_option","params":{"sessionId":"s1","configId":"effort","value":"medium"}`, `{"configOptions":` + options("default", "medium", false) + `}`},
				{`"session/set_config_option","params":{"sessionId":"s1","configId":"model","value":"opus"}`, `{"configOptions":` + options("claude-opus", "medium", false) + `}`},
				{`"session/set_config_option","params":{"sessionId":"s1","type":"boolean","configId":"fast","value":true}`, `{"configOptions":` + options("claude-opus", "medium", true) + `}`},
				{`"session/set_config_option","params":{"sessionId":"s1","configId":"effort","value":"high"}`, `{"configOptions":` + options("claude-opus", "high", true) + `}`},
				{`"session/set_model","params":{"sessionId":"s1","modelId":"large"}`, `{}`},
				{`"session/set_config_option","params":{"sessionId":"s1","configId":"effort","value":"max"}`, ``},
				{`"session/set_config_option","params":{"sessionId":"s1","configId":"permissions","value":"bypassPermissions"}`, `{"configOptions":` + options("claude-opus", "high", true) + `}`},
				{`"session/set_config_option","params":{"sessionId":"s1","configId":"mode","value":"bypassPermissions"}`, `{}`},
			} {
				id := 10 + i
				h.ide(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%s}`, id, c.req))
				h.readAgent()
				if c.result == "" {
					h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"Invalid value"}}`, id))
				} else {
					h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, c.result))
				}
				h.untilIDE(isResponse(fmt.Sprint(id)))
			}
			h.prompt(3, "s1", "Write the CSV exporter in export/csv.go")
			h.checkpoint(3, "s1", "Writing the exporter. ")

			_, id := h.rolloverAsked(5, "s1", "go on")
			// The fresh session already runs with the chosen effort.
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"d1","models":{"currentModelId":"small","availableModels":[]},"configOptions":%s}}`, id, options("default", "high", false)))
			want := []string{`session/set_model {"modelId":"large","sessionId":"d1"}`,
				`session/set_config_option {"configId":"model","sessionId":"d1","value":"opus"}`,
				`session/set_config_option {"configId":"fast","sessionId":"d1","type":"boolean","value":true}`}
			for i, w := range want {
				set := h.readAgent()
				params, _ := rawjson.Get(set, "params")
				if got := str(set, "method") + " " + string(params); got != w {
					t.Fatalf("agent got %s, want %s before the prompt", got, w)
				}
				sid, _ := rawjson.Get(set, "id")
				switch {
				case refuse && i == 1:
					h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"Invalid value\nfor model"}}`, sid))
				case i == 0:
					h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, sid))
				case i == 1:
					h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"configOptions":%s}}`, sid, options("claude-opus", "high", false)))
				default:
					h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"configOptions":%s}}`, sid, options("claude-opus", "high", true)))
				}
			}
			// Then the mode the person chose last, through the option that
			// holds it: the agent shows no modes.
			set := h.readAgent()
			params, _ := rawjson.Get(set, "params")
			if got, w := str(set, "method")+" "+string(params), `session/set_config_option {"configId":"permissions","sessionId":"d1","value":"bypassPermissions"}`; got != w {
				t.Fatalf("agent got %s, want %s before the prompt", got, w)
			}
			sid, _ := rawjson.Get(set, "id")
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, sid))
			if pr := h.readAgent(); str(pr, "method") != "session/prompt" || str(pr, "params", "sessionId") != "d1" {
				t.Fatalf("agent got %s, want the prompt in d1", pr)
			}
			var told, noted bool
			var seen []string
			for _, m := range h.untilIDE(func(m []byte) bool { return strings.Contains(notes([][]byte{m}), "fresh agent session seeded") }) {
				if str(m, "params", "update", "sessionUpdate") == "config_option_update" && str(m, "params", "sessionId") == "s1" {
					told = true
				}
				seen = append(seen, notes([][]byte{m}))
				noted = noted || strings.Contains(notes([][]byte{m}), `did not take "model" = "opus" ("json-rpc error -32602: Invalid value for model"); it keeps`)
			}
			if told || noted != refuse {
				t.Errorf("the IDE was sent options: %v, the person noted: %v; want none, and a note %v (notes %q)", told, noted, refuse, seen)
			}
		})
	}
}

// TestRolloverKeepsAConfiguredMode: a mode the person set as a
// configuration option (codex-acp takes session/set_config_option mode
// without a current_mode_update), or the agent showed in a
// config_option_update, is the session's mode a rollover gives back; and
// the mode is given back after the other settings are restored, even when
// the fresh session opened in it, for restoring them may move it.
func TestRolloverKeepsAConfiguredMode(t *testing.T) {
	modes := func(mode string) string {
		return fmt.Sprintf(`"models":{"currentModelId":"small","availableModels":[]},"modes":{"currentModeId":%q,"availableModes":[]},`+
			`"configOptions":[{"id":"mode","name":"Mode","category":"mode","type":"select","currentValue":%q,"options":[]}]`, mode, mode)
	}
	for _, tt := range []struct {
		name, fresh string
		set         func(h *harness)
		want        []string // the methods the agent gets before the prompt
	}{
		{"set as an option", "auto", func(h *harness) {
			h.ide(`{"jsonrpc":"2.0","id":10,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"mode","value":"read-only"}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":10,"result":{"configOptions":[{"id":"mode","category":"mode","currentValue":"read-only"}]}}`)
			h.untilIDE(isResponse("10"))
		}, []string{"session/set_mode read-only"}},
		{"shown by the agent", "auto", func(h *harness) {
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"id":"mode","category":"mode","currentValue":"read-only"}]}}}`)
			h.untilIDE(func(m []byte) bool { return str(m, "params", "update", "sessionUpdate") == "config_option_update" })
		}, []string{"session/set_mode read-only"}},
		{"moved by the model", "read-only", func(h *harness) {
			h.ide(`{"jsonrpc":"2.0","id":10,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"mode","value":"read-only"}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":10,"result":{}}`)
			h.untilIDE(isResponse("10"))
			h.ide(`{"jsonrpc":"2.0","id":11,"method":"session/set_model","params":{"sessionId":"s1","modelId":"large"}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":11,"result":{}}`)
			h.untilIDE(isResponse("11"))
		}, []string{"session/set_model large", "session/set_mode read-only"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Config{ContextSize: 2000})
			h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/repo","mcpServers":[]}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1",` + modes("auto") + `}}`)
			h.untilIDE(isResponse("1"))
			tt.set(h)
			h.prompt(3, "s1", "Review export/csv.go")
			h.checkpoint(3, "s1", "Reviewing the exporter. ")
			_, id := h.rolloverAsked(5, "s1", "go on")
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"d1",%s}}`, id, modes(tt.fresh)))
			for _, w := range tt.want {
				m := h.readAgent()
				got := str(m, "method") + " " + str(m, "params", "modelId") + str(m, "params", "modeId")
				if got != w {
					t.Fatalf("agent got %s, want %s before the prompt", m, w)
				}
				sid, _ := rawjson.Get(m, "id")
				h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, sid))
			}
			if pr := h.readAgent(); str(pr, "method") != "session/prompt" {
				t.Fatalf("agent got %s, want the prompt", pr)
			}
		})
	}
}
