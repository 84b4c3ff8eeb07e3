package otelexport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// governedSession appends what a governed session records: a session, a
// prompt, an allowed and a denied tool call, the end.
func governedSession(t testing.TB, l *audit.Log, sid string) {
	t.Helper()
	bridge := audit.Actor{ID: "acp-bridge", Role: "system"}
	agent := audit.Actor{ID: "agent:claude-code", Role: "agent"}
	evs := []audit.Event{
		{Actor: bridge, Action: "session.new", Subject: audit.Subject{Kind: "session", Ref: sid, Path: "/work"}},
		{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: sid},
			Input: map[string]any{"text": "list the files"}},
		{Actor: agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "toolu_01"},
			Policy:   &audit.Policy{Ref: "Bash(ls:*)", Decision: audit.DecisionAllow},
			Metadata: map[string]any{"session": sid, "toolCall": audit.ToolCall{Kind: "tool-call", Session: sid, ToolCallID: "toolu_01", Tool: "Bash", Approval: "auto", Arguments: map[string]any{"command": "ls"}}}},
		{Actor: agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: "toolu_02"},
			Policy:   &audit.Policy{Ref: "Bash(rm:*)", Decision: audit.DecisionDeny},
			Metadata: map[string]any{"session": sid, "toolCall": audit.ToolCall{Kind: "tool-call", Session: sid, ToolCallID: "toolu_02", Tool: "Bash", Arguments: map[string]any{"command": "rm -rf /"}}}},
		{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.end", Subject: audit.Subject{Kind: "session", Ref: sid}},
	}
	for _, ev := range evs {
		if err := l.AppendSync(ev); err != nil {
			t.Fatal(err)
		}
	}
}

// governedLog writes a new log at path holding a governed session for
// each of sids, and closes it.
func governedLog(t testing.TB, path string, sids ...string) {
	t.Helper()
	l := openLog(t, path, audit.Options{})
	for _, sid := range sids {
		governedSession(t, l, sid)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func openLog(t testing.TB, path string, opts audit.Options) *audit.Log {
	t.Helper()
	l, err := audit.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func newExporter(t testing.TB, path, endpoint string) *Exporter {
	t.Helper()
	x, err := New(context.Background(), Config{LogPath: path, Endpoint: endpoint, BridgeVersion: "test", Agent: "claude-code", User: "dev",
		Poll: 20 * time.Millisecond, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestGovernedSessionArrives: every record of a governed session reaches a
// real collector with its GenAI, decision and chain attributes, its line
// as the body, and a checkpoint of the chain's head after the session end.
func TestGovernedSessionArrives(t *testing.T) {
	col := otelcoltest.Start(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	governedLog(t, path, "sess-1")
	entries, err := audit.ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	x := newExporter(t, path, col.Endpoint())
	x.Start()
	last := entries[len(entries)-1]
	rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if r.EventName == CheckpointEvent && r.Int(AttrSeq) == last.Seq {
				return true
			}
		}
		return false
	})
	pending, err := x.Close(5 * time.Second)
	if err != nil || pending != 0 {
		t.Fatalf("Close: %d pending, %v", pending, err)
	}
	bySeq := map[int64]otelcoltest.Received{}
	for _, r := range rs {
		if r.EventName != CheckpointEvent {
			if _, dup := bySeq[r.Int(AttrSeq)]; dup {
				t.Errorf("seq %d arrived twice", r.Int(AttrSeq))
			}
			bySeq[r.Int(AttrSeq)] = r
		}
	}
	if len(bySeq) != len(entries) {
		t.Fatalf("%d records arrived, the log has %d", len(bySeq), len(entries))
	}
	for _, e := range entries {
		r := bySeq[e.Seq]
		want := map[string]string{AttrAction: e.Action, AttrHash: e.Hash, AttrPrevHash: e.PrevHash, AttrRunID: e.RunID,
			AttrFile: "audit.jsonl", AttrActor: e.Actor.ID}
		if e.Session != "" {
			want["gen_ai.conversation.id"] = e.Session
		}
		if e.ToolCall != nil {
			want["gen_ai.operation.name"] = "execute_tool"
			want["gen_ai.tool.name"] = "Bash"
			want["gen_ai.tool.call.id"] = e.ToolCall.ToolCallID
			want[AttrDecision] = e.Policy.Decision
			want[AttrRule] = e.PolicyRule
		}
		if e.ToolCall != nil && e.ToolCall.Approval != "" {
			want[AttrApprover] = e.ToolCall.Approval
		}
		for k, v := range want {
			if r.Attrs[k] != v {
				t.Errorf("seq %d (%s): %s = %q, want %q", e.Seq, e.Action, k, r.Attrs[k], v)
			}
		}
		if r.EventName != e.Action {
			t.Errorf("seq %d: event name %q, want %q", e.Seq, r.EventName, e.Action)
		}
		if r.Body != string(e.Raw) {
			t.Errorf("seq %d: body\n%s\nwant the line\n%s", e.Seq, r.Body, e.Raw)
		}
		for _, k := range []string{"host.name", "service.name", "service.version", "gen_ai.agent.name", "user.name"} {
			if r.Resource[k] == "" {
				t.Errorf("seq %d: resource attribute %s missing (%v)", e.Seq, k, r.Resource)
			}
		}
	}
	fi, err := os.Stat(CursorPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("cursor file mode %v, want 0600", fi.Mode().Perm())
	}
	if c, _ := LoadCursor(CursorPath(path)); c.Seq != last.Seq || c.Hash != last.Hash {
		t.Errorf("cursor %+v, want seq %d hash %s", c, last.Seq, last.Hash)
	}
}

// TestOutage: the collector stopped in the middle of a session and
// started again loses nothing and duplicates nothing; records arrive in
// order, and a rotation during the outage is read back from the rotated
// file.
func TestOutage(t *testing.T) {
	col := otelcoltest.Start(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openLog(t, path, audit.Options{MaxBytes: 4 << 10})
	x := newExporter(t, path, col.Endpoint())
	x.Start()
	governedSession(t, l, "before")
	col.WaitRecords(func(rs []otelcoltest.Received) bool { return len(rs) > 0 && rs[len(rs)-1].EventName == CheckpointEvent })
	col.Stop()
	failed := x.Failures()
	for i := range 10 {
		governedSession(t, l, fmt.Sprintf("during-%d", i))
	}
	for x.Failures() < failed+2 {
		time.Sleep(10 * time.Millisecond) // until the exporter tried and failed twice
	}
	during := x.Failures() - failed
	col.Restart()
	restarted := time.Now()
	governedSession(t, l, "after")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := audit.ReadEntries(append(rotatedNames(t, path), path)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(rotatedNames(t, path)) == 0 {
		t.Fatal("the log did not rotate during the test")
	}
	last := entries[len(entries)-1].Seq
	rs := col.WaitRecords(func(rs []otelcoltest.Received) bool {
		for _, r := range rs {
			if r.EventName != CheckpointEvent && r.Int(AttrSeq) == last {
				return true
			}
		}
		return false
	})
	t.Logf("outage: %d events in %d files, %d failed requests while the collector was down; all arrived %v after it restarted",
		len(entries), len(rotatedNames(t, path))+1, during, time.Since(restarted).Round(time.Millisecond))
	pending, err := x.Close(5 * time.Second)
	if err != nil || pending != 0 {
		t.Fatalf("Close: %d pending, %v", pending, err)
	}
	var got []int64
	for _, r := range rs {
		if r.EventName != CheckpointEvent {
			got = append(got, r.Int(AttrSeq))
		}
	}
	if len(got) != len(entries) {
		t.Errorf("%d records arrived, the log has %d", len(got), len(entries))
	}
	for i, s := range got {
		if s != entries[0].Seq+int64(i) {
			t.Fatalf("record %d arrived with seq %d, want %d (arrived: %v)", i, s, entries[0].Seq+int64(i), got)
		}
	}
}

func rotatedNames(t testing.TB, path string) []string {
	ns, err := rotated(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range ns {
		out = append(out, fmt.Sprintf("%s.%06d", path, n))
	}
	return out
}
