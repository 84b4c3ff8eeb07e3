package main

import (
	"os"
	"strings"
	"testing"
)

// TestAuditShowMarksUnvouchedRows: a log altered in place is shown with
// the warning on standard error, which a pager's screen covers ('audit
// show log | less'); the rows on standard output say it too, under the
// altered row and again under the first row of each later session
// heading, and 'audit sessions' says it under its table.
func TestAuditShowMarksUnvouchedRows(t *testing.T) {
	log, data := writtenLog(t, writeAuditLog)
	altered := strings.Replace(string(data), "rm -rf /", "ls -la /", 1)
	if altered == string(data) {
		t.Fatal("the log has no 'rm -rf /' to alter")
	}
	if err := os.WriteFile(log, []byte(altered), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ := auditProcess(t, nil, "show", log)
	if !strings.Contains(stderr, "WARNING: the log does not verify") {
		t.Errorf("no warning on standard error:\n%s", stderr)
	}
	rows := strings.Split(out, "\n")
	i := -1
	for j, r := range rows {
		if strings.Contains(r, "ls -la /") {
			i = j
		}
	}
	if i < 0 || i+1 >= len(rows) || !strings.Contains(rows[i+1], "✗ NOT VERIFIED: the log does not verify (") ||
		!strings.Contains(rows[i+1], "the row above and the rows after it are shown as found") {
		t.Errorf("the altered row is not marked on standard output:\n%s", out)
	}
	// Once per session heading from there on, none before.
	if n := strings.Count(out, "NOT VERIFIED"); n != 2 || strings.Index(out, "NOT VERIFIED") < strings.Index(out, "ls -la /") {
		t.Errorf("%d marks, want 2 from the altered row on:\n%s", n, out)
	}
	out, _, _ = auditProcess(t, nil, "sessions", log)
	if !strings.Contains(out, "✗ NOT VERIFIED: the counts include records the log does not vouch for") {
		t.Errorf("audit sessions does not say so on standard output:\n%s", out)
	}
	if out, _, _ := auditProcess(t, nil, "show", "--json", log); out != altered {
		t.Errorf("show --json is not the log's lines:\n%s", out)
	}
}
