package compress

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRecorderBounded records a long session and checks that what the
// recorder keeps is bounded: the archive spools to two segments on disk
// and keeps the most recent conversation, and tool calls, artifacts,
// decisions and user messages are capped.
func TestRecorderBounded(t *testing.T) {
	setSpoolSegment(t, 64<<10)
	dir := t.TempDir()
	r := NewRecorder("s", "/r")
	r.SpoolTo(filepath.Join(dir, "s.spool"))
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.UserMessage(at, "the intent")
	for i := range 5000 {
		r.AgentChunk(at, "Agent", []byte(strconv.Quote(fmt.Sprintf("chunk %d %s", i, strings.Repeat("x", 100)))))
		r.ToolCall(at, []byte(fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":"c%d","kind":"edit","status":"completed","title":"t","locations":[{"path":"/r/f%d"}]}`, i, i)))
		r.Decision(at, fmt.Sprintf("decision %d", i))
		r.UserMessage(at, fmt.Sprintf("message %d %s", i, strings.Repeat("y", 1000)))
	}
	r.Release()
	if len(r.entries) != 0 {
		t.Errorf("%d entries in memory with a spool", len(r.entries))
	}
	if len(r.toolCalls) != 0 {
		t.Errorf("%d completed tool calls kept, want none", len(r.toolCalls))
	}
	for i := range 2 * MaxToolCalls {
		r.ToolCall(at, []byte(fmt.Sprintf(`{"sessionUpdate":"tool_call","toolCallId":"run%d","kind":"read","status":"in_progress","title":"t"}`, i)))
	}
	if len(r.toolCalls) != MaxToolCalls || len(r.toolOrder) != MaxToolCalls {
		t.Errorf("%d running tool calls kept (order %d), want %d", len(r.toolCalls), len(r.toolOrder), MaxToolCalls)
	}
	if len(r.artifacts) != MaxArtifacts || len(r.byPath) != MaxArtifacts {
		t.Errorf("%d artifacts kept (%d by path), want %d", len(r.artifacts), len(r.byPath), MaxArtifacts)
	}
	if len(r.decisions) != maxKeptDecisions {
		t.Errorf("%d decisions kept, want %d", len(r.decisions), maxKeptDecisions)
	}
	if r.userBytes > MaxUserBytes || r.Intent() != "the intent" || r.UserCount() != 5001 {
		t.Errorf("user messages: %d bytes kept, intent %q, count %d", r.userBytes, r.Intent(), r.UserCount())
	}
	if n, _ := r.OlderUserMessages(); n == 0 || n+len(r.UserMessages()) != 5001 {
		t.Errorf("older messages %d + kept %d, want 5001", n, len(r.UserMessages()))
	}
	md := BuildSummary(r, at, "/a", "/o", 1<<30).Markdown()
	if !strings.Contains(md, "earlier messages: about") || !strings.Contains(md, "message 4999") {
		t.Errorf("summary does not point to the older messages or lost the latest:\n%.2000s", md)
	}
	archive := r.Archive(at)
	if !strings.Contains(archive, "chunk 4999 ") || strings.Contains(archive, "chunk 0 ") {
		t.Error("archive does not hold the most recent conversation only")
	}
	if !strings.Contains(archive, "bytes of earlier conversation were not retained") {
		t.Error("archive does not say what it dropped")
	}
	for _, seg := range []string{"s.spool.0", "s.spool.1"} {
		st, err := os.Stat(filepath.Join(dir, seg))
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > spoolSegment+8<<10 || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes, mode %v", seg, st.Size(), st.Mode().Perm())
		}
	}
}

// TestSpoolArchiveMatchesMemory: the archive written from the spool is the
// one the recorder writes from memory.
func TestSpoolArchiveMatchesMemory(t *testing.T) {
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	record := func(r *Recorder) {
		r.UserMessage(at, "fix the build")
		r.AgentChunk(at, "Agent", []byte(`"Looking "`))
		r.AgentChunk(at, "Agent", []byte(`"at it\n"`))
		r.AgentChunk(at, "Thought", []byte(`"hmm"`))
		r.Note(at, "Tool", "fs/read_text_file /r/a.go (12 tokens)")
		r.AgentChunk(at, "Agent", []byte(`"Done \u00e9"`))
	}
	mem := NewRecorder("s", "/r")
	record(mem)
	spooled := NewRecorder("s", "/r")
	spooled.SpoolTo(filepath.Join(t.TempDir(), "s.spool"))
	record(spooled)
	if a, b := mem.Archive(at), spooled.Archive(at); a != b {
		t.Errorf("spooled archive differs:\n%s\n---- from memory:\n%s", b, a)
	}
}

// TestCloseRemovesSpools: the pipeline's spooled conversations are deleted
// when it closes; archives written at checkpoints are not spools.
func TestCloseRemovesSpools(t *testing.T) {
	dir := t.TempDir()
	h := newHarnessWith(t, &Config{CacheDir: dir})
	h.newSession(1, "/repo", "s1")
	h.prompt(2, "s1", "hello")
	h.agent(agentSays("s1", "some output"))
	h.readIDE()
	h.agent(endTurn(2))
	h.untilIDE(isResponse("2"))
	spools, _ := filepath.Glob(filepath.Join(dir, "conversations", ".*.spool.*"))
	if len(spools) == 0 {
		t.Fatal("no spool written")
	}
	if err := h.p.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "conversations", ".*.spool.*")); len(left) > 0 {
		t.Errorf("spools left after Close: %v", left)
	}
}
