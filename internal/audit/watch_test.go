package audit

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func syncEvent(i int) Event {
	return Event{Actor: Actor{ID: "agent:x"}, Action: "fs.read", Subject: Subject{Kind: "file", Path: "/w/f" + string(rune('0'+i))},
		Policy: &Policy{Ref: "allow-reads", Decision: DecisionAllow}}
}

// tamperRecord returns the input of the audit.tamper event in lines, or
// fails.
func tamperRecord(t *testing.T, lines [][]byte) map[string]any {
	t.Helper()
	for _, line := range lines {
		e, ok := parseEntry(line)
		if ok && e.Action == "audit.tamper" {
			var in map[string]any
			if err := json.Unmarshal(e.Input, &in); err != nil {
				t.Fatal(err)
			}
			return in
		}
	}
	t.Fatalf("no audit.tamper event in:\n%s", lines)
	return nil
}

// TestLiveTamperDetected tampers with the live file in each way an agent
// can and checks that the Log notices, starts a new file that continues
// the chain with an audit.tamper event saying what it found, keeps what
// was at the path, and goes on recording.
func TestLiveTamperDetected(t *testing.T) {
	forged := `{"$schema":"agentgovernance/v1","action":"fs.read","doctype":"audit-event","seq":0}` + "\n"
	tests := []struct {
		name   string
		tamper func(t *testing.T, path string)
		found  string
		aside  bool   // what was at the path is kept as <path>.tampered-*
		old    string // where the old lines still are ("" when gone)
	}{
		{"unlinked", func(t *testing.T, path string) { must(t, os.Remove(path)) }, "unlinked", false, ""},
		{"moved", func(t *testing.T, path string) { must(t, os.Rename(path, path+".stolen")) }, "moved", false, ".stolen"},
		{"replaced", func(t *testing.T, path string) {
			must(t, os.WriteFile(path+".new", []byte(forged), 0o600))
			must(t, os.Rename(path+".new", path))
		}, "replaced", true, ""},
		{"replaced by a symlink", func(t *testing.T, path string) {
			must(t, os.Rename(path, path+".kept"))
			must(t, os.Symlink(os.DevNull, path))
		}, "replaced", true, ".kept"},
		{"truncated", func(t *testing.T, path string) { must(t, os.Truncate(path, 10)) }, "truncated", true, ""},
		{"appended to", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			must(t, err)
			_, err = f.WriteString(forged)
			must(t, err)
			must(t, f.Close())
		}, "appended", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := Open(path, Options{Now: fixedClock(time.Millisecond)})
			must(t, err)
			defer l.Close()
			for i := range 3 {
				must(t, l.AppendSync(syncEvent(i)))
			}
			tt.tamper(t, path)
			// The next decision notices, moves to a new file and is
			// recorded there, after the audit.tamper event.
			must(t, l.AppendSync(syncEvent(3)))
			must(t, l.Healthy())
			must(t, l.AppendSync(syncEvent(4)))
			must(t, l.Close())

			lines := readLines(t, path)
			in := tamperRecord(t, lines)
			if in["found"] != tt.found {
				t.Errorf("found %v, want %s (%v)", in["found"], tt.found, in["detail"])
			}
			last, ok := parseEntry(lines[len(lines)-1])
			if !ok || last.Seq != 5 {
				t.Errorf("last line %s, want seq 5 (3 events, the tamper event, 2 events)", lines[len(lines)-1])
			}
			sum, err := Verify(path)
			if err != nil {
				t.Fatalf("the new file does not verify: %v", err)
			}
			if sum.Genesis {
				t.Error("the new file starts at GENESIS: it should continue the chain")
			}
			matches, _ := filepath.Glob(path + ".tampered-*")
			if tt.aside != (len(matches) == 1) {
				t.Errorf("moved aside: %q, want one: %v", matches, tt.aside)
			}
			if tt.aside && in["movedAsideTo"] != matches[0] {
				t.Errorf("movedAsideTo %v, want %s", in["movedAsideTo"], matches[0])
			}
			if tt.old != "" {
				// The old lines and the new file verify as one chain.
				if sum, err := Verify(path+tt.old, path); err != nil || !sum.Genesis || sum.Records != 6 {
					t.Errorf("old and new file as one chain: %+v, %v", sum, err)
				}
			}
		})
	}
}

// TestTamperLostLinesWrittenAgain deletes the file right after lines were
// written to it but before they were checked: those lines exist only in
// the deleted inode, so the Log writes them again to the new file.
func TestTamperLostLinesWrittenAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, Options{Now: fixedClock(time.Millisecond), FlushInterval: time.Hour})
	must(t, err)
	defer l.Close()
	must(t, l.AppendSync(syncEvent(0)))
	must(t, l.Append(syncEvent(1)))
	must(t, l.Append(syncEvent(2)))
	l.mu.Lock()
	must(t, l.writeOutLocked()) // written, not yet checked
	l.mu.Unlock()
	must(t, os.Remove(path))
	must(t, l.AppendSync(syncEvent(3)))
	must(t, l.Close())
	lines := readLines(t, path)
	first, _ := parseEntry(lines[0])
	if first.Seq != 1 || len(lines) != 4 {
		t.Fatalf("new file starts at seq %d with %d lines, want the lost seq 1 and 2, the tamper event and seq 4", first.Seq, len(lines))
	}
	in := tamperRecord(t, lines)
	if in["found"] != "unlinked" || in["rewritten"] == nil {
		t.Errorf("tamper event %v", in)
	}
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
}

// TestTamperFailsClosedUntilRestarted moves the whole directory away, so
// no new file can be made: the log stays failed (Healthy and AppendSync
// report ErrTampered) until the directory is back.
func TestTamperFailsClosedUntilRestarted(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "logs")
	must(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, "audit.jsonl")
	l, err := Open(path, Options{})
	must(t, err)
	defer l.Close()
	must(t, l.AppendSync(syncEvent(0)))
	must(t, os.Rename(dir, filepath.Join(root, "elsewhere")))
	if err := l.Healthy(); !errors.Is(err, ErrTampered) {
		t.Fatalf("Healthy = %v, want ErrTampered", err)
	}
	if err := l.AppendSync(syncEvent(1)); !errors.Is(err, ErrTampered) {
		t.Fatalf("AppendSync = %v, want ErrTampered", err)
	}
	if err := l.Healthy(); err == nil || !strings.Contains(err.Error(), "renamed or moved away") {
		t.Fatalf("Healthy = %v, want it to say the file was moved", err)
	}
	must(t, os.Mkdir(dir, 0o700))
	must(t, l.Healthy())
	must(t, l.AppendSync(syncEvent(2)))
	must(t, l.Close())
	lines := readLines(t, path)
	// seq 1 was kept in memory and is written to the new file.
	if first, _ := parseEntry(lines[0]); first.Seq != 1 || len(lines) != 3 {
		t.Fatalf("new file: %d lines from seq %d, want seq 1, the tamper event, seq 3", len(lines), first.Seq)
	}
	if in := tamperRecord(t, lines); in["found"] != "moved" {
		t.Errorf("tamper event %v", in)
	}
	if sum, err := Verify(filepath.Join(root, "elsewhere", "audit.jsonl"), path); err != nil || sum.Records != 4 {
		t.Fatalf("old and new file as one chain: %+v, %v", sum, err)
	}
}

// TestTamperNoticedWhileIdle checks that the flusher finds a deleted file
// without any append.
func TestTamperNoticedWhileIdle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, Options{FlushInterval: 20 * time.Millisecond})
	must(t, err)
	defer l.Close()
	must(t, l.AppendSync(syncEvent(0)))
	must(t, os.Remove(path))
	deadline := time.Now().Add(10 * time.Second)
	for {
		if data, err := os.ReadFile(path); err == nil && strings.Contains(string(data), `"audit.tamper"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no audit.tamper event in a new file 10 s after the file was deleted")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
