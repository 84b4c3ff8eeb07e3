package acpmap

import (
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// TestRefuseUnread checks what a frame refused before its values are
// parsed (over Options.MaxJSONBytes by its text alone) leaves behind: it
// takes its place in the sequence, so the next frame decodes; its values
// are not numbered, so a later ref is E2001 rather than a ref to the wrong
// value; and a run's sids are not read, so a later message that leaves its
// sid out is rejected rather than given the sid in force before the run.
func TestRefuseUnread(t *testing.T) {
	chunk := func(sid string, n int) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + sid +
			`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + strings.Repeat("x", n) + `"}}}}`)
	}
	ts := time.Unix(1714000000, 0)
	enc := NewEncoder("r", Options{Refs: true})
	encode := func(msg []byte) string {
		t.Helper()
		fr, err := enc.Encode(msg, AgentToClient, ts)
		if err != nil {
			t.Fatal(err)
		}
		return fr
	}
	first := encode(chunk("s1", 20))
	runs := enc.Runs(RunOptions{MaxBodyTokens: -1})
	run := runFrames(t, runs, chunk("s2", 3000), chunk("s2", 3001))
	if len(run) != 1 {
		t.Fatalf("%d frames, want one run", len(run))
	}
	same := encode(chunk("s2", 10)) // leaves sid s2 out
	ref := encode(chunk("s3", 20))  // names s3; its text is a ref to the first's
	if !strings.Contains(ref, "$") || strings.Contains(same, "s2") {
		t.Fatalf("want a frame leaving its sid out and one with a ref:\n%s\n%s", same, ref)
	}

	dec := NewDecoder("r", Options{MaxJSONBytes: 5000})
	steps := []struct {
		frame string
		want  accp.Code
	}{
		{first, ""},
		{run[0], accp.CodeBudgetExceeded},
		{same, accp.CodeInvalidType},
		{ref, accp.CodeRefNotFound},
	}
	for i, s := range steps {
		var out [][]byte
		var err error
		allocated := allocatedBy(func() { out, err = dec.DecodeAll(s.frame) })
		if accp.CodeOf(err) != s.want {
			t.Fatalf("frame %d: got %s, %v; want code %q", i+1, out, err, s.want)
		}
		if s.want == accp.CodeBudgetExceeded && allocated > 16<<10 {
			t.Errorf("frame %d: refusing it allocated %d KB", i+1, allocated>>10)
		}
	}
}
