package governance

import (
	"fmt"
	"strings"
	"testing"
)

// TestDecideTerminalRequests decides terminal requests as both an exec
// client and a joining IDE would run them, with their env and cwd.
func TestDecideTerminalRequests(t *testing.T) {
	e, root := corpusEngine(t)
	tests := []struct {
		name string
		argv []string
		env  []EnvVar
		cwd  string
		want Value
		rule string
	}{
		{"joined args run a second command", []string{"echo", "x;", "rm", "-rf", "V"}, nil, "", Deny, "Bash(rm:*)"},
		{"joined args close the subshell", []string{"echo", "x)", ";", "curl", "y", ";", "(echo"}, nil, "", Deny, "Bash(curl:*)"},
		{"args substitution", []string{"echo", "$(rm", "x)"}, nil, "", Deny, "Bash(rm:*)"},
		{"command alone closes the subshell", []string{"echo hi) ; rm x #"}, nil, "", Deny, "Bash(rm:*)"},
		{"argv shell", []string{"bash", "-c", "rm -rf x"}, nil, "", Deny, "Bash(rm:*)"},
		{"argv wrapper", []string{"env", "--unset", "X", "curl", "x"}, nil, "", Deny, "Bash(curl:*)"},
		{"plain allowed", []string{"ls", "-la"}, nil, "", Allow, "Bash(ls:*)"},
		{"BASH_ENV in env", []string{"ls"}, []EnvVar{{"BASH_ENV", "evil.sh"}}, "", Deny, "environment variables that run code"},
		{"LD_PRELOAD in env", []string{"ls"}, []EnvVar{{"LD_PRELOAD", "/tmp/x.so"}}, "", Deny, "environment variables that run code"},
		{"BASH_FUNC in env", []string{"ls"}, []EnvVar{{"BASH_FUNC_ls%%", "() { rm -rf x; }"}}, "", Deny, "environment variables that run code"},
		{"PATH in env", []string{"ls"}, []EnvVar{{"PATH", "."}}, "", RequireApproval, "change what commands run"},
		{"code in an env value", []string{"echo", "$((X))"}, []EnvVar{{"X", "a[$(rm -rf x)]"}}, "", Deny, "Bash(rm:*)"},
		{"plain env", []string{"ls"}, []EnvVar{{"FOO", "bar"}}, "", Allow, "Bash(ls:*)"},
		{"cwd outside the roots", []string{"ls"}, nil, "/", Deny, "workspace roots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := root
			if tt.cwd != "" {
				cwd = tt.cwd
			}
			req := Request{Action: ActionTerminalCreate, Command: shellJoin(tt.argv), Argv: tt.argv, Env: tt.env, Cwd: cwd}
			if len(tt.argv) == 1 {
				// A command without args, as a terminal request carries
				// it: the IDE wraps it in "( ... )" too.
				req.Command = tt.argv[0]
			}
			d := e.Decide(req)
			if d.Value != tt.want || !strings.Contains(d.Rule, tt.rule) {
				t.Errorf("Decide(%q env %v) = %v; want %s by a rule containing %q", tt.argv, tt.env, d, tt.want, tt.rule)
			}
		})
	}
}

// TestEnvRules checks that Env(NAME) rules decide variables before the
// built-in list.
func TestEnvRules(t *testing.T) {
	allow := testRule(t, "Env(PATH)", "/w", Allow, "test:1", "env-allow")
	deny := testRule(t, "Env(SECRET_*)", "/w", Deny, "test:2", "env-deny")
	ls := testRule(t, "Bash(ls:*)", "/w", Allow, "test:3", "ls")
	e := NewEngine(&Policy{Default: RequireApproval, DefaultWhere: "test", rules: []*rule{allow, deny, ls}}, EngineOptions{Roots: []string{"/w"}})
	for _, tt := range []struct {
		command string
		want    Value
	}{
		{"PATH=/usr/bin ls", Allow},
		{"SECRET_TOKEN=1 ls", Deny},
		{"export SECRET_X=1", Deny},
		{"IFS=: ls", RequireApproval},
		{"LD_PRELOAD=x ls", Deny},
	} {
		checkLine(t, e, "/w", tt.command, tt.want)
	}
	if _, err := parseRule("Env([)", "/w", "/home/u"); err == nil {
		t.Error("Env([) parsed; want an error")
	}
}

// TestEnforceTerminalAsTheIDERunsIt sends terminal requests through the
// middleware in a real bridge: args that an IDE joins into a second
// command, and an env that makes bash run a file, are refused, and the
// env is in the audit record.
func TestEnforceTerminalAsTheIDERunsIt(t *testing.T) {
	tests := []struct {
		name, params, reason string
	}{
		{"joined args", `"command":"echo","args":["x;","rm","-rf","V"]`, "rm -rf V"},
		{"BASH_ENV", `"command":"ls","env":[{"name":"BASH_ENV","value":"evil.sh"}]`, "BASH_ENV"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent(`{"jsonrpc":"2.0","id":%d,"method":"terminal/create","params":{"sessionId":"s1",%s}}`, 300+i, tt.params)
			m := h.nextAtAgent()
			if m["id"] != float64(300+i) || m["error"] == nil || !strings.Contains(fmt.Sprint(m["error"]), tt.reason) {
				t.Fatalf("agent got %v, want an error naming %q", m, tt.reason)
			}
			h.nextAtIDE() // the message telling the person
			h.marker()
			evs := h.rec.find("terminal.create", "deny")
			if len(evs) != 1 {
				t.Fatalf("terminal records: %+v", evs)
			}
			if strings.Contains(tt.params, `"env"`) {
				if env, _ := evs[0].ev.Input.(map[string]any)["env"].([]EnvVar); len(env) != 1 || env[0].Name != "BASH_ENV" {
					t.Errorf("record input env = %#v; want BASH_ENV", evs[0].ev.Input.(map[string]any)["env"])
				}
			}
		})
	}
}

// TestExplicitAllowOfCodeRunners: code the bridge cannot see needs
// approval unless a rule names the program that runs it; a bare Bash rule
// or a rule for the command it wraps does not count. A command the
// program is given and the bridge can read (git's pager) is decided as a
// command of its own besides.
func TestExplicitAllowOfCodeRunners(t *testing.T) {
	var rules []*rule
	for i, text := range []string{"Bash(python3:*)", "Bash(ls:*)", "Bash(git:*)"} {
		rules = append(rules, testRule(t, text, "/w", Allow, fmt.Sprintf("test:%d", i+1), fmt.Sprintf("allow-%d", i+1)))
	}
	all := testRule(t, "Bash", "/w", Allow, "test:9", "allow-all")
	named := NewEngine(&Policy{Default: RequireApproval, DefaultWhere: "test", rules: rules}, EngineOptions{Roots: []string{"/w"}})
	bare := NewEngine(&Policy{Default: RequireApproval, DefaultWhere: "test", rules: []*rule{all}}, EngineOptions{Roots: []string{"/w"}})
	for _, tt := range []struct {
		command     string
		named, bare Value
	}{
		{"python3 -c 'print(1)'", Allow, RequireApproval},
		{"echo 'print(1)' | python3", RequireApproval, RequireApproval}, // echo has no rule
		{"git -c core.pager=ls log", Allow, RequireApproval},
		{"git -c core.pager=less log", RequireApproval, RequireApproval}, // less has no rule
		// Programs whose own commands run the shell: a bare Bash rule does not vouch for them.
		{"sqlite3 x.db '.shell cat .env'", RequireApproval, RequireApproval},
		{"printf '!cat .env' | ed", RequireApproval, RequireApproval},
		{"echo 'cat .env' | at now", RequireApproval, RequireApproval},
		{"docker run -v /:/h alpine cat /h/etc/shadow", RequireApproval, RequireApproval},
		{"docker ps", RequireApproval, Allow},
		{"make -E 'x:;cat .env' x", RequireApproval, RequireApproval},
		{"make --ev='x:;cat .env' x", RequireApproval, RequireApproval},
		{"echo 'x:;cat .env' | make -f -", RequireApproval, RequireApproval},
		{"make -f /dev/stdin <<< 'x:;cat .env'", RequireApproval, RequireApproval},
		{"make test", RequireApproval, Allow},
		{"env python3 -c 'print(1)'", Allow, RequireApproval},
		{"ls | sh", RequireApproval, RequireApproval},
		{"$X", RequireApproval, RequireApproval},
		{"ls", Allow, Allow},
		{"sudo ls", RequireApproval, RequireApproval},
	} {
		checkLine(t, named, "/w", tt.command, tt.named)
		checkLine(t, bare, "/w", tt.command, tt.bare)
	}
}

// TestCommandCwdAsPath: the directory a command runs in, given as one of
// its paths (terminal/create's cwd, a tool's directory), is refused
// outside the roots but does not bring the default onto a command a rule
// allows.
func TestCommandCwdAsPath(t *testing.T) {
	e, root := corpusEngine(t)
	for _, tt := range []struct {
		req  Request
		want Value
	}{
		{Request{Action: ActionTerminalCreate, Command: "ls", Paths: []string{root}, Cwd: root}, Allow},
		{Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: "ls", Paths: []string{root}, Cwd: root}, Allow},
		{Request{Action: ActionTerminalCreate, Command: "ls", Paths: []string{"/"}, Cwd: "/"}, Deny},
		{Request{Action: ActionTerminalCreate, Command: "head x", Paths: []string{root}, Cwd: root}, RequireApproval},
	} {
		if d := e.Decide(tt.req); d.Value != tt.want {
			t.Errorf("%s %q in %s = %v; want %s", tt.req.Action, tt.req.Command, tt.req.Cwd, d, tt.want)
		}
	}
}
