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

// ruleNamedWords returns the words of c that the allow rules which may
// have decided v name literally, in each form of c a rule matches: the
// pattern's words before the first that holds "*", the command word
// included. When v allows c by a command rule, every allow rule that
// applies to the request and matches c allows it as much as the first
// (Bash(go:*) and Bash(go test:*) both allow "go test -v"), so the words
// of each count. It returns nil unless v allows c by a command rule.
func (e *Engine) ruleNamedWords(in *reqInfo, v verdict, c *shellcmd.Command) []*shellcmd.Word {
	if v.value != Allow || v.rule == nil || v.rule.value != Allow || v.rule.cmd == nil || v.rule.cmd.all {
		return nil
	}
	var out []*shellcmd.Word
	applies := e.appliesBits[in.kindSet()][catCommand] // r.applies(in, catCommand) but for r's actions
	for i, r := range e.rulesFor(catCommand) {
		if r.value != Allow || r.advisory || r.cmd == nil || r.cmd.all || !applies.has(i) || !r.actionApplies(in.req.Action) {
			continue
		}
		out = appendRuleNamed(out, r, c)
	}
	return out
}

// appendRuleNamed appends to out the words of c's forms the allow rule r
// matches that r names literally.
func appendRuleNamed(out []*shellcmd.Word, r *rule, c *shellcmd.Command) []*shellcmd.Word {
	words := r.cmd.words
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
