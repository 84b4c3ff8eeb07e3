package audit

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

func newSoakRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// soakText is n bytes of the soak's prose mix (words, spaces, escaped
// newlines) or, with runs, base64-like text without spaces.
func soakText(r *rand.Rand, n int, runs bool) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	words := strings.Fields("the bridge forwards each message as it came and the agent reads files runs tests edits code while the user waits for an answer about why the build failed on line error function return value string buffer token")
	var b strings.Builder
	for b.Len() < n {
		if runs {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
			continue
		}
		b.WriteString(words[r.IntN(len(words))])
		if r.IntN(12) == 0 {
			b.WriteString(`.\n`)
		} else {
			b.WriteByte(' ')
		}
	}
	s := b.String()[:n]
	if strings.HasSuffix(s, `\`) {
		s = s[:n-1] + " "
	}
	return s
}

// soakToolEvent is the record governance writes when a tool call of the
// soak's mix completes: its content as output and in the mirror.
func soakToolEvent(text string) Event {
	content := ToolOutput(`[{"type":"content","content":{"type":"text","text":"` + text + `"}}]`)
	return Event{
		Actor:   Actor{ID: "agent:fake", Role: "operator"},
		Action:  "tool.call",
		Subject: Subject{Kind: "tool-call", Ref: "call_1_7", Path: "/tmp/w/src/file7.go"},
		Output:  content,
		Policy:  &Policy{Ref: "allow-reads", Decision: DecisionAllow},
		Metadata: map[string]any{"session": "sess-1", "status": "completed", "rule": "allow-reads", "toolCall": ToolCall{Kind: "tool-call",
			Operator: "fake", Session: "sess-1", ToolCallID: "call_1_7", Tool: "read", Result: content, Approval: "auto"}},
	}
}

// BenchmarkPrepareToolContent is the audit log's share of a soak tool
// call: preparing (redaction, canonical JSON, hashing) one completion
// record carrying 100 B to 20 KiB of content, stored as each ContentMode
// says.
func BenchmarkPrepareToolContent(b *testing.B) {
	for _, mode := range []ContentMode{ContentDigest, ContentFull} {
		for _, mix := range []string{"prose", "runs"} {
			b.Run(mode.String()+"/"+mix, func(b *testing.B) {
				r := newSoakRand()
				evs := make([]Event, 61)
				for i := range evs {
					evs[i] = soakToolEvent(soakText(r, 100+r.IntN(20480-100+1), mix == "runs"))
				}
				l := openBenchWith(b, Options{Content: mode})
				defer l.Close()
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					ev := evs[i%len(evs)]
					if _, err := l.prepare(&ev); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// preparedLine is the record prepare makes of ev, as a line.
func preparedLine(t testing.TB, l *Log, ev Event) []byte {
	p, err := l.prepare(&ev)
	if err != nil {
		t.Fatal(err)
	}
	return p.appendLine(nil, 1, "2026-01-01T00:00:00.000Z", "0", "", "h")
}

// FuzzSharedResult: a tool call's result given as output and as the
// mirror's result or error from the same bytes makes the same record as
// from two copies of them (which are decoded, redacted and encoded each
// on their own).
func FuzzSharedResult(f *testing.F) {
	for _, s := range []string{`[{"type":"content","content":{"type":"text","text":"ok"}}]`, `{"stdout":"x","token":"abc"}`,
		`"password=hunter22 and more"`, `"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"`, `{"$redacted":true}`, `[1,2.50,null]`,
		`{"name":"GITHUB_TOKEN","value":"v"}`, `"` + strings.Repeat("a", 9000) + `"`} {
		f.Add(s, false, 100)
		f.Add(s, true, 40)
	}
	f.Fuzz(func(t *testing.T, raw string, asError bool, maxField int) {
		if !json.Valid([]byte(raw)) {
			return
		}
		l, err := Open(t.TempDir()+"/a.jsonl", Options{MaxFieldBytes: 32 + maxField&0xfff})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		mk := func(shared bool) Event {
			out := json.RawMessage(raw)
			res := out
			if !shared {
				res = json.RawMessage(raw) // other bytes
				res = append(json.RawMessage(nil), res...)
			}
			tc := ToolCall{Kind: "tool-call", ToolCallID: "c1", Tool: "read"}
			if asError {
				tc.Error = res
			} else {
				tc.Result = res
			}
			return Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"},
				Output: out, Metadata: map[string]any{"toolCall": tc, "session": "s"}}
		}
		if ev := mk(true); true {
			if _, m, _ := l.shareResult(&ev); m == nil {
				t.Fatal("the same bytes as output and result were not shared")
			}
		}
		a, b := preparedLine(t, l, mk(true)), preparedLine(t, l, mk(false))
		if string(a) != string(b) {
			t.Fatalf("shared result:\n%s\ncopies:\n%s", a, b)
		}
	})
}
