package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyCheckSubjects: policy check shows each command a line runs,
// what in it is not static and which rule decided it, and takes a
// terminal request's args and env and a tool call's kind, title and URL.
func TestPolicyCheckSubjects(t *testing.T) {
	dir := t.TempDir()
	policy := writePolicy(t, dir, "  deny: [Bash(rm:*), Bash(curl:*), WebFetch(domain:example.com)]\n  allow: [Bash(echo:*), Bash(ls:*)]\n")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"wrappers and a computed word", []string{"--command", "ls; timeout --signal KILL 5 $X -rf /tmp"}, []string{
			"require-approval\n",
			"  1. running \"ls\"\n       runs: ls\n       allow by allow Bash(ls:*)",
			"       runs: timeout --signal KILL 5 $X -rf /tmp\n",
			"       which runs: $X -rf /tmp\n",
			"       not static: $X (parameter expansion $X)\n",
			"       note: the command word is not static: $X (parameter expansion $X)\n",
			"       require-approval by deny Bash(rm:*)",
		}},
		{"terminal args joined", []string{"--command", "echo", "--arg", "x;", "--arg", "rm", "--arg", "-rf", "--arg", "V"}, []string{
			"deny\nrule:   deny Bash(rm:*)",
			"running \"rm -rf V\"\n       runs: rm -rf V\n       deny by deny Bash(rm:*)",
			"(as argv, the way a client that execs it runs it)",
		}},
		{"terminal env", []string{"--command", "ls", "--env", "BASH_ENV=evil.sh"}, []string{
			"deny\nrule:   deny environment variables that run code (built-in; allow with Env(NAME))\nreason: setting BASH_ENV: bash runs the file it names at start-up\n",
		}},
		{"brace expansion", []string{"--command", "{rm,-rf,x}"}, []string{"deny\n", "runs: rm -rf x\n"}},
		// A tool call with no name the policy knows is judged by its kind,
		// title and URL, as the bridge judges an agent's tool_call.
		{"fetch kind and url", []string{"--kind", "fetch", "--title", "Fetch docs", "--url", "https://api.example.com/x"}, []string{
			"deny\nrule:   deny WebFetch(domain:example.com)",
			"fetching api.example.com",
		}},
		// A title names the call; the command to judge comes from --command.
		{"execute kind and title", []string{"--kind", "execute", "--title", "rm -rf x"}, []string{
			"require-approval\n",
			"reason: tool.call rm -rf x: no rule matches",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"policy", "check", "--policy", policy, "--cwd", dir}, tt.args...)
			stdout, stderr, code := runCmd(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d\n%s", args, code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// TestPolicyCheckRelativeDirs: --cwd and --workspace-root given relative to
// the shell's directory are decided as the absolute directories they name,
// not refused as a relative session directory would be.
func TestPolicyCheckRelativeDirs(t *testing.T) {
	dir := t.TempDir()
	policy := writePolicy(t, dir, "  deny: [Bash(rm:*)]\n  allow: [Bash(chmod:*)]\n")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(d string) string {
		stdout, stderr, code := runCmd(t, "", "policy", "check", "--policy", policy, "--cwd", d, "--workspace-root", d, "--command", "chmod -R u+w sub")
		if code != 0 {
			t.Fatalf("--cwd %s: exit %d\n%s", d, code, stderr)
		}
		return stdout
	}
	abs, relative := check(dir), check(rel)
	if !strings.HasPrefix(abs, "allow\n") {
		t.Fatalf("--cwd %s:\n%s", dir, abs)
	}
	if relative != abs {
		t.Errorf("--cwd %s decided otherwise than --cwd %s:\n%s\nagainst\n%s", rel, dir, relative, abs)
	}
}

// TestPolicyCheckCwdDotDotAfterLink: a --cwd holding ".." after a link is
// decided where the kernel puts the process, as the bridge decides a
// request's cwd, not where its text cleans to: WS/a/b/m/.., m a link to
// WS/sub, is WS, where go.mod is asked about, not WS/a/b.
func TestPolicyCheckCwdDotDotAfterLink(t *testing.T) {
	dir := t.TempDir()
	policy := writePolicy(t, dir, "  ask: [Edit(./go.mod)]\n  allow: [Bash(cat:*)]\n")
	for _, d := range []string{"sub", "a/b"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../../sub", filepath.Join(dir, "a/b/m")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cwd, path, want string }{
		{cwd: dir, want: "require-approval\n"},
		{cwd: dir + "/a/b/m/..", want: "require-approval\n"},
		{cwd: dir + "/a/b", want: "allow\n"},
		{cwd: dir + "/a/b", path: "m/../go.mod", want: "require-approval\n"},
	} {
		args := []string{"policy", "check", "--policy", policy, "--cwd", tc.cwd, "--workspace-root", dir}
		if tc.path != "" {
			args = append(args, "--action", "fs.write", "--path", tc.path)
		} else {
			args = append(args, "--command", "cat x > go.mod")
		}
		stdout, stderr, code := runCmd(t, "", args...)
		if !strings.HasPrefix(stdout, tc.want) {
			t.Errorf("--cwd %s %s: exit %d, got\n%s%s\nwant %q", tc.cwd, tc.path, code, stdout, stderr, tc.want)
		}
	}
}

// TestPolicyCheckAuditDir: policy check decides a write beside the audit
// log as the bridge started in the same directory would: refused where the
// log's directory holds nothing but audit logs, left to the rules where it
// holds other files.
func TestPolicyCheckAuditDir(t *testing.T) {
	for _, c := range []struct {
		name  string
		other bool // a file beside the log that is not an audit log
		want  string
	}{
		{"the log's own directory", false, "deny\nrule:   deny changes to the audit log's directory (built-in self-protection)\n"},
		{"a directory holding other files", true, "allow\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			policy := writePolicy(t, dir, "  allow: [Edit]\n") // the policy's audit log: ./audit/audit-log.jsonl
			if err := os.Mkdir("audit", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("audit/audit-log.jsonl", nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if c.other {
				if err := os.WriteFile("audit/notes.txt", []byte("notes\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stdout, stderr, code := runCmd(t, "", "policy", "check", "--policy", policy, "--cwd", dir, "--workspace-root", dir,
				"--tool", "Write", "--path", "audit/other.jsonl")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if !strings.HasPrefix(stdout, c.want) {
				t.Errorf("got:\n%s\nwant it to start with:\n%s", stdout, c.want)
			}
		})
	}
}
