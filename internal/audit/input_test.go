package audit

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// pipeOf returns the read end of a real pipe that a goroutine fills with
// data and closes.
func pipeOf(t *testing.T, data []byte) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return r
}

// TestNotAuditLog feeds Verify and Review things that are not audit logs,
// from files and from pipes (read once: the first line must not be lost).
func TestNotAuditLog(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "audit.jsonl")
	writeLog(t, good, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	logData, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		data    string
		notLog  bool
		records int
	}{
		{"text", "hello\n", true, 0},
		{"text without newline", "hello", true, 0},
		{"json that is not an event", `{"jsonrpc":"2.0","method":"initialize"}` + "\n", true, 0},
		{"a wire transcript line then events", `{"dir":"in"}` + "\n" + string(logData), true, 0},
		{"empty", "", false, 0},
		{"an audit log", string(logData), false, len(sampleEvents())},
	}
	for _, tt := range tests {
		for _, via := range []string{"file", "pipe"} {
			t.Run(tt.name+" via "+via, func(t *testing.T) {
				input := func() Input {
					if via == "pipe" {
						return Input{Name: "stdin", R: pipeOf(t, []byte(tt.data))}
					}
					name := filepath.Join(t.TempDir(), "in")
					if err := os.WriteFile(name, []byte(tt.data), 0o600); err != nil {
						t.Fatal(err)
					}
					return Input{Name: name}
				}
				sum, err := VerifyInputs(input())
				if tt.notLog {
					if !errors.Is(err, ErrNotAuditLog) || !strings.Contains(err.Error(), ":1: not an audit log: the first line is not an audit event") {
						t.Fatalf("Verify = %v, want ErrNotAuditLog at line 1", err)
					}
				} else if err != nil || sum.Records != tt.records {
					t.Fatalf("Verify = %+v, %v, want %d records", sum, err, tt.records)
				}
				rv, err := Review(input())
				if tt.notLog {
					if !errors.Is(err, ErrNotAuditLog) {
						t.Fatalf("Review = %v, want ErrNotAuditLog", err)
					}
					return
				}
				if err != nil || rv.Problem != nil || len(rv.Entries) != tt.records {
					t.Fatalf("Review: %d entries, problem %v, err %v; want %d entries", len(rv.Entries), rv.Problem, err, tt.records)
				}
			})
		}
	}
}

// TestReviewReportsProblem checks that Review verifies while it reads.
func TestReviewReportsProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{Now: fixedClock(time.Millisecond)}, sampleEvents())
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), "npm run test", "npm run evil", 1)
	rv, err := Review(Input{Name: "stdin", R: io.NopCloser(strings.NewReader(edited))})
	if err != nil {
		t.Fatal(err)
	}
	var p *Problem
	if !errors.As(rv.Problem, &p) || p.Line != 4 {
		t.Fatalf("Problem = %v, want one at line 4", rv.Problem)
	}
	if len(rv.Entries) != len(sampleEvents()) {
		t.Errorf("%d entries, want all %d", len(rv.Entries), len(sampleEvents()))
	}
}

// TestRepairRefusesNonLog checks that repair, which cuts a torn last line,
// leaves alone a file that is not an audit log, and still repairs a log
// whose only line was torn by a crash.
func TestRepairRefusesNonLog(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("first line\nlast line without newline"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Repair(notes); !errors.Is(err, ErrNotAuditLog) {
		t.Fatalf("Repair = %v, want ErrNotAuditLog", err)
	}
	if data, _ := os.ReadFile(notes); string(data) != "first line\nlast line without newline" {
		t.Fatalf("the file was changed: %q", data)
	}
	torn := filepath.Join(dir, "audit.jsonl")
	if err := os.WriteFile(torn, []byte(`{"$schema":"agentgov`), 0o600); err != nil {
		t.Fatal(err)
	}
	if res, err := Repair(torn); err != nil || !res.Torn {
		t.Fatalf("Repair of a torn first line = %+v, %v", res, err)
	}
}

// TestEndlessLine checks that an input that never ends its first line
// (/dev/zero) is refused, not read into memory forever.
func TestEndlessLine(t *testing.T) {
	endless := io.LimitReader(zeroReader{}, 1<<40)
	if _, err := VerifyInputs(Input{Name: "zero", R: endless}); !errors.Is(err, ErrNotAuditLog) {
		t.Fatalf("Verify = %v, want ErrNotAuditLog", err)
	}
	if _, err := Review(Input{Name: "zero", R: io.LimitReader(zeroReader{}, 1<<40)}); !errors.Is(err, ErrNotAuditLog) {
		t.Fatalf("Review = %v, want ErrNotAuditLog", err)
	}
	// After a valid first event, an endless line is a problem at its line.
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	writeLog(t, path, Options{}, sampleEvents()[:1])
	data, _ := os.ReadFile(path)
	r := io.MultiReader(strings.NewReader(string(data)), io.LimitReader(zeroReader{}, 1<<40))
	var p *Problem
	if _, err := VerifyInputs(Input{Name: "in", R: r}); !errors.As(err, &p) || p.Line != 2 {
		t.Fatalf("Verify = %v, want a problem at line 2", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestFollowerCatchesUp checks what Follow does when the file holding
// the next events was rotated away before it could read it: seeing a
// later event, it passes on the missing ones from the rotated files
// first, each once, in order.
func TestFollowerCatchesUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var evs []Event
	for i := range 9 {
		evs = append(evs, syncEvent(i))
	}
	writeLog(t, path, Options{MaxBytes: 1}, evs) // one event per file
	rot, err := rotatedFiles(path)
	if err != nil || len(rot) < 7 {
		t.Fatalf("rotated files %v, %v", rot, err)
	}
	entries, err := ReadEntries(path)
	if err != nil || len(entries) != 1 {
		t.Fatalf("active file: %v, %v", entries, err)
	}
	var got []int64
	fw := &follower{path: path, fn: func(e Entry) { got = append(got, e.Seq) }, next: 3} // 0-2 were passed on
	fw.emit(entries[0])                                                                  // the active file's event, seq 8
	fw.emit(entries[0])                                                                  // again: not passed twice
	if want := []int64{3, 4, 5, 6, 7, 8}; !slices.Equal(got, want) {
		t.Fatalf("passed on %v, want %v", got, want)
	}
}
