package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchFiles: a file's change, and its removal, are reported once
// each with its digest before and after; an unchanged file is not.
func TestWatchFiles(t *testing.T) {
	dir := t.TempDir()
	pol, other := filepath.Join(dir, "GOVERNANCE.md"), filepath.Join(dir, "POLICY.md")
	for _, f := range []string{pol, other} {
		if err := os.WriteFile(f, []byte("v1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type change struct{ path, before, after string }
	got := make(chan change, 4)
	stop := watchFiles([]string{pol, other}, 5*time.Millisecond, func(p, b, a string) { got <- change{p, b, a} })
	defer stop()
	next := func() change {
		t.Helper()
		select {
		case c := <-got:
			return c
		case <-time.After(10 * time.Second):
			t.Fatal("no change reported")
			return change{}
		}
	}
	v1 := fileDigest(pol)
	if err := os.WriteFile(pol, []byte("v2"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := next(); c.path != pol || c.before != v1 || c.after != fileDigest(pol) || c.after == v1 {
		t.Errorf("after a write: %+v; want %s from %s to the new digest", c, pol, v1)
	}
	if err := os.Remove(pol); err != nil {
		t.Fatal(err)
	}
	if c := next(); c.path != pol || c.after != "missing" {
		t.Errorf("after a removal: %+v; want %s missing", c, pol)
	}
	stop()
	select {
	case c := <-got:
		t.Errorf("unexpected change %+v (POLICY.md was never changed)", c)
	default:
	}
}

// TestPolicyChanged: a change is recorded as policy.changed with both
// digests, and told to the person in the session open.
func TestPolicyChanged(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	h.enf.PolicyChanged("/ws/GOVERNANCE.md", "aaa", "bbb")
	recs := h.rec.find("policy.changed", "")
	if len(recs) != 1 || recs[0].ev.Subject.Path != "/ws/GOVERNANCE.md" {
		t.Fatalf("records %+v; want one policy.changed of /ws/GOVERNANCE.md", recs)
	}
	in, _ := recs[0].ev.Input.(map[string]any)
	if in["before"] != "aaa" || in["after"] != "bbb" {
		t.Errorf("record input %v; want before aaa, after bbb", in)
	}
	m := h.nextAtIDE()
	text, _ := get(m, "params", "update", "content", "text").(string)
	if get(m, "params", "sessionId") != "s1" || !strings.Contains(text, "changed on disk") || !strings.Contains(text, "bbb") {
		t.Errorf("IDE got %v; want the change told in s1", m)
	}
}
