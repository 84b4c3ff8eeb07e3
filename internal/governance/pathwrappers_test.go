package governance

import "testing"

// TestPathNamedWrappers checks that a wrapper, a shell or another name of
// a program, named by a path, is never decided as what it would run: the
// file there may be the agent's own script ("./env ls" is not "ls"), so
// its own form is judged too. Deny rules still reach what it runs.
func TestPathNamedWrappers(t *testing.T) {
	e, root := corpusEngine(t)
	for _, c := range []struct {
		line string
		want Value
	}{
		{"./env ls", RequireApproval},
		{"./busybox cat a.txt", RequireApproval},
		{"./toybox cat a.txt", RequireApproval},
		{"./bash -c ls", RequireApproval},
		{"sub/timeout 5 ls", RequireApproval},
		{"/usr/bin/env ls", RequireApproval},
		{"./gcat a.txt", RequireApproval},
		{"gcat a.txt", RequireApproval}, // a rule allowing cat does not allow gcat
		{"./env rm x", Deny},
		{"/usr/bin/env rm x", Deny},
		{"grm x", Deny},
		{"env ls", Allow},
		{"bash -c ls", Allow},
		{"timeout 5 ls", Allow},
	} {
		for _, req := range []Request{
			{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: c.line, Cwd: root},
			{Action: ActionTerminalCreate, Command: c.line, Cwd: root},
		} {
			if d := e.Decide(req); d.Value != c.want {
				t.Errorf("%s %q = %s (%s); want %s", req.Action, c.line, d.Value, d.Reason, c.want)
			}
		}
	}
}
