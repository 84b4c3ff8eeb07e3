package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The words of a command the rule that allowed it names literally are the
// command the policy allows, not files it names: "test" in "go test ./..."
// under Bash(go test:*), "build" in "cargo build" under Bash(cargo
// build:*). decideArgAt decides every word that names nothing as a name
// the command may create; for these words that would ask about the very
// command the policy allows ("it does not exist, so the command may create
// it"). They are still decided as the names they are (an existing file
// one of them names is judged as any other), and the built-in refusals
// (self-protection, outside the roots) still apply to the names they may
// create; the words the command runs with after them are judged as ever.

// ruleNamedWords returns the words of c that the allow rule which decided
// v names literally, in each form of c the rule matches: the pattern's
// words before the first that holds "*", the command word included. It
// returns nil unless v allows c by a command rule.
func ruleNamedWords(v verdict, c *shellcmd.Command) []*shellcmd.Word {
	r := v.rule
	if v.value != Allow || r == nil || r.value != Allow || r.cmd == nil || r.cmd.all {
		return nil
	}
	words := r.cmd.words
	var out []*shellcmd.Word
	for _, form := range c.Forms {
		if len(form) < 2 || r.cmd.matchForm(form, false) != doesMatch {
			continue
		}
		for j := 0; j < len(words) && j < len(form); j++ {
			if strings.Contains(words[j], "*") || form[j].Kind != shellcmd.Static || form[j].Text != words[j] {
				break
			}
			// The command word too: a wrapper's form (nice go test)
			// holds it as an operand.
			out = append(out, &form[j])
		}
	}
	return out
}
