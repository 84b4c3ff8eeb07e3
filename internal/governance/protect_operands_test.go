package governance

import (
	"strings"
	"testing"
)

// TestDecideProtectedOperands checks the command lines that reach a
// protected file without naming it: through a symlink or hard link, a
// directory they delete, move or change recursively, or a directory they
// copy a source of the same names into; and that everyday lines naming
// the workspace are not refused for holding the policy.
func TestDecideProtectedOperands(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	tree{
		files: []string{"evil/GOVERNANCE.md", "plain/a.go", "evil-audit/audit-log.jsonl"},
		links: map[string]string{"logs": "audit", "cfg": ".", "notes.md": "GOVERNANCE.md", "src/up": ".."},
	}.make(t, root)
	tests := []struct {
		name string
		line string
		want Value
		what string // substring of the reason when denied
	}{
		{"truncate through a symlink", "truncate -s 0 notes.md", Deny, "notes.md is a link to the governance policy"},
		{"chmod through a symlink", "chmod 777 src/policy-link", Deny, "the governance policy"},
		{"sed following a symlink", "sed -i --follow-symlinks s/a/b/ notes.md", Deny, "the governance policy"},
		{"a symlink inside code", `python3 -c "open('notes.md','w')"`, Deny, "the governance policy"},
		{"a symlink as an option value", "dd if=/dev/zero of=notes.md count=1", Deny, "the governance policy"},
		{"a symlinked directory", "truncate -s0 logs/audit-log.jsonl.000001", Deny, "the audit log"},
		{"dotdot after a symlinked directory", "chmod 777 src/up/ACP.md", Deny, "the ACP.md manifest"},
		{"a glob matching a symlink", "truncate -s0 note*", Deny, "the governance policy"},
		{"a hard link", "truncate -s0 src/hard.md", Deny, "the governance policy"},
		{"a hard link to a rotated log", "wc -l src/old-log.txt", Deny, "the audit log"},
		{"a dangling link into the cache", "cp a.go src/cache-link", Deny, "the compression cache"},
		{"find deleting the audit directory", "find audit -type f -delete", Deny, "the audit log"},
		{"find running a program on the audit directory", "find logs/ -type f -exec truncate -s0 {} +", Deny, "the audit log"},
		{"moving the audit directory", "mv audit old", Deny, "the audit log"},
		{"moving the workspace", "mv " + root + " " + tmp + "/gone", Deny, "the governance policy"},
		{"deleting the workspace by a link", "rm -rf cfg/", Deny, "the governance policy"},
		{"recursive chmod of the workspace", "chmod -R a+w .", Deny, "the governance policy"},
		{"copying a directory's contents over the policy", "cp -r evil/. .", Deny, "the governance policy"},
		{"rsync of a directory's contents over the policy", "rsync -a evil/ ./", Deny, "the governance policy"},
		{"copying into the audit directory", "cp -r evil-audit/. audit/", Deny, "the audit log"},
		{"copying with a target directory", "cp -r -t . evil/.", Deny, "the governance policy"},
		{"a link to a computed name, then a command", `ln -s "$(printf %s GOV ERN ANCE.md)" n && truncate -s0 n`, Deny, "makes a link to a place known only when the line runs"},
		{"a hard link by cp to a computed name, then a command", `cp -l "$F" n; chmod 777 n`, Deny, "makes a link"},
		{"a link to the audit directory, then a command", "ln -s audit L && find L/ -type f -delete", Deny, "makes a link to"},
		{"a link up to the workspace, then a command", "mkdir -p d && ln -s .. d/up && chmod -R a+w d/up/", Deny, "makes a link to"},
		{"a link to a library, then a command", "mkdir -p build && ln -s ../plain/a.go build/a.go && cat build/a.go", Allow, ""},
		{"a link to a computed name alone", `ln -s "$HOME/bin/tool" plain/tool`, RequireApproval, "not known until the line runs"},
		{"a static link, then a command", "ln -s plain/a.go b.go && cat b.go", Allow, ""},
		{"rsync deleting from the audit directory", "rsync -a --delete plain/ audit/", Deny, "the audit log"},
		{"rsync removing its sources", "rsync -a --remove-source-files audit/ /tmp/x/", Deny, "the audit log"},
		{"rsync into an ordinary directory", "rsync -a --delete plain/ other/", Allow, ""},
		{"moving a file into the workspace", "mv plain/a.go .", Allow, ""},
		{"copying a directory into the workspace", "cp -r plain .", Allow, ""},
		{"copying into the workspace by a link", "cp -r plain/. cfg/plain2", Allow, ""},
		{"listing through a link", "ls -la cfg logs", Allow, ""},
		{"searching the workspace", "grep -rn TODO plain && find . -name '*.go' && git add .", Allow, ""},
		{"searching a workspace that holds the audit log", "grep -rn TODO .", Deny, "the audit log"},
		{"recursive chmod elsewhere", "chmod -R a+w plain", Allow, ""},
		{"deleting an ordinary directory", "rm -rf plain", Allow, ""},
		{"find acting on an ordinary directory", "find plain -name '*.go' -exec gofmt -l {} +", RequireApproval, "not known until the line runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Action: ActionTerminalCreate, Command: tt.line, Cwd: root}
			d := e.Decide(req)
			if d.Value != tt.want || tt.want == Deny && (d.Ref != "self-protection" || !strings.Contains(d.Reason, tt.what)) {
				t.Errorf("Decide(%q) = %v (ref %s: %s); want %s about %q", tt.line, d.Value, d.Ref, d.Reason, tt.want, tt.what)
			}
		})
	}
}

// TestProtectedOperandsBounded checks that a line naming more files than
// are looked up is refused, not half checked.
func TestProtectedOperandsBounded(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	var b strings.Builder
	b.WriteString("cat")
	for i := 0; i <= maxOperands; i++ {
		b.WriteString(" f" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "/" + strings.Repeat("y", i/26))
	}
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: b.String(), Cwd: root})
	if d.Value != Deny || !strings.Contains(d.Reason, "too many to check") {
		t.Errorf("a line naming %d files: %v (%s); want deny as too many to check", maxOperands+1, d.Value, d.Reason)
	}
}
