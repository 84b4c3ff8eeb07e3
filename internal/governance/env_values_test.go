package governance

import "testing"

// TestEnvValuesNameFiles checks that a variable's value is decided as the
// files it names (testdata/cases/env_value_lines.txt): "MAGIC=.env file
// a.txt" prints .env as "file -m .env a.txt" does, and "GIT_TRACE=/out/f
// git --version" writes outside the workspace.
func TestEnvValuesNameFiles(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt", "sub/b.txt", "tc.cmake"})
	out := tempTree(t, nil, []string{"there.txt"})
	checkPolicyLines(t, root, "env_value_lines.txt", map[string]string{"$ROOT": root, "$OUT": out},
		"  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n"+
			"    - Bash(file:*)\n    - Bash(cmake:*)\n    - Bash(git:*)\n    - Bash(gcc:*)\n    - Bash(cat:*)\n    - Bash(echo:*)\n"+
			"    - Bash(go:*)\n    - Bash(npm:*)\n    - Bash(make:*)\n    - Bash(ansible-playbook:*)\n    - Bash(rg:*)\n    - Bash(cd:*)\n"+
			"    - Bash(declare:*)\n    - Bash(export:*)\n")
}

// TestEnvValuesOfATerminal checks that a terminal request's env values are
// decided as the files they name, as the same variables set in its line
// are.
func TestEnvValuesOfATerminal(t *testing.T) {
	root := tempTree(t, nil, []string{".env", "a.txt"})
	out := tempTree(t, nil, []string{"there.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(file:*)\n    - Bash(git:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, tt := range []struct {
		name, cmd string
		args      []string
		env       EnvVar
		want      Value
	}{
		{"magic names the secret", "file", []string{"a.txt"}, EnvVar{Name: "MAGIC", Value: root + "/.env"}, Deny},
		{"magic names the secret relative", "file", []string{"a.txt"}, EnvVar{Name: "MAGIC", Value: ".env"}, Deny},
		{"trace outside", "git", []string{"--version"}, EnvVar{Name: "GIT_TRACE", Value: out + "/there.txt"}, Deny},
		{"magic names a file inside", "file", []string{"a.txt"}, EnvVar{Name: "MAGIC", Value: "a.txt"}, Allow},
		{"a plain value", "file", []string{"a.txt"}, EnvVar{Name: "LANG", Value: "C.UTF-8"}, Allow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.cmd, Argv: append([]string{tt.cmd}, tt.args...),
				Env: []EnvVar{tt.env}, Cwd: root})
			if d.Value != tt.want {
				t.Errorf("%s %v with %s=%s: %v (%s); want %v", tt.cmd, tt.args, tt.env.Name, tt.env.Value, d.Value, d.Reason, tt.want)
			}
		})
	}
}
