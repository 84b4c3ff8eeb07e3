package compress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSpoolRotateIntoLinkedSegment: a segment file with a second name that
// the spool did not link in this run (an archive made of the older segment
// by a bridge killed after a checkpoint, or a hard link planted at the
// segment's path) keeps its bytes when a rotation empties that segment: the
// spool writes a copy, it does not truncate the shared file.
func TestSpoolRotateIntoLinkedSegment(t *testing.T) {
	setSpoolSegment(t, 4<<10)
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	const kept = "### Agent · 11:00:00\n\nbefore the kill\n\n"
	for _, name := range []string{"archive left by a killed bridge", "planted hard link"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			st := NewStore(dir, nil)
			base := st.spoolBase("s")
			if err := os.MkdirAll(filepath.Dir(base), 0o700); err != nil {
				t.Fatal(err)
			}
			other := filepath.Join(dir, "conversations", "s_full.md")
			if name == "planted hard link" {
				other = filepath.Join(dir, "GOVERNANCE.md")
			}
			if err := os.WriteFile(other, []byte(kept), 0o600); err != nil {
				t.Fatal(err)
			}
			// The older segment at the kill was .1; the current one .0.
			if err := os.WriteFile(base+".0", []byte("### Agent · 11:30:00\n\ncurrent\n\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(other, base+".1"); err != nil {
				t.Fatal(err)
			}
			r := NewRecorder("s", "/r")
			r.SpoolTo(base)
			chunk := `"` + strings.Repeat("x", 1000) + `"`
			for i := 0; i < 12; i++ { // 12 KB: rotates into .1 and back
				r.AgentChunk(at, "Agent", []byte(chunk))
			}
			r.Release()
			if got, err := os.ReadFile(other); err != nil || string(got) != kept {
				t.Fatalf("the file sharing the segment holds %d bytes %.60q (%v), want it unchanged", len(got), got, err)
			}
		})
	}
}
