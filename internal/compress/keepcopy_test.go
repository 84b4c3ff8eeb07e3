package compress

import (
	"os"
	"testing"
)

// TestKeepCopyReadBack: the copy of a limited read the Claude Code adapter
// keeps (KeepCopy) is an offload of the session that read it, which may
// read it back by the path it is told (Offloaded), and of no other; for a
// session the pipeline does not keep, it is written and nobody's.
func TestKeepCopyReadBack(t *testing.T) {
	h := sessionHarness(t, Config{ContextSize: 1 << 30, OffloadTokens: 100})
	h.newSession(2, "/repo", "s2")
	path, err := h.p.KeepCopy("s1", "Read", "the whole file\n")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "the whole file\n" {
		t.Fatalf("copy at %s holds %q (%v)", path, b, err)
	}
	stray, err := h.p.KeepCopy("s9", "Read", "another\n")
	if err != nil {
		t.Fatal(err)
	}
	wantOffloaded(t, h.p, []offloadedCase{
		{"s1", path, true},
		{"s2", path, false},
		{"s9", stray, false},
		{"s1", stray, false},
	})
}
