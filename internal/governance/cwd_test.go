package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecideAfterChangeDir checks that what a line names after a cd is
// decided where the cd leads, as if the line named it there: "cd OUT &&
// touch x" is "touch OUT/x", denied as a write outside the workspace;
// "cd audit && truncate -s0 *" reaches the audit log. In a subshell the cd
// moves only what follows it there. A cd whose directory is not known
// (computed, none, "-") makes what follows it asked about, but a name a
// rule refuses wherever it is (Read(**/.env)) is refused there too.
func TestDecideAfterChangeDir(t *testing.T) {
	dir := t.TempDir()
	ws, out := filepath.Join(dir, "ws"), filepath.Join(dir, "out")
	tree{
		dirs:  []string{"ws/sub", "ws/audit"},
		files: []string{"ws/.env", "ws/a.txt", "ws/audit/audit-log.jsonl", "out/.env", "out/secret.txt"},
		links: map[string]string{"ws/away": "../out"},
	}.make(t, dir)
	var allow string
	for _, c := range []string{"touch", "cd", "pushd", "cat", "mv", "rm", "truncate", "grep", "echo", "ls"} {
		allow += "    - Bash(" + c + ":*)\n"
	}
	p := testPolicy(t, "  default: ask\n  deny:\n    - Read(**/.env)\n    - Edit(**/.env)\n  allow:\n    - Read\n    - Edit(./**)\n"+allow)
	e := NewEngine(p, EngineOptions{Roots: []string{ws}, Protected: []ProtectedPath{
		{Path: filepath.Join(ws, "audit", "audit-log.jsonl"), What: "the audit log", Read: true, Rotated: true}}})
	for _, c := range caseRows(t, "after_cd_lines.txt", 3, map[string]string{"$OUT": out}) {
		line, want, why := c.fields[0], Value(c.fields[1]), c.fields[2]
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: ws})
		if d.Value != want || !strings.Contains(d.Reason, why) {
			t.Errorf("after_cd_lines.txt:%d: Decide(%q) = %v (%s); want %v, the reason naming %q", c.line, line, d.Value, d.Reason, want, why)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "x")); err == nil {
		t.Fatal("deciding created a file")
	}
}

// TestDecideAfterChangeDirCDPATH checks that a cd to a name the shell looks
// up in CDPATH, set by the request's env, is not followed: the directory
// may be any of CDPATH's.
func TestDecideAfterChangeDirCDPATH(t *testing.T) {
	ws := tempTree(t, []string{"sub"}, []string{"a.txt"})
	p := testPolicy(t, "  default: ask\n  allow:\n    - Read\n    - Edit(./**)\n    - Env(CDPATH)\n    - Bash(cd:*)\n    - Bash(touch:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{ws}})
	req := Request{Action: ActionTerminalCreate, Command: "cd sub && touch x", Cwd: ws}
	if d := e.Decide(req); d.Value != Allow {
		t.Fatalf("without CDPATH: %v (%s); want allow", d.Value, d.Reason)
	}
	req.Env = []EnvVar{{Name: "CDPATH", Value: t.TempDir()}}
	if d := e.Decide(req); d.Value != RequireApproval || !strings.Contains(d.Reason, "not known") {
		t.Errorf("with CDPATH: %v (%s); want it asked about, where x leads not known", d.Value, d.Reason)
	}
	req.Command = "cd ./sub && touch x"
	if d := e.Decide(req); d.Value != Allow {
		t.Errorf("cd ./sub with CDPATH: %v (%s); want allow (./ is not looked up)", d.Value, d.Reason)
	}
}
