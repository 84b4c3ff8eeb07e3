package governance

import (
	"strings"
	"testing"
)

// TestLocaleCharsetNeedsApproval: bash reads a line in its locale's
// character set, in which "echo €\; rm x" is echo and rm under GBK (e2 82 |
// ac 5c | ;) though the bridge reads one echo, so a locale other than C,
// POSIX or UTF-8, set in a terminal's env or on a line of bash -c, or
// LOCPATH, needs approval; the everyday locales do not.
func TestLocaleCharsetNeedsApproval(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	p := testPolicy(t, "  default: ask\n  deny:\n    - Bash(rm:*)\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(echo:*)\n    - Bash(cat:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	const line = "echo \u20ac\\; rm x"
	for _, tt := range []struct {
		name, cmd string
		args      []string
		env       []EnvVar
		want      Value
	}{
		{"GBK in the env", line, nil, []EnvVar{{Name: "LANG", Value: "zh_CN.GBK"}}, RequireApproval},
		{"BIG5 in the env", "echo", []string{"\u20ac\\;", "rm", "x"}, []EnvVar{{Name: "LC_CTYPE", Value: "zh_TW.BIG5"}}, RequireApproval},
		{"LOCPATH in the env", line, nil, []EnvVar{{Name: "LOCPATH", Value: root}, {Name: "LANG", Value: "C.UTF-8"}}, RequireApproval},
		{"GBK on the line before", "bash", []string{"-c", "LC_CTYPE=zh_CN.GBK\n" + line}, nil, RequireApproval},
		{"GBK from a file", "LANG=$(cat a.txt)\necho hi", nil, nil, RequireApproval},
		{"UTF-8 in the env", "cat", []string{"a.txt"}, []EnvVar{{Name: "LANG", Value: "C.UTF-8"}}, Allow},
		{"UTF-8 on the line", "LC_CTYPE=en_US.UTF-8 cat a.txt", nil, nil, Allow},
		{"C on the line", "LANG=C; echo hi", nil, nil, Allow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			argv := append([]string{tt.cmd}, tt.args...)
			d := e.Decide(Request{Action: ActionTerminalCreate, Command: strings.Join(argv, " "), Argv: argv, Env: tt.env, Cwd: root})
			if d.Value != tt.want {
				t.Errorf("%q %q with %v: %v (%s); want %v", tt.cmd, tt.args, tt.env, d.Value, d.Reason, tt.want)
			}
		})
	}
}
