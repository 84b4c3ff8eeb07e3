package governance

import (
	"testing"
)

// TestAppliesBits holds pick's reading of which rules may match (the
// engine's appliesBits for the request's kinds, then the rule's actions) to
// rule.applies, for every rule of the repository's, the corpus's and the
// benchmark's policies, every subject category, every combination of
// request kinds and every action.
func TestAppliesBits(t *testing.T) {
	actions := []string{ActionToolCall, ActionFSRead, ActionFSWrite, ActionTerminalCreate, ActionSessionNew, "mcp.call", ""}
	checked := 0
	for _, file := range []string{"../../GOVERNANCE.md", "testdata/commands/GOVERNANCE.md", "testdata/policy/GOVERNANCE.md"} {
		p, err := LoadPolicy(file)
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(p, EngineOptions{Roots: []string{t.TempDir()}})
		for k := range kindSets {
			for _, action := range actions {
				for _, command := range []string{"", "ls"} {
					for _, url := range []string{"", "https://example.com"} {
						in := &reqInfo{read: k&1 != 0, write: k&2 != 0, command: k&4 != 0, fetch: k&8 != 0,
							req: Request{Action: action, Command: command, URL: url}}
						for sub := range category(catEnv + 1) {
							bits := e.appliesBits[in.kindSet()][sub]
							for i, r := range e.rulesFor(sub) {
								got := bits.has(i) && r.actionApplies(action)
								if want := r.applies(in, sub); got != want {
									t.Fatalf("%s: rule %s, subject %d, kinds %04b, action %q, command %q, url %q: bits say %v, applies %v",
										file, r.text, sub, k, action, command, url, got, want)
								}
								checked++
							}
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no rule checked")
	}
}
