package compress

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// TestRolloverKeepsTheSessionMode: the person set the session to plan in
// the IDE (session/set_mode, which the agent took); a rollover's fresh
// agent session starts in the agent's default mode. The bridge gives it
// the session's mode before the person's prompt reaches it, and tells
// governance (OnModeRestored); if the agent refuses, the IDE is told the
// mode the session now runs in, and so is the person.
func TestRolloverKeepsTheSessionMode(t *testing.T) {
	for _, refuse := range []bool{false, true} {
		t.Run(fmt.Sprintf("refused=%v", refuse), func(t *testing.T) {
			var restored []string
			h := newHarness(t, Config{ContextSize: 2000, OnModeRestored: func(ide, mode string) { restored = append(restored, ide+" "+mode) }})
			id := planModeRollover(h)
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"d1","modes":%s}}`, id, planModes))
			set := h.readAgent()
			if str(set, "method") != "session/set_mode" || str(set, "params", "sessionId") != "d1" || str(set, "params", "modeId") != "plan" {
				t.Fatalf("agent got %s, want session/set_mode plan in d1 before the prompt", set)
			}
			sid, _ := rawjson.Get(set, "id")
			if refuse {
				h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"Invalid Mode"}}`, sid))
			} else {
				h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, sid))
			}
			if pr := h.readAgent(); str(pr, "method") != "session/prompt" || str(pr, "params", "sessionId") != "d1" {
				t.Fatalf("agent got %s, want the prompt in d1", pr)
			}
			if refuse {
				if len(restored) != 0 {
					t.Errorf("governance heard %v, though the agent refused the mode", restored)
				}
				var told, noted bool
				for _, m := range h.untilIDE(func(m []byte) bool { return strings.Contains(notes([][]byte{m}), "fresh agent session seeded") }) {
					if str(m, "params", "update", "sessionUpdate") == "current_mode_update" && str(m, "params", "update", "currentModeId") == "default" && str(m, "params", "sessionId") == "s1" {
						told = true
					}
					noted = noted || strings.Contains(notes([][]byte{m}), `did not take the mode "plan"`)
				}
				if !told || !noted {
					t.Errorf("the IDE was not told the fresh session runs in default (update %v, note %v)", told, noted)
				}
				return
			}
			if len(restored) != 1 || restored[0] != "s1 plan" {
				t.Errorf("governance heard %v, want [s1 plan]", restored)
			}
		})
	}
}

// TestRolloverToASessionShowingNoMode: the person set the session to
// plan, and the agent answers the rollover's session/new showing no mode
// at all. No way to give the mode back is known: nothing is sent for it,
// governance hears of no restored mode (it takes the session's mode for
// one it does not know), and the person is told the mode may not hold.
func TestRolloverToASessionShowingNoMode(t *testing.T) {
	for _, fresh := range []string{`{"sessionId":"d1"}`, `{"sessionId":"d1","configOptions":[]}`} {
		t.Run(fresh, func(t *testing.T) {
			var restored []string
			h := newHarness(t, Config{ContextSize: 2000, OnModeRestored: func(ide, mode string) { restored = append(restored, ide+" "+mode) }})
			id := planModeRollover(h)
			h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, fresh))
			if pr := h.readAgent(); str(pr, "method") != "session/prompt" || str(pr, "params", "sessionId") != "d1" {
				t.Fatalf("agent got %s, want the prompt in d1 and no mode request", pr)
			}
			if len(restored) != 0 {
				t.Errorf("governance heard %v, though no mode was given back", restored)
			}
			noted := false
			for _, m := range h.untilIDE(func(m []byte) bool { return strings.Contains(notes([][]byte{m}), "fresh agent session seeded") }) {
				noted = noted || strings.Contains(notes([][]byte{m}), `shows no mode, so the mode "plan" may not hold`)
			}
			if !noted {
				t.Error("the person was not told the fresh session shows no mode")
			}
		})
	}
}

// TestRolloverKeepsAModeShownOnlyAsAnOption: an agent that shows its mode
// only as a configuration option (codex-acp: configOptions, no modes)
// opens the rollover's fresh session in its default mode. The bridge gives
// it the person's mode back through that option before the prompt, and
// tells governance the mode the agent took; otherwise the fresh session ran
// in "auto" while the IDE, and governance's record of the person's choice,
// said "read-only", and governance answered for the person the requests
// read-only leaves to them.
func TestRolloverKeepsAModeShownOnlyAsAnOption(t *testing.T) {
	for _, tt := range []struct {
		name     string
		answer   string // the agent's answer to the restore, after "id":N,
		restored []string
		noted    string
	}{
		{"taken", `"result":{` + modeOption("read-only") + `}`, []string{"s1 read-only"}, ""},
		{"taken, showing nothing", `"result":{}`, []string{"s1 read-only"}, ""},
		{"refused", `"error":{"code":-32602,"message":"Invalid value"}`, nil, `did not take the mode "read-only"`},
		{"answered in another mode", `"result":{` + modeOption("auto") + `}`, []string{"s1 auto"}, `it runs in "auto"`},
		{"answered unreadably", `"result":{"configOptions":[{"id":"approval","category":"mode","currentValue":1}]}`, nil, `did not take the mode "read-only"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var restored []string
			h := newHarness(t, Config{ContextSize: 2000, OnModeRestored: func(ide, mode string) { restored = append(restored, ide+" "+mode) }})
			h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/repo","mcpServers":[]}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1",` + modeOption("auto") + `}}`)
			h.untilIDE(isResponse("1"))
			h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":"s1","configId":"approval","value":"read-only"}}`)
			h.readAgent()
			h.agent(`{"jsonrpc":"2.0","id":2,"result":{` + modeOption("read-only") + `}}`)
			h.untilIDE(isResponse("2"))
			h.prompt(3, "s1", "Review export/csv.go")
			h.checkpoint(3, "s1", "Reviewing the exporter. ")

			h.rolloverRestoresReadOnly(t, tt.answer)
			if pr := h.readAgent(); str(pr, "method") != "session/prompt" || str(pr, "params", "sessionId") != "d1" {
				t.Fatalf("agent got %s, want the prompt in d1", pr)
			}
			if fmt.Sprint(restored) != fmt.Sprint(tt.restored) {
				t.Errorf("governance heard %v, want %v", restored, tt.restored)
			}
			var noted, modeUpdate bool
			for _, m := range h.untilIDE(func(m []byte) bool { return strings.Contains(notes([][]byte{m}), "fresh agent session seeded") }) {
				noted = noted || tt.noted != "" && strings.Contains(notes([][]byte{m}), tt.noted)
				modeUpdate = modeUpdate || str(m, "params", "update", "sessionUpdate") == "current_mode_update"
			}
			if noted != (tt.noted != "") {
				t.Errorf("the person was told %v, want a note holding %q", noted, tt.noted)
			}
			if modeUpdate {
				t.Error("the IDE was sent a current_mode_update for an agent that shows no modes")
			}
		})
	}
}

// TestRolloverKeepsTheModeASessionOpenedIn: an agent showing its mode
// only as a configuration option opens (or loads) the IDE's session in
// read-only, and the person never changes it; the rollover's fresh session
// opens in "auto". The mode the session opened in is the one given back.
func TestRolloverKeepsTheModeASessionOpenedIn(t *testing.T) {
	for _, method := range []string{"session/new", "session/load"} {
		t.Run(method, func(t *testing.T) {
			var restored []string
			h := newHarness(t, Config{ContextSize: 2000, OnModeRestored: func(ide, mode string) { restored = append(restored, ide+" "+mode) }})
			if method == "session/new" {
				h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/repo","mcpServers":[]}}`)
				h.readAgent()
				h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1",` + modeOption("read-only") + `}}`)
			} else {
				h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/load","params":{"sessionId":"s1","cwd":"/repo","mcpServers":[]}}`)
				h.readAgent()
				h.agent(`{"jsonrpc":"2.0","id":1,"result":{` + modeOption("read-only") + `}}`)
			}
			h.untilIDE(isResponse("1"))
			h.prompt(3, "s1", "Review export/csv.go")
			h.checkpoint(3, "s1", "Reviewing the exporter. ")
			h.rolloverRestoresReadOnly(t, `"result":{`+modeOption("read-only")+`}`)
			if pr := h.readAgent(); str(pr, "method") != "session/prompt" {
				t.Fatalf("agent got %s, want the prompt", pr)
			}
			if fmt.Sprint(restored) != "[s1 read-only]" {
				t.Errorf("governance heard %v, want [s1 read-only]", restored)
			}
		})
	}
}

// modeOption is the configOptions of an agent that shows its mode only as
// the configuration option "approval", set to mode.
func modeOption(mode string) string {
	return fmt.Sprintf(`"configOptions":[{"id":"approval","name":"Mode","category":"mode","type":"select","currentValue":%q,"options":[]}]`, mode)
}

// rolloverRestoresReadOnly rolls session s1 over to a fresh agent session
// d1 that opens in "auto", checks that the agent is asked to set its mode
// option back to read-only before the prompt, and has it answer with
// answer (the text after "id":N,).
func (h *harness) rolloverRestoresReadOnly(t *testing.T, answer string) {
	t.Helper()
	_, id := h.rolloverAsked(5, "s1", "go on")
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"sessionId":"d1",%s}}`, id, modeOption("auto")))
	set := h.readAgent()
	params, _ := rawjson.Get(set, "params")
	if got, w := str(set, "method")+" "+string(params), `session/set_config_option {"configId":"approval","sessionId":"d1","value":"read-only"}`; got != w {
		t.Fatalf("agent got %s, want %s before the prompt", got, w)
	}
	sid, _ := rawjson.Get(set, "id")
	h.agent(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,%s}`, sid, answer))
}

// planModes are the modes of the sessions planModeRollover opens.
const planModes = `{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"},{"id":"plan","name":"Plan"}]}`

// planModeRollover opens session s1 with planModes, has the person pick
// plan, runs a turn, and starts a rollover at the next prompt: it returns
// the id of the session/new the agent is asked to answer.
func planModeRollover(h *harness) []byte {
	h.ide(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/repo","mcpServers":[]}}`)
	h.readAgent()
	h.agent(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","modes":` + planModes + `}}`)
	h.untilIDE(isResponse("1"))
	h.ide(`{"jsonrpc":"2.0","id":2,"method":"session/set_mode","params":{"sessionId":"s1","modeId":"plan"}}`)
	h.readAgent()
	h.agent(`{"jsonrpc":"2.0","id":2,"result":{}}`)
	h.untilIDE(isResponse("2"))
	h.prompt(3, "s1", "Plan a CSV exporter in export/csv.go")
	h.checkpoint(3, "s1", "Planning the exporter. ")
	_, id := h.rolloverAsked(5, "s1", "go on")
	return id
}
