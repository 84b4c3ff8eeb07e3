package compress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSpoolArchiveAtEveryStep: wherever a reader looks during a turn (the
// archive is read at a checkpoint or a /bridge-compress, mid-stream or
// not), the archive written from the spool is the one the recorder writes
// from memory, so nothing the spool buffers is missing from it.
func TestSpoolArchiveAtEveryStep(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	steps := []func(r *Recorder){
		func(r *Recorder) { r.UserMessage(at, "fix the build") },
		func(r *Recorder) { r.AgentChunk(at, "Agent", []byte(`"Looking "`)) },
		func(r *Recorder) { r.AgentChunk(at, "Agent", []byte(`"at it\n"`)) },
		func(r *Recorder) { r.AgentChunk(at, "Thought", []byte(`"hmm \u00e9"`)) },
		func(r *Recorder) {
			r.ToolCall(at, []byte(`{"sessionUpdate":"tool_call","toolCallId":"c1","kind":"execute","status":"in_progress","title":"go build"}`))
		},
		func(r *Recorder) {
			r.ToolCall(at, []byte(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"E0425 here"}}]}`))
		},
		func(r *Recorder) { r.AgentChunk(at, "Agent", []byte(`"`+strings.Repeat("long ", 8<<10)+`"`)) },
		func(r *Recorder) { r.Release() }, // a turn end
		func(r *Recorder) { r.AgentChunk(at, "Agent", []byte(`"next turn"`)) },
	}
	mem := NewRecorder("s", "/r")
	spooled := NewRecorder("s", "/r")
	spooled.SpoolTo(filepath.Join(t.TempDir(), "s.spool"))
	for i, step := range steps {
		step(mem)
		step(spooled)
		if a, b := mem.Archive(at), spooled.Archive(at); a != b {
			t.Fatalf("after step %d the spooled archive differs:\n%.3000s\n---- from memory:\n%.3000s", i, b, a)
		}
	}
}

// TestSpoolOnDiskAtTurnEnd: once the IDE has the response that ends a
// turn, the spool's segments on disk hold the whole conversation so far,
// with nothing left in the process: a bridge killed then (no Close, no
// further code run, as here where the files are read behind the
// pipeline's back) loses none of the turn. The turn writes more than the
// spool's write buffer and ends with less than it still buffered.
func TestSpoolOnDiskAtTurnEnd(t *testing.T) {
	dir := t.TempDir()
	h := newHarnessWith(t, &Config{CacheDir: dir})
	h.newSession(1, "/repo", "s1")
	h.ide(promptMsg(2, "s1", textBlock("the user's request")))
	h.readAgent()
	var want []string
	for i := range 40 {
		text := fmt.Sprintf("chunk %d %s|", i, strings.Repeat("x", 997))
		want = append(want, text)
		h.agent(agentSays("s1", text))
		h.readIDE()
	}
	h.agent(update("s1", map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "kind": "read", "status": "in_progress", "title": "read a.go",
		"locations": []any{map[string]any{"path": "/repo/a.go"}}}))
	h.readIDE()
	h.agent(agentSays("s1", "the last words"))
	h.readIDE()
	h.agent(endTurn(2))
	h.untilIDE(isResponse("2"))

	var disk strings.Builder
	for _, seg := range []string{".1", ".0"} { // the older first; .1 is not written yet
		b, err := os.ReadFile(h.p.store.spoolBase("s1") + seg)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		disk.Write(b)
	}
	got := disk.String()
	at := strings.Index(got, "the user's request")
	if at < 0 {
		t.Fatalf("the user's message is not on disk:\n%.500s", got)
	}
	for _, w := range append(want, "read [in_progress] read a.go /repo/a.go", "the last words") {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("%.40q is not on disk after its predecessors at the turn's end (%d bytes on disk)", w, len(got))
		}
		at += i + len(w)
	}
}
