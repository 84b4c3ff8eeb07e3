package audit

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// lineOrError is the line prepare makes of ev, or its error.
func lineOrError(l *Log, ev Event) string {
	p, err := l.prepare(&ev)
	if err != nil {
		return "error: " + err.Error()
	}
	defer p.release()
	return string(p.appendLine(nil, 1, "2026-01-01T00:00:00.000Z", "0", "", "h"))
}

// readOutputShapes are the places a tool's output takes in the records
// governance writes: output and the mirror's result (a completion), the
// mirror's error (a failed call), output alone (a replayed call) and the
// mirror alone (a violation after the completion).
var readOutputShapes = []string{"output+result", "output+error", "output", "result", "error"}

// readOutputEvent is a record carrying out in the places shape names.
func readOutputEvent(shape string, out any) Event {
	ev := Event{Actor: Actor{ID: "agent:a", Role: "operator"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"},
		Input: map[string]any{"path": "/w/a.go"}, Policy: &Policy{Ref: "allow-reads", Decision: DecisionAllow}}
	tc := ToolCall{Kind: "tool-call", Operator: "agent:a", Session: "s1", ToolCallID: "c1", Tool: "read"}
	if strings.HasPrefix(shape, "output") {
		ev.Output = out
	}
	switch {
	case strings.HasSuffix(shape, "result"):
		tc.Result = out
	case strings.HasSuffix(shape, "error"):
		tc.Error = out
	}
	if shape != "output" {
		ev.Metadata = map[string]any{"session": "s1", "status": "completed", "toolCall": tc}
	}
	return ev
}

// FuzzReadToolOutput: a tool's output read ahead (ReadToolOutput) makes
// the record its bytes make as a ToolOutput, in every place a record
// takes it, for both content modes and any field cap, and whether or not
// the bytes are valid JSON (the record is then refused alike). The bytes
// are written over once read: the record must not depend on them.
func FuzzReadToolOutput(f *testing.F) {
	for _, s := range []string{`[{"type":"content","content":{"type":"text","text":"ok"}}]`, `{"stdout":"x","token":"abc"}`,
		`"password=hunter22 and more"`, `"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"`, `{"$redacted":true}`, `[1,2.50,null]`,
		`{"name":"GITHUB_TOKEN","value":"v"}`, `null`, `{}`, `3`, `[{"type":"content"`, `"\ud800"`,
		`[{"type":"content","content":{"type":"text","text":"` + words(3000) + `"}}]`,
		`[{"type":"content","content":{"type":"text","text":"` + strings.Repeat("QUJD", 3000) + `"}}]`,
		`{"type":"diff","path":"a","oldText":"` + words(2000) + `","newText":"x"}`,
		`{"stdout":"export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ` + words(400) + `"}`} {
		f.Add(s, false, 0, 100)
		f.Add(s, true, 3, 40)
		f.Add(s, false, 4, 4000)
	}
	f.Fuzz(func(t *testing.T, raw string, full bool, shape, maxField int) {
		opts := fuzzOptions(32+maxField&0xffff, full)
		// Logs without a file: prepare is what is compared.
		slow, fast := fieldLog(opts), fieldLog(opts)
		sh := readOutputShapes[uint(shape)%uint(len(readOutputShapes))]
		want := lineOrError(slow, readOutputEvent(sh, ToolOutput(raw)))

		buf := []byte(raw)
		read := fast.ReadToolOutput(buf)
		for i := range buf {
			buf[i] = 'x'
		}
		if read == nil {
			if raw != "" {
				t.Fatalf("ReadToolOutput(%q) = nil", raw)
			}
			read = ToolOutput(nil)
		}
		if got := lineOrError(fast, readOutputEvent(sh, read)); got != want {
			t.Fatalf("%s of %q, read ahead (%T):\n%s\nas a ToolOutput:\n%s", sh, raw, read, got, want)
		}
		// A second record with the same read output, as a violation
		// after a completion has, is the same again.
		if got := lineOrError(fast, readOutputEvent(sh, read)); got != want {
			t.Fatalf("%s of %q, read ahead, again:\n%s\nas a ToolOutput:\n%s", sh, raw, got, want)
		}
	})
}

// TestReadOutputElsewhere: a tool's output read ahead is taken only where
// it was read for, by the Log that read it; anywhere else the event is
// refused rather than written in a form nobody chose.
func TestReadOutputElsewhere(t *testing.T) {
	open := func() *Log {
		l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}
	l, other := open(), open()
	read := l.ReadToolOutput([]byte(`[{"type":"content","content":{"type":"text","text":"ok"}}]`))
	if _, ok := read.(*ReadOutput); !ok {
		t.Fatalf("ReadToolOutput = %T, want *ReadOutput", read)
	}
	for name, ev := range map[string]Event{
		"other log's output": readOutputEvent("output", other.ReadToolOutput([]byte(`{"a":1}`))),
		"other log's result": readOutputEvent("result", other.ReadToolOutput([]byte(`{"a":1}`))),
		"input":              {Actor: Actor{ID: "a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call"}, Input: read},
		"metadata":           {Actor: Actor{ID: "a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call"}, Metadata: map[string]any{"out": read}},
		"nil":                readOutputEvent("output", (*ReadOutput)(nil)),
	} {
		if _, err := l.prepare(&ev); !errors.Is(err, ErrInvalidEvent) {
			t.Errorf("%s: prepare = %v, want ErrInvalidEvent", name, err)
		}
	}
	if got := l.ReadToolOutput(nil); got != nil {
		t.Errorf("ReadToolOutput(nil) = %v, want nil", got)
	}
	if got, ok := l.ReadToolOutput([]byte(`{"a":`)).(ToolOutput); !ok || string(got) != `{"a":` {
		t.Errorf("ReadToolOutput of invalid JSON = %#v, want a ToolOutput copy", got)
	}
}
