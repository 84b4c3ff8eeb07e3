package governance

import "testing"

// TestDecideCommandControls: a command line or argument holding a control
// character is denied whatever rule allows the command: an IDE that types
// the line into a terminal (as VS Code and JetBrains run terminal
// commands) has its line editor read them (a carriage return ends the
// line, ^U erases it, DEL the character before), so "echo ok\x15rm x"
// runs rm there, and a person shown the line sees what the terminal or
// bidirectional text makes of it, not what runs. Tabs and newlines, which
// shells read as blanks and line ends, stay allowed.
func TestDecideCommandControls(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	for _, tt := range []struct {
		name string
		req  Request
		want Value
	}{
		{"carriage return", Request{Action: ActionTerminalCreate, Command: "echo ok\rrm x"}, Deny},
		{"kill line", Request{Action: ActionTerminalCreate, Command: "echo ok\x15rm x"}, Deny},
		{"in a comment", Request{Action: ActionTerminalCreate, Command: "echo ok # \x15rm x"}, Deny},
		{"delete", Request{Action: ActionTerminalCreate, Command: "echo okrx\x7fm x"}, Deny},
		{"escape in an argument", Request{Action: ActionTerminalCreate, Command: "echo", Argv: []string{"echo", "ok\x1b[2K"}}, Deny},
		{"C1 control", Request{Action: ActionTerminalCreate, Command: "echo ok\u009brm"}, Deny},
		{"right-to-left override", Request{Action: ActionTerminalCreate, Command: "echo \u202ex mr"}, Deny},
		{"line separator", Request{Action: ActionTerminalCreate, Command: "echo ok\u2028rm x"}, Deny},
		{"an execute tool call", Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: "echo ok\rrm x"}, Deny},
		{"tab and newline", Request{Action: ActionTerminalCreate, Command: "echo 'a\tb'\necho c"}, Allow},
		{"non-ASCII text", Request{Action: ActionTerminalCreate, Command: "echo 'Grüße – ok'"}, Allow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Cwd = root
			if d := e.Decide(tt.req); d.Value != tt.want || tt.want == Deny && d.Ref != "control-characters" {
				t.Errorf("Decide(%q %q) = %v (ref %s, %s); want %s by control-characters", tt.req.Command, tt.req.Argv, d.Value, d.Ref, d.Reason, tt.want)
			}
		})
	}
}
