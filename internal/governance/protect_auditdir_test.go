package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// auditLine is the start of a line the audit log writes.
const auditLine = `{"$schema":"agentgovernance/v1","doctype":"audit-event","seq":0}` + "\n"

// TestAuditDirProtectedWhen checks which audit log directories are the
// log's own: only one holding nothing but audit logs, and never the
// bridge's working directory, a workspace root or a directory above one.
func TestAuditDirProtectedWhen(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string // beneath the audit directory "audit"
		dirs  []string
		log   string // the audit log, relative to the working directory
		roots []string
		want  bool
	}{
		{name: "a new directory: the log alone, still empty", files: map[string]string{"audit-log.jsonl": ""}, want: true},
		{name: "the log, its lock and its rotated files", files: map[string]string{
			"audit-log.jsonl": auditLine, ".audit-log.jsonl.lock": "", "audit-log.jsonl.000001": auditLine}, want: true},
		{name: "another audit log beside it", files: map[string]string{"audit-log.jsonl": auditLine, "old.jsonl": auditLine}, want: true},
		{name: "a file that is not an audit log", files: map[string]string{"audit-log.jsonl": auditLine, "notes.txt": "hello\n"}},
		{name: "a directory in it", files: map[string]string{"audit-log.jsonl": auditLine}, dirs: []string{"cache"}},
		{name: "the working directory itself", files: map[string]string{"audit-log.jsonl": auditLine}, log: "audit-log.jsonl"},
		{name: "a workspace root", files: map[string]string{"audit-log.jsonl": auditLine}, roots: []string{"audit"}},
		{name: "above a workspace root", files: map[string]string{"audit-log.jsonl": auditLine}, dirs: []string{"proj"}, roots: []string{"audit/proj"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wd := t.TempDir()
			t.Chdir(wd)
			dir := "audit"
			if c.log != "" {
				dir = "."
			}
			for _, d := range append([]string{"."}, c.dirs...) {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, text := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			log := filepath.Join(dir, "audit-log.jsonl")
			var roots []string
			for _, r := range c.roots {
				roots = append(roots, filepath.Join(wd, r))
			}
			p, got := AuditDirProtected(log, roots)
			if got != c.want {
				t.Fatalf("AuditDirProtected(%q) = %v, want %v", log, got, c.want)
			}
			if got && (p.Path != dir || p.Read) {
				t.Errorf("protection %+v: want Path %q, writes only", p, dir)
			}
		})
	}
}

// TestAuditDirRefusesPlantedLogs checks that, with the audit log's own
// directory protected, the agent can put nothing beside the log (a log of
// its own that "audit serve audit/" would show with the bridge's), by a
// write, a command, a link or a new directory, while it still reads and
// writes the rest of the workspace. A read through the IDE of another log
// there is the policy's to decide (the directory is protected from writes).
func TestAuditDirRefusesPlantedLogs(t *testing.T) {
	root := tempTree(t, []string{"sub", "audit"}, []string{"audit/audit-log.jsonl", "audit/old.jsonl", "sub/a.txt"})
	if err := os.WriteFile(filepath.Join(root, "audit", "old.jsonl"), []byte(auditLine), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	dir, ok := AuditDirProtected(filepath.Join("audit", "audit-log.jsonl"), []string{root})
	if !ok {
		t.Fatal("the audit directory is not protected")
	}
	rules := "  default: ask\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(echo:*)\n    - Bash(cp:*)\n    - Bash(ln:*)\n    - Bash(mkdir:*)\n    - Bash(cat:*)\n"
	e := rootPolicyEngine(t, root, rules, AuditProtected(filepath.Join(root, "audit", "audit-log.jsonl")), dir)
	write := func(p string) Request {
		return Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}, Cwd: root}
	}
	read := func(p string) Request {
		return Request{Action: ActionFSRead, Paths: []string{root + "/" + p}, Cwd: root}
	}
	for _, c := range []struct {
		req  Request
		want Value
	}{
		{write("audit/forged.jsonl"), Deny},
		{write("audit/old.jsonl"), Deny},
		{write("audit/new/x.jsonl"), Deny},
		{write("sub/../audit/f.jsonl"), Deny},
		{write("sub/b.txt"), Allow},
		{read("audit/old.jsonl"), Allow},
		{read("sub/a.txt"), Allow},
	} {
		if d := e.Decide(c.req); d.Value != c.want {
			t.Errorf("%s %v: %v (%s); want %v", c.req.Action, c.req.Paths, d.Value, d.Reason, c.want)
		}
	}
	checkCommandRows(t, e, root, []commandRow{
		{"echo '{}' > audit/forged.jsonl", Deny},
		{"cp sub/a.txt audit/", Deny},
		{"ln -s ../sub/a.txt audit/l.jsonl", Deny},
		{"mkdir audit/more", Deny},
		{"cd audit && echo x > f.jsonl", Deny},
		{"cat audit/old.jsonl", Deny}, // a command naming a protected location
		{"echo x > sub/b.txt", Allow},
		{"cat sub/a.txt", Allow},
	})
}
