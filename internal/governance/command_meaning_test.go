package governance

import "testing"

// TestRulesMeanTheirOptions: a restricting prefix rule that names options
// or a subcommand matches every spelling a program reads as the same
// options, so that under a policy that allows the rest, "rm -r -f x",
// "rm --recursive --force x" and "git -C . push --force" are refused as
// "rm -rf:*" and "git push --force:*" say; spellings that mean something
// else are not.
func TestRulesMeanTheirOptions(t *testing.T) {
	root := tempTree(t, nil, []string{"x"})
	e := rootPolicyEngine(t, root, "  default: allow\n"+
		"  deny: [Bash(rm -rf:*), Bash(git push --force:*), Bash(kubectl delete:*), Bash(curl -X POST:*), "+
		"Bash(npm publish:*), Bash(docker run --privileged:*)]\n"+
		"  ask: [Bash(git reset --soft:*)]\n")
	checkCommandLines(t, e, root, "option_meaning_lines.txt", nil)
}

// TestAllowRulesStillWordForWord: an allow rule vouches only for the words
// it names; the meaning of options widens restricting rules alone.
func TestAllowRulesStillWordForWord(t *testing.T) {
	root := tempTree(t, nil, []string{"x"})
	e := rootPolicyEngine(t, root, "  default: ask\n  allow: [Bash(rm -rf:*), Bash(git push --force:*)]\n")
	for _, line := range []string{"rm -r -f x", "rm --recursive --force x", "git -C . push --force"} {
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root, Paths: []string{root}}); d.Value != RequireApproval {
			t.Errorf("%q = %v (%s); want require-approval: no allow rule names these words", line, d.Value, d.Reason)
		}
	}
}
