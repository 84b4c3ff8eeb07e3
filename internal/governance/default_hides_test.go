package governance

import (
	"fmt"
	"strings"
	"testing"
)

// defaultHidesPolicy asks before keys are edited and allows a few commands
// that write the files they name.
const defaultHidesPolicy = `---
schema: governance.workspace/v1
name: default-hides
title: keys are asked about
description: the keys may be changed only with the person's approval
version: 1.0.0
autonomy:
  level: 2
  defaultApproval: on-mutate
rules:
  ask:
    - Edit(./keys/*.key)
  allow:
    - Bash(echo:*)
    - Bash(sed:*)
    - Bash(tee:*)
    - Bash(chmod:*)
    - Bash(touch:*)
    - mcp__ide__open
---
`

// TestDefaultHidesNoRule: a path whose verdict has the default's value but
// comes from a rule or a built-in (the ask rule where a symlink leads, the
// hard-link rule for a file with other names) is decided by that rule, not
// by the default, which an allowed command's operands are written under.
// So is one whose default is stricter (rules.default: deny or escalate),
// which the deciders of operands pass over as well.
func TestDefaultHidesNoRule(t *testing.T) {
	tmp, root := tempWorkspace(t)
	tree{
		dirs:      []string{"ws/keys/sub", "ws/notes"},
		files:     []string{"ws/keys/a.key", "ws/keys/b.key", "ws/notes/plain.txt"},
		links:     map[string]string{"ws/notes/link.key": "../keys/a.key", "ws/notes/sub": "../keys/sub"},
		hardLinks: map[string]string{"ws/notes/h.txt": "ws/keys/b.key"},
	}.make(t, tmp)
	for _, def := range []string{"", "deny", "escalate"} {
		text := defaultHidesPolicy
		if def != "" {
			text = strings.Replace(text, "rules:\n", "rules:\n  default: "+def+"\n", 1)
		}
		e := engineOfPolicy(t, tmp, "GOVERNANCE"+def+".md", text, root)
		for _, c := range caseRows(t, "default_hides_lines.txt", 4, nil) {
			t.Run(def+" "+c.fields[0], func(t *testing.T) {
				where := fmt.Sprintf("default_hides_lines.txt:%d: default %q", c.line, def)
				checkRuleOfLine(t, e, root, where, c.fields[1], Value(c.fields[2]), c.fields[3])
			})
		}
	}
}

// TestDefaultHidesMentioned: a tool's input naming a symlink to a key is
// asked about by the key's rule, not passed over as the default's, when
// the default (deny) is stricter than the rule.
func TestDefaultHidesMentioned(t *testing.T) {
	tmp, root := tempWorkspace(t)
	tree{
		dirs:  []string{"ws/keys", "ws/notes"},
		files: []string{"ws/keys/a.key", "ws/notes/plain.txt"},
		links: map[string]string{"ws/notes/link.key": "../keys/a.key"},
	}.make(t, tmp)
	text := strings.Replace(defaultHidesPolicy, "rules:\n", "rules:\n  default: deny\n", 1)
	e := engineOfPolicy(t, tmp, "GOVERNANCE.md", text, root)
	checkMentioned(t, e, root, RequireApproval, root+"/notes/link.key", root+"/keys/a.key")
	checkMentioned(t, e, root, Allow, root+"/notes/plain.txt")
}
