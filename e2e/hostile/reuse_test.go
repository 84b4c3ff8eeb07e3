package hostile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// TestHostileReusedBlocks runs the reuse cases (testdata/reuse.txtar:
// several read blocks' worth of notifications around the calls they
// judge) once, under their first IDE variant, with the bridge overwriting each read block it takes back for
// reuse with '#' (acpwire.PoisonBlocksEnv). The bridge reuses its blocks
// while every feature says it keeps no message's bytes past handling it
// (Bridge.UseNonRetaining); a feature that keeps a slice anyway (an audit
// record queued with the message's params, a held message forwarded later)
// then records or sends '#' where the bytes it judged were. Each run must
// pass as in TestHostile, every record must be written (a record holding
// poison may not be JSON any more), and neither the audit log nor what the
// agent received may hold a run of poisonRun '#' that the script did not
// send.
func TestHostileReusedBlocks(t *testing.T) {
	needBridge(t)
	cases := testCases(t)
	// The IDE process, and so the bridge it starts, inherits it; the
	// parallel runs below all end before this test does.
	os.Setenv(acpwire.PoisonBlocksEnv, "1")
	t.Cleanup(func() { os.Unsetenv(acpwire.PoisonBlocksEnv) })
	for _, c := range cases {
		if !strings.HasPrefix(c.name, "reuse/") {
			continue // too little traffic to read over a block
		}
		t.Run(c.name+"/"+c.ides[0], func(t *testing.T) {
			t.Parallel()
			r := runCase(t, c, c.ides[0], true)
			sent := longestRun(strings.Join(c.lines, "\n"), '#')
			for what, text := range map[string]string{"the audit log": r.audit, "what the agent received": receivedBy(filepath.Join(r.w.run, "received"))} {
				if n := longestRun(text, '#'); n >= poisonRun && n > sent {
					r.fail("%s holds a run of %d '#', bytes of a reused read block kept past their release (the script's longest is %d): %.300q",
						what, n, sent, around(text, strings.Repeat("#", n)))
				}
			}
			if i := strings.Index(r.stderr, "audit append failed"); i >= 0 {
				r.fail("the bridge could not write a record: %.300s", r.stderr[i:])
			}
			r.report(t)
		})
	}
}

// poisonRun is the shortest run of '#' taken for a poisoned block: longer
// than any a case's files or commands print.
const poisonRun = 8

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// around returns some of s around the first occurrence of sub.
func around(s, sub string) string {
	i := strings.Index(s, sub)
	if i < 0 {
		return ""
	}
	return s[max(0, i-150):min(len(s), i+len(sub)+150)]
}

// receivedBy reads what the agent received in a run.
func receivedBy(path string) string {
	data, _ := os.ReadFile(path)
	return string(bytes.TrimSpace(data))
}
