package compress

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSpoolPlantedLink: a symbolic link planted where the spool will open
// a segment (the conversation of the next session, or the copy a segment
// linked to an archive is unshared into) is not written through: the file
// it leads to, which the bridge never meant to write (here a stand-in for
// the policy), is unchanged, whatever becomes of the spool.
func TestSpoolPlantedLink(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, seg := range []string{".0", ".0.copy"} {
		t.Run(seg, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(t.TempDir(), "GOVERNANCE.md")
			if err := os.WriteFile(victim, []byte("the policy"), 0o644); err != nil {
				t.Fatal(err)
			}
			base := filepath.Join(dir, "s.spool")
			if seg == ".0.copy" {
				// A segment with a second name, as an archive made of it
				// leaves it: the spool unshares it into base.0.copy.
				if err := os.WriteFile(base+".0", []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Link(base+".0", filepath.Join(dir, "archive.md")); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(victim, base+seg); err != nil {
				t.Fatal(err)
			}
			r := NewRecorder("s", "/r")
			r.SpoolTo(base)
			r.UserMessage(at, "fix the build")
			r.AgentChunk(at, "Agent", []byte(`"overwritten"`))
			r.Release()
			if got, err := os.ReadFile(victim); err != nil || string(got) != "the policy" {
				t.Fatalf("the file the planted link leads to holds %q (%v), want it unchanged", got, err)
			}
		})
	}
}

// TestSpoolPlantedPipe: a named pipe planted where the spool will open a
// segment (its name follows from the session id the agent chooses) does
// not hold the recorder: the spool gives up on it at once, and the
// conversation is kept in memory instead, as after any spool failure.
func TestSpoolPlantedPipe(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	base := filepath.Join(t.TempDir(), "s.spool")
	if err := syscall.Mkfifo(base+".0", 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		r := NewRecorder("s", "/r")
		r.SpoolTo(base)
		r.UserMessage(at, "fix the build")
		r.AgentChunk(at, "Agent", []byte(`"on it"`))
		done <- r.Intent()
		r.Release()
	}()
	select {
	case intent := <-done:
		if intent != "fix the build" {
			t.Errorf("intent %q, want the user's message", intent)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the recorder still waits on the planted pipe after 10 s")
	}
}
