package governance

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// testEngine loads testdata/policy/GOVERNANCE.md with a fresh workspace
// root holding a src dir, a .env, and symlinks pointing in and out.
func testEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	p, err := LoadPolicy("testdata/policy/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	outside := filepath.Join(tmp, "outside")
	tree{
		dirs:  []string{"ws/src", "ws/secrets", "outside"},
		files: []string{"ws/.env", "ws/src/a.go", "outside/passwd"},
		links: map[string]string{
			"ws/src/escape":     outside,             // dir link out of the root
			"ws/src/pw.go":      outside + "/passwd", // file link out
			"ws/src/config.txt": root + "/.env",      // link to a denied file
			"ws/src/notsecret":  root + "/secrets",   // link to a denied dir
		},
	}.make(t, tmp)
	return NewEngine(p, EngineOptions{Roots: []string{root}, Home: tmp + "/home"}), root
}

func TestDecidePaths(t *testing.T) {
	e, root := testEngine(t)
	tests := []struct {
		name   string
		action string
		path   string
		want   Value
		rule   string // substring of Decision.Rule
	}{
		{"allowed read in root", ActionFSRead, root + "/src/a.go", Allow, "allow Read "},
		{"relative read", ActionFSRead, "src/a.go", Deny, "deny relative paths"},
		{"dotenv denied", ActionFSRead, root + "/.env", Deny, "Read(**/.env)"},
		{"dotenv nested denied", ActionFSRead, root + "/src/deep/.env", Deny, "Read(**/.env)"},
		{"dotdot to dotenv", ActionFSRead, root + "/src/../.env", Deny, "Read(**/.env)"},
		{"double slash", ActionFSRead, root + "//src//..//.env", Deny, "Read(**/.env)"},
		{"mixed case dotenv", ActionFSRead, root + "/.ENV", Deny, "Read(**/.env)"},
		{"mixed case dir", ActionFSRead, root + "/SECRETS/key", Deny, "Read(./secrets/**)"},
		{"secrets dir", ActionFSRead, root + "/secrets/key", Deny, "Read(./secrets/**)"},
		{"secrets dir itself", ActionFSRead, root + "/secrets", Deny, "Read(./secrets/**)"},
		{"dotdot out of root", ActionFSRead, root + "/../outside/passwd", Deny, "workspace roots"},
		{"absolute outside", ActionFSRead, "/etc/passwd", Deny, "workspace roots"},
		{"symlinked dir out of root", ActionFSRead, root + "/src/escape/passwd", Deny, "workspace roots"},
		{"symlinked file out of root", ActionFSRead, root + "/src/pw.go", Deny, "workspace roots"},
		{"symlink to dotenv", ActionFSRead, root + "/src/config.txt", Deny, "Read(**/.env)"},
		{"symlink to secrets dir", ActionFSRead, root + "/src/notsecret/new", Deny, "Read(./secrets/**)"},
		{"dotdot after symlink", ActionFSRead, root + "/src/escape/../passwd", Deny, "workspace roots"},
		{"allowed outside by absolute rule", ActionFSRead, "/usr/share/doc/x/README", Allow, "Read(//usr/share/doc/**)"},
		{"write in src", ActionFSWrite, root + "/src/b.go", Allow, "Edit(./src/**)"},
		{"write pem", ActionFSWrite, root + "/src/key.pem", Deny, "Edit(**/*.pem)"},
		{"write PEM mixed case", ActionFSWrite, root + "/src/key.PEM", Deny, "Edit(**/*.pem)"},
		{"write outside src gets default", ActionFSWrite, root + "/README.md", RequireApproval, "default require-approval"},
		{"write allow is case-exact", ActionFSWrite, root + "/SRC/b.go", RequireApproval, "default"},
		{"write through link out of root", ActionFSWrite, root + "/src/escape/new.go", Deny, "workspace roots"},
		{"write outside", ActionFSWrite, "/tmp/x.go", Deny, "workspace roots"},
		{"home tilde is relative", ActionFSRead, "~/.ssh/id_rsa", Deny, "deny relative paths"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := e.Decide(Request{Action: tt.action, Paths: []string{tt.path}, Cwd: root})
			if d.Value != tt.want || !strings.Contains(d.Rule, tt.rule) {
				t.Errorf("Decide(%s %s) = %v; want %s by a rule containing %q", tt.action, tt.path, d, tt.want, tt.rule)
			}
		})
	}
}

func TestDecideCommands(t *testing.T) {
	e, root := testEngine(t)
	tests := []struct {
		name    string
		command string
		want    Value
		rule    string
	}{
		{"allowed prefix", "npm run test", Allow, "Bash(npm run test:*)"},
		{"allowed prefix with args", "npm run test -- --watch", Allow, "Bash(npm run test:*)"},
		{"prefix is word-wise", "npm run testing", RequireApproval, "default"},
		{"exact rule", "git status", Allow, "Bash(git status)"},
		{"exact rule with more args", "git status --short", RequireApproval, "default"},
		{"denied", "rm -rf /", Deny, "Bash(rm -rf:*)"},
		{"ask", "git commit -m x", RequireApproval, "Bash(git commit:*)"},
		{"and chain", "npm run test && rm -rf /", Deny, "Bash(rm -rf:*)"},
		{"or chain", "ls || curl evil", Deny, "Bash(curl:*)"},
		{"semicolon", "ls; git push origin main", Deny, "Bash(git push:*)"},
		{"pipe", "echo hi | curl -d @- x", Deny, "Bash(curl:*)"},
		{"background", "ls & curl x", Deny, "Bash(curl:*)"},
		{"newline", "ls\ncurl x", Deny, "Bash(curl:*)"},
		{"redirect is not a separator", "ls 2>&1", Allow, "Bash(ls:*)"},
		{"dollar substitution", "echo $(curl evil)", Deny, "Bash(curl:*)"},
		{"backticks", "echo `rm -rf /tmp/x`", Deny, "Bash(rm -rf:*)"},
		{"process substitution", "ls <(curl x)", Deny, "Bash(curl:*)"},
		{"nested substitution", "echo $(echo $(git push))", Deny, "Bash(git push:*)"},
		{"substitution in double quotes", `echo "$(curl x)"`, Deny, "Bash(curl:*)"},
		{"single quotes hide nothing", `echo '$(curl x)'`, Allow, "Bash(echo:*)"},
		{"env prefix", "FOO=1 curl x", Deny, "Bash(curl:*)"},
		{"env prefix with substitution", "FOO=$(curl x) ls", Deny, "Bash(curl:*)"},
		{"env wrapper", "env -i FOO=1 curl x", Deny, "Bash(curl:*)"},
		{"sudo", "sudo -u root rm -rf /", Deny, "Bash(rm -rf:*)"},
		{"command wrapper", "command curl x", Deny, "Bash(curl:*)"},
		{"exec wrapper", "exec curl x", Deny, "Bash(curl:*)"},
		{"nohup time nice", "nohup time nice -n 5 curl x", Deny, "Bash(curl:*)"},
		{"timeout", "timeout 5 curl x", Deny, "Bash(curl:*)"},
		{"xargs", "echo x | xargs -n 1 curl", Deny, "Bash(curl:*)"},
		{"bash -c", "bash -c 'curl x'", Deny, "Bash(curl:*)"},
		{"sh -lc", `sh -lc "ls && git push"`, Deny, "Bash(git push:*)"},
		{"eval", "eval 'rm -rf /'", Deny, "Bash(rm -rf:*)"},
		{"find exec", "find . -exec curl {} ;", Deny, "Bash(curl:*)"},
		{"quoted command word", "'curl' x", Deny, "Bash(curl:*)"},
		{"backslash in command word", `c\url x`, Deny, "Bash(curl:*)"},
		{"absolute path", "/usr/bin/curl x", Deny, "Bash(curl:*)"},
		{"mixed case command", "CURL x", Deny, "Bash(curl:*)"},
		{"subshell", "(ls; curl x)", Deny, "Bash(curl:*)"},
		{"if block", "if true; then curl x; fi", Deny, "Bash(curl:*)"},
		{"variable command", "$CMD -rf /", RequireApproval, "Bash(rm -rf:*)"},
		{"substituted command word", "$(echo rm) -rf /", RequireApproval, "Bash(rm -rf:*)"},
		{"unterminated quote", "echo 'oops", RequireApproval, "cannot read"},
		{"allowed compound", "ls && echo done", Allow, "allow Bash("},
		{"escalate policy", "kubectl apply -f prod.yaml", Escalate, "policy no-prod-deploy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, action := range []string{ActionTerminalCreate, ActionToolCall} {
				req := Request{Action: action, Command: tt.command, Cwd: root}
				if action == ActionToolCall {
					req.Tool, req.Kind = "Bash", "execute"
				}
				d := e.Decide(req)
				want := tt.want
				if action == ActionTerminalCreate && tt.name == "escalate policy" {
					want = RequireApproval // the policy binds tool.call only
				}
				if d.Value != want || want == tt.want && !strings.Contains(d.Rule, tt.rule) {
					t.Errorf("%s %q = %v; want %s by a rule containing %q", action, tt.command, d, want, tt.rule)
				}
			}
		})
	}
}

func TestDecideTools(t *testing.T) {
	e, root := testEngine(t)
	tests := []struct {
		name string
		req  Request
		want Value
		rule string
	}{
		{"denied tool by name", Request{Action: ActionToolCall, Tool: "WebSearch"}, Deny, "WebSearch"},
		{"fetch allowed domain", Request{Action: ActionToolCall, Tool: "WebFetch", URL: "https://docs.example.com/x"}, Allow, "domain:example.com"},
		{"fetch denied domain", Request{Action: ActionToolCall, Kind: "fetch", URL: "https://EVIL.example/x"}, Deny, "domain:evil.example"},
		{"fetch lookalike", Request{Action: ActionToolCall, Kind: "fetch", URL: "https://notexample.com/"}, RequireApproval, "default"},
		{"unknown tool default", Request{Action: ActionToolCall, Tool: "Task"}, RequireApproval, "default"},
		{"read-kind tool call with location", Request{Action: ActionToolCall, Kind: "read", Paths: []string{root + "/.env"}}, Deny, "Read(**/.env)"},
		{"edit-kind tool call", Request{Action: ActionToolCall, Kind: "edit", Paths: []string{root + "/src/x.go"}}, Allow, "Edit(./src/**)"},
		{"execute with unknown command", Request{Action: ActionToolCall, Kind: "execute", CommandUnknown: true}, RequireApproval, "default"},
		{"move out of root", Request{Action: ActionToolCall, Kind: "move", Paths: []string{root + "/src/a.go", "/tmp/a.go"}}, Deny, "workspace roots"},
		{"session in root", Request{Action: ActionSessionNew, Paths: []string{root}}, Allow, "inside the workspace roots"},
		{"session in a denied dir", Request{Action: ActionSessionNew, Paths: []string{root + "/secrets"}}, Allow, "inside the workspace roots"},
		{"session outside root", Request{Action: ActionSessionNew, Paths: []string{"/"}}, Deny, "workspace roots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.Cwd == "" {
				tt.req.Cwd = root
			}
			d := e.Decide(tt.req)
			if d.Value != tt.want || !strings.Contains(d.Rule, tt.rule) {
				t.Errorf("Decide(%+v) = %v; want %s by a rule containing %q", tt.req, d, tt.want, tt.rule)
			}
		})
	}
	if runtime.GOOS == "windows" {
		t.Skip("paths are POSIX")
	}
}
