package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAuditTailMarksUnchained: lines another process appended, which do
// not continue the chain, are shown by 'audit tail' each with a mark
// under it, whatever seq they claim: one far ahead, and one at a seq
// already shown (before the last -n lines).
func TestAuditTailMarksUnchained(t *testing.T) {
	log, data := writtenLog(t, writeAuditLog)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	last := strings.Replace(lines[len(lines)-1], `"action":"`, `"action":"forged.`, 1)
	seq := regexp.MustCompile(`"seq":\d+`)
	ahead := seq.ReplaceAllString(strings.Replace(last, "forged.", "forged.ahead.", 1), `"seq":999999`)
	again := seq.ReplaceAllString(strings.Replace(last, "forged.", "forged.again.", 1), `"seq":0`)
	if err := os.WriteFile(log, []byte(string(data)+ahead+"\n"+again+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, _ := auditProcess(t, nil, "tail", "-n", "3", log)
	rows := strings.Split(out, "\n")
	for _, tt := range []struct{ action, why string }{
		{"forged.ahead.", "does not match the content"},
		{"forged.again.", "does not match the content"},
	} {
		i := -1
		for j, r := range rows {
			if strings.Contains(r, tt.action) {
				i = j
			}
		}
		if i < 0 || i+1 >= len(rows) || !strings.Contains(rows[i+1], "✗ NOT VERIFIED: the line above does not continue the chain") {
			t.Errorf("audit tail did not show and mark %s:\n%s", tt.action, out)
			continue
		}
		if !strings.Contains(rows[i+1], tt.why) {
			t.Errorf("the mark under %s does not say %q:\n%s", tt.action, tt.why, out)
		}
	}
	if strings.Count(out, "✗ NOT VERIFIED") != 2 {
		t.Errorf("audit tail marked other lines than the two:\n%s", out)
	}
}
