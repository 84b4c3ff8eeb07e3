package governance

import (
	"reflect"
	"testing"
)

// FuzzCommandFactsKept compares deciding the commands of a kept command
// line with what the engine kept of them (commandFacts) and without, read
// from the command again: the verdicts of decideCommandWith and
// decideArgsWith, and the advisories they add, are the same, for a Bash
// tool call and for a terminal request.
func FuzzCommandFactsKept(f *testing.F) {
	e, root := corpusFuzz(f)
	f.Fuzz(func(t *testing.T, line string) {
		for _, req := range []Request{
			{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: line, Cwd: root},
			{Action: ActionTerminalCreate, Command: line, Cwd: root},
		} {
			in := e.info(req)
			kept := in.keptLine()
			if kept == nil {
				continue // not kept: decided from the analysis alone
			}
			if len(kept.cmds) != len(kept.a.Commands) {
				t.Fatalf("%q: %d commands kept of %d", line, len(kept.cmds), len(kept.a.Commands))
			}
			for j, c := range kept.a.Commands {
				var advKept, advRead []string
				v1, ok1 := e.decideCommandWith(in, c, &kept.cmds[j], &advKept)
				v2, ok2 := e.decideCommandWith(in, c, nil, &advRead)
				if ok1 != ok2 || !reflect.DeepEqual(v1, v2) || !reflect.DeepEqual(advKept, advRead) {
					t.Fatalf("%q, command %d: kept %v %+v %q; read again %v %+v %q", line, j, ok1, v1, advKept, ok2, v2, advRead)
				}
				a1, ok1 := e.decideArgsWith(in, c, kept.cmds[j].args, nil, false, &advKept)
				a2, ok2 := e.decideArgsWith(in, c, commandArgs(c), nil, false, &advRead)
				if ok1 != ok2 || !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(advKept, advRead) {
					t.Fatalf("%q, command %d: args kept %v %+v %q; read again %v %+v %q", line, j, ok1, a1, advKept, ok2, a2, advRead)
				}
				want := factsOfCommand(c, e.rulesFor(catCommand))
				if !reflect.DeepEqual(kept.cmds[j], want) {
					t.Fatalf("%q, command %d: kept %+v, read again %+v", line, j, kept.cmds[j], want)
				}
			}
		}
	})
}
