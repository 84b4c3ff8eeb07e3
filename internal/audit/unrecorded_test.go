package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnrecordedTakesThePlace: an event the log cannot encode (here a
// value encoding/json cannot encode in its metadata) leaves an
// audit.unrecorded record in its place, with the decision, the tool call's id and the reason, in the file and in the
// bridge's log; Append and AppendSync still report ErrInvalidEvent.
func TestUnrecordedTakesThePlace(t *testing.T) {
	for _, sync := range []bool{false, true} {
		name := "Append"
		if sync {
			name = "AppendSync"
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			var logged bytes.Buffer
			l, err := Open(path, Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})
			if err != nil {
				t.Fatal(err)
			}
			out := ToolOutput(`[{"type":"content","content":{"type":"text","text":"ok"}}]`)
			ev := Event{Actor: Actor{ID: "agent:a", Role: "operator"}, Action: "tool.call",
				Subject: Subject{Kind: "tool-call", Ref: "call_9", Path: "/w/a.go"}, Output: out,
				Policy: &Policy{Ref: "deny-exec", Decision: DecisionDeny},
				Metadata: map[string]any{"session": "s1", "rule": "deny Bash", "toolCall": ToolCall{Kind: "tool-call", ToolCallID: "call_9", Result: out},
					"hook": make(chan int)}}
			appendFn := l.Append
			if sync {
				appendFn = l.AppendSync
			}
			if err := appendFn(ev); !errors.Is(err, ErrInvalidEvent) {
				t.Fatalf("%s = %v, want ErrInvalidEvent", name, err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if sum, err := Verify(path); err != nil || sum.Records != 1 {
				t.Fatalf("Verify = %+v, %v; want one record", sum, err)
			}
			var rec Record
			if err := json.Unmarshal(readLines(t, path)[0], &rec); err != nil {
				t.Fatal(err)
			}
			var in, md map[string]any
			json.Unmarshal(rec.Input, &in)
			json.Unmarshal(rec.Metadata, &md)
			switch {
			case rec.Action != ActionUnrecorded:
				t.Errorf("action = %q, want %q", rec.Action, ActionUnrecorded)
			case rec.Subject != Subject{Kind: "tool-call", Ref: "call_9", Path: "/w/a.go"}:
				t.Errorf("subject = %+v", rec.Subject)
			case rec.Actor != Actor{ID: "agent:a", Role: "operator"}:
				t.Errorf("actor = %+v", rec.Actor)
			case rec.Policy == nil || *rec.Policy != Policy{Ref: "deny-exec", Decision: DecisionDeny}:
				t.Errorf("policy = %+v", rec.Policy)
			case in["action"] != "tool.call" || !strings.Contains(in["error"].(string), "chan int"):
				t.Errorf("input = %v, want the action and the error", in)
			case md["toolCallId"] != "call_9" || md["session"] != "s1" || md["rule"] != "deny Bash":
				t.Errorf("metadata = %v, want toolCallId, session and rule", md)
			}
			if !strings.Contains(logged.String(), "level=ERROR") || !strings.Contains(logged.String(), "call_9") {
				t.Errorf("bridge log = %q, want an error naming the tool call", logged.String())
			}
		})
	}
}

// TestUnrecordedOfInvalidParts: an event invalid in its own parts (no
// actor, a subject kind too long, an unknown decision) still leaves a
// valid audit.unrecorded record, in the log's own name where the actor
// is unusable.
func TestUnrecordedOfInvalidParts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ev := Event{Action: "tool.call", Subject: Subject{Kind: strings.Repeat("k", 40), Ref: "c1"},
		Policy: &Policy{Ref: "r1", Decision: "maybe"}}
	if err := l.AppendSync(ev); !errors.Is(err, ErrInvalidEvent) {
		t.Fatalf("AppendSync = %v, want ErrInvalidEvent", err)
	}
	l.Close()
	var rec Record
	if err := json.Unmarshal(readLines(t, path)[0], &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Action != ActionUnrecorded || rec.Actor.ID != "acp-bridge" || rec.Subject.Kind != "event" || rec.Subject.Ref != "c1" || rec.Policy != nil {
		t.Errorf("record = %+v", rec)
	}
	if !bytes.Contains(rec.Input, []byte(`"decision":"maybe"`)) {
		t.Errorf("input = %s, want the policy's text", rec.Input)
	}
}

// TestUnrecordedKeptOut: when the audit.unrecorded record cannot be
// written either (here the log is closed), the error does not say
// ErrInvalidEvent, which callers take as "recorded in its place", but
// why nothing was written.
func TestUnrecordedKeptOut(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "audit.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	ev := Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"},
		Input: map[string]any{"hook": make(chan int)}, Policy: &Policy{Ref: "allow-reads", Decision: DecisionAllow}}
	for _, appendFn := range []func(Event) error{l.Append, l.AppendSync} {
		if err := appendFn(ev); errors.Is(err, ErrInvalidEvent) || !errors.Is(err, ErrClosed) {
			t.Errorf("append to a closed log = %v, want ErrClosed and not ErrInvalidEvent", err)
		}
	}
}
