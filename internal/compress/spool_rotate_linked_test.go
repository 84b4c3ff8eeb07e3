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

// TestSpoolArchivePlantedHardLink: a checkpoint does not make the older
// segment the archive when its file has another name: a hard link planted
// in its place would have the heading written over, and the conversation
// appended to, the file it shares.
func TestSpoolArchivePlantedHardLink(t *testing.T) {
	dir, st, r := spoolingRecorder(t, 8<<10)
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	base := st.spoolBase("s")
	r.UserMessage(at, "fix the build")
	chunk := `"` + strings.Repeat("ab", 600) + `"`
	for i := 0; i < 10; i++ { // 12 KB: the spool is in its second segment
		r.AgentChunk(at, "Agent", []byte(chunk))
	}
	r.Release()
	if r.spool.cur != 1 {
		t.Fatalf("the spool is in segment %d, want 1", r.spool.cur)
	}
	victim := filepath.Join(dir, "GOVERNANCE.md")
	want := strings.Repeat("the policy\n", 2000)
	if err := os.WriteFile(victim, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(base + ".0"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, base+".0"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.saveArchive(st, "s", at); err != nil {
		t.Logf("saveArchive: %v", err)
	}
	if got, err := os.ReadFile(victim); err != nil || string(got) != want {
		t.Fatalf("the file linked at the older segment's path changed: %d bytes %.60q (%v)", len(got), got, err)
	}
}
