package audit

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputReadOnce: a tool's output given again in a later record, in
// other bytes of the same content, is not read again; bytes that changed
// where the first output was are read as they are now.
func TestOutputReadOnce(t *testing.T) {
	for _, mode := range []ContentMode{ContentDigest, ContentFull} {
		l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), Options{Content: mode})
		if err != nil {
			t.Fatal(err)
		}
		raw := ToolOutput(`[{"type":"content","content":{"type":"text","text":"` + words(1500) + `"}}]`)
		first, err := l.outputTree(raw)
		if err != nil {
			t.Fatal(err)
		}
		again, err := l.outputTree(append(ToolOutput(nil), raw...))
		if err != nil {
			t.Fatal(err)
		}
		if again != first {
			t.Errorf("%v: the same output was read twice", mode)
		}
		before := string(first.canon)
		copy(raw[len(raw)-len(`XY"}}]`):], `XY"}}]`)
		changed, err := l.outputTree(raw)
		if err != nil {
			t.Fatal(err)
		}
		if changed == first || string(changed.canon) == before {
			t.Errorf("%v: changed bytes gave the tree of the bytes before", mode)
		}
		if mode == ContentFull && !strings.Contains(string(changed.canon), `XY"`) {
			t.Errorf("%v: the change is not in %.80s", mode, changed.canon)
		}
		l.Close()
	}
}

// FuzzOutputReadOnce: a record whose tool output is the one the record
// before it had is the record a Log that never saw that output makes.
func FuzzOutputReadOnce(f *testing.F) {
	for _, s := range []string{`[{"type":"content","content":{"type":"text","text":"ok"}}]`, `{"stdout":"x","token":"abc"}`,
		`"password=hunter22 and more"`, `{"$redacted":true}`, `[1,2.50,null]`, `null`, `"` + words(2000) + `"`,
		`{"type":"diff","path":"a","oldText":"` + words(2000) + `","newText":"x"}`} {
		f.Add(s, false, 100)
		f.Add(s, true, 4000)
	}
	f.Fuzz(func(t *testing.T, raw string, full bool, maxField int) {
		if !json.Valid([]byte(raw)) {
			return
		}
		opts := fuzzOptions(32+maxField&0xffff, full)
		open := func() *Log {
			l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), opts)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		// The records of a call that completed without the approval it
		// needed: its completion, then a violation with the mirror only.
		completion := func() Event {
			out := ToolOutput(raw)
			return Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"}, Output: out,
				Metadata: map[string]any{"toolCall": ToolCall{Kind: "tool-call", ToolCallID: "c1", Result: out}}}
		}
		violation := func() Event {
			out := ToolOutput(raw)
			return Event{Actor: Actor{ID: "agent:a"}, Action: "policy.violation", Subject: Subject{Kind: "tool-call", Ref: "c1"},
				Metadata: map[string]any{"toolCall": ToolCall{Kind: "tool-call", ToolCallID: "c1", Error: out}}}
		}
		warm, cold := open(), open()
		defer warm.Close()
		defer cold.Close()
		pa, erra := warm.prepare(ptr(completion()))
		pb, errb := cold.prepare(ptr(completion()))
		if (erra == nil) != (errb == nil) {
			t.Fatalf("completion: %v, then %v", erra, errb)
		}
		if erra == nil && string(line(pa)) != string(line(pb)) {
			t.Fatalf("completion:\n%s\nthen:\n%s", line(pa), line(pb))
		}
		cold2 := open()
		defer cold2.Close()
		pa, erra = warm.prepare(ptr(violation()))
		pb, errb = cold2.prepare(ptr(violation()))
		if (erra == nil) != (errb == nil) {
			t.Fatalf("violation after the completion: %v; alone: %v", erra, errb)
		}
		if erra == nil && string(line(pa)) != string(line(pb)) {
			t.Fatalf("violation after the completion:\n%s\nalone:\n%s", line(pa), line(pb))
		}
	})
}

func ptr(ev Event) *Event { return &ev }

// line is p as a line with fixed chain members.
func line(p *prepared) []byte {
	return p.appendLine(nil, 1, "2026-01-01T00:00:00.000Z", "0", "", "h")
}
