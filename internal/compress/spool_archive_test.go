package compress

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSavedArchiveAtEveryStep: the archive a checkpoint saves (saveArchive,
// which links the spool's older segment as the archive when it can) holds,
// wherever in a session it is saved, what WriteArchive copies from the
// spool, and what the recorder writes from memory while nothing is
// dropped; and no archive a reader has changes as the session goes on
// (the spool never writes a segment that became an archive, and a
// rotation starts a new file in its place). The session rotates its
// segments twice, and some archives are saved with an agent entry open.
func TestSavedArchiveAtEveryStep(t *testing.T) {
	dir, st, spooled := spoolingRecorder(t, 8<<10)
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	mem := NewRecorder("s", "/r")

	type kept struct{ path, text string }
	var archives []kept
	linked := 0
	check := func(step string) {
		t.Helper()
		at = at.Add(time.Second)
		want := spooled.Archive(at)
		if spooled.spool.dropped == 0 {
			if m := mem.Archive(at); m != want {
				t.Fatalf("%s: the spooled archive differs from memory:\n%.3000s\n---- from memory:\n%.3000s", step, want, m)
			}
		}
		path, err := spooled.saveArchive(st, "s", at)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("%s: the saved archive differs:\n%.3000s\n---- copied:\n%.3000s", step, got, want)
		}
		if a, err := os.Stat(path); err == nil {
			if s0, err := os.Stat(st.spoolBase("s") + ".0"); err == nil && os.SameFile(a, s0) {
				linked++
			}
		}
		// A reader keeps the file: a link of its own.
		keep := filepath.Join(dir, fmt.Sprintf("kept-%d", len(archives)))
		if err := os.Link(path, keep); err != nil {
			t.Fatal(err)
		}
		archives = append(archives, kept{keep, want})
	}

	both := func(f func(r *Recorder)) { f(mem); f(spooled) }
	both(func(r *Recorder) { r.UserMessage(at, "fix the build") })
	check("the first message")
	chunk := 0
	for round := range 6 {
		for range 12 {
			lit := strconv.Quote(fmt.Sprintf("chunk %d %s\n", chunk, strings.Repeat("ab", 300)))
			both(func(r *Recorder) { r.AgentChunk(at, "Agent", []byte(lit)) })
			chunk++
		}
		check(fmt.Sprintf("round %d, an agent entry open", round))
		both(func(r *Recorder) {
			r.ToolCall(at, []byte(`{"sessionUpdate":"tool_call","toolCallId":"c`+strconv.Itoa(round)+`","kind":"execute","status":"completed","title":"go build"}`))
		})
		check(fmt.Sprintf("round %d, after a tool call", round))
		both(func(r *Recorder) { r.Release() })
		check(fmt.Sprintf("round %d, after a turn end", round))
	}
	if spooled.spool.dropped == 0 {
		t.Fatal("the spool never emptied a segment: the test does not cover rotations")
	}
	if linked < 2 {
		t.Fatalf("%d archives were the spool's segment: the test does not cover linking", linked)
	}
	for i, a := range archives {
		got, err := os.ReadFile(a.path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != a.text {
			t.Fatalf("archive %d changed after it was saved:\n%.3000s\n---- as saved:\n%.3000s", i, got, a.text)
		}
	}
	if err := spooled.removeSpool(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(st.spoolBase("s") + ".*"); len(left) > 0 {
		t.Errorf("spools left after removal: %v", left)
	}
}

// FuzzSavedArchive drives a spooled recorder with small segments through
// the operations the bytes of ops name, saving the archive now and then:
// each saved archive (linked from the spool or copied) is what WriteArchive
// copies at that moment, and stays as saved to the end.
func FuzzSavedArchive(f *testing.F) {
	f.Add([]byte{0, 0, 4, 1, 4, 3, 0, 4, 2, 4})
	f.Add([]byte(strings.Repeat("\x00\x05\x0a\x0f\x04\x09\x03", 12)))
	f.Add([]byte(strings.Repeat("\xf0\xf5\x04\x01\x04", 20)))
	f.Fuzz(runSavedArchive)
}

func runSavedArchive(t *testing.T, ops []byte) {
	if len(ops) > 256 {
		// Longer sequences only repeat what these do, more slowly.
		ops = ops[:256]
	}
	dir, st, r := spoolingRecorder(t, 2<<10)
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var kept []string
	for i, op := range ops {
		switch op % 5 {
		case 0, 1:
			role := [...]string{"Agent", "Thought"}[op%5]
			text := strings.Repeat(string(rune('a'+i%26)), int(op)*3)
			r.AgentChunk(at, role, []byte(strconv.Quote(text)))
		case 2:
			r.Note(at, "Tool", fmt.Sprintf("note %d", i))
		case 3:
			r.Release()
		case 4:
			at = at.Add(time.Second)
			want := r.Archive(at)
			path, err := r.saveArchive(st, "s", at)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Fatalf("op %d: the saved archive differs:\n%.2000s\n---- copied:\n%.2000s", i, got, want)
			}
			keep := filepath.Join(dir, fmt.Sprintf("kept-%d", len(kept)))
			if err := os.Link(path, keep); err != nil {
				t.Fatal(err)
			}
			kept = append(kept, want)
		}
	}
	for i, want := range kept {
		got, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("kept-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("archive %d changed after it was saved", i)
		}
	}
}

// TestSpoolCopiesLinkedSegment: a segment left on disk linked to an
// archive (a bridge killed after a checkpoint made the archive of it) is
// not written by the spool of a later bridge for the session: the spool
// goes on in a copy, holding what the segment held, and the archive stays
// as it was.
func TestSpoolCopiesLinkedSegment(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir, nil)
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	base := st.spoolBase("s")
	if err := os.MkdirAll(filepath.Dir(base), 0o700); err != nil {
		t.Fatal(err)
	}
	const earlier = "### Agent · 11:00:00\n\nbefore the kill\n\n"
	if err := os.WriteFile(base+".0", []byte(earlier), 0o600); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "conversations", "s_full.md")
	if err := os.Link(base+".0", archive); err != nil {
		t.Fatal(err)
	}
	r := NewRecorder("s", "/r")
	r.SpoolTo(base)
	r.AgentChunk(at, "Agent", []byte(`"after the restart"`))
	r.Release()
	if got, err := os.ReadFile(archive); err != nil || string(got) != earlier {
		t.Fatalf("the archive linked to the segment changed: %q, %v", got, err)
	}
	if a := r.Archive(at); !strings.Contains(a, earlier+"### Agent · 12:00:00\n\nafter the restart") {
		t.Errorf("the spool does not go on from what the segment held:\n%s", a)
	}
	if left, _ := filepath.Glob(base + ".*.copy"); len(left) > 0 {
		t.Errorf("copies left: %v", left)
	}
}

// TestSpoolGoesOnAfterRestart: the spool of a bridge that was killed is
// taken up by the next bridge's spool for the session from the
// conversation it holds, without the heading the segment starts with (as
// it was before segments started with one).
func TestSpoolGoesOnAfterRestart(t *testing.T) {
	base := filepath.Join(t.TempDir(), "s.spool")
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	killed := NewRecorder("s", "/r")
	killed.SpoolTo(base)
	killed.UserMessage(at, "fix the build")
	killed.AgentChunk(at, "Agent", []byte(`"before the kill"`))
	killed.Release()

	r := NewRecorder("s", "/r")
	r.SpoolTo(base)
	r.AgentChunk(at, "Agent", []byte(`"after the restart"`))
	want := NewRecorder("s", "/r")
	want.UserMessage(at, "fix the build")
	want.AgentChunk(at, "Agent", []byte(`"before the kill"`))
	want.Note(at, "Agent", "after the restart") // the old entry was closed by the kill
	got, w := r.Archive(at), want.Archive(at)
	// The killed spool's open entry was never closed: its text runs on.
	w = strings.Replace(w, "before the kill\n\n### Agent · 12:00:00\n\nafter the restart", "before the kill### Agent · 12:00:00\n\nafter the restart", 1)
	if got != w {
		t.Errorf("after a restart the archive is\n%s\n---- want\n%s", got, w)
	}
}
