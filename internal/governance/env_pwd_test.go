package governance

import "testing"

// TestEnvPWD: bash, sh and zsh started with PWD naming a path that leads
// to their directory take it as where they are, and cd .. leaves it by
// name. With PWD=/proc/self/cwd, "cd .. && cat root/etc/shadow" reads
// /proc/self/root/etc/shadow, the machine's file, where the line shows a
// cd to the parent and a file below it. At 29456fd a terminal request
// with that env was allowed by Bash(cd:*) and Bash(cat:*).
func TestEnvPWD(t *testing.T) {
	var rules []*rule
	for i, r := range []string{"Bash(cd:*)", "Bash(cat:*)", "Bash(sh:*)"} {
		rules = append(rules, testRule(t, r, "/w", Allow, "test:1", "allow-"+string(rune('a'+i))))
	}
	e := NewEngine(&Policy{Default: RequireApproval, DefaultWhere: "test", rules: rules}, EngineOptions{Roots: []string{"/w"}})
	for _, tt := range []struct {
		command string
		env     []EnvVar
		want    Value
	}{
		// The value itself goes through /proc/self, refused whatever
		// variable holds it.
		{"cd .. && cat root/etc/shadow", []EnvVar{{"PWD", "/proc/self/cwd"}}, Deny},
		{"PWD=/proc/self/cwd sh -c 'cd .. && cat root/etc/shadow'", nil, Deny},
		{"cd .. && cat root/etc/shadow", []EnvVar{{"FOO", "/proc/self/cwd"}}, Deny},
		// PWD is asked about by its name.
		{"cd .. && cat root/etc/shadow", []EnvVar{{"PWD", "/w/sub"}}, RequireApproval},
		{"PWD=/w/sub sh -c 'cd .. && cat root/etc/shadow'", nil, RequireApproval},
		{"cd .. && cat root/etc/shadow", []EnvVar{{"FOO", "/w/sub"}}, Allow},
	} {
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.command, Env: tt.env, Cwd: "/w/sub"}); d.Value != tt.want {
			t.Errorf("%q env %v = %v; want %s", tt.command, tt.env, d, tt.want)
		}
	}
}
