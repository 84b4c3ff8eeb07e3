package governance

import "testing"

// TestValueNamesFromTheRequestEnv: a name built from a variable the
// terminal request's env sets is decided as the name its value makes, as
// one the line sets is: env y=.e and "cat ${y}nv" read .env.
func TestValueNamesFromTheRequestEnv(t *testing.T) {
	root := tempTree(t, nil, []string{".env", "a.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Bash(cat:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, tt := range []struct {
		env  []EnvVar
		line string
		want Value
	}{
		{[]EnvVar{{"y", ".e"}}, "cat ${y}nv", Deny},
		{[]EnvVar{{"y", ".e"}}, "cat < ${y}nv", Deny},
		{[]EnvVar{{"y", "a"}}, "cat ${y}.txt", RequireApproval},
		{nil, "cat ${y}nv", RequireApproval},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.line, Cwd: root, Env: tt.env})
		if d.Value != tt.want {
			t.Errorf("env %v, %q: %s (%s), want %s", tt.env, tt.line, d.Value, d.Reason, tt.want)
		}
	}
}
