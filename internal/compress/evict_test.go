package compress

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// TestSessionsBounded checks that the pipeline keeps state for at most
// Config.MaxSessions sessions, forgetting the least recently used one with
// its spooled conversation and its ACCP state, and that a session in use
// is not the one forgotten.
func TestSessionsBounded(t *testing.T) {
	p, err := New(Config{CacheDir: t.TempDir(), MaxSessions: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0)
	for _, id := range []string{"a", "b", "c"} {
		s := p.sessionFor(id, "/work")
		s.mu.Lock()
		s.rec.UserMessage(now, "hello from "+id)
		s.rec.Note(now, "agent", "text of "+id)
		s.rec.Release()
		s.mu.Unlock()
		p.accp.Put(id, accp.Hot, "k", accp.String(id), 0, now)
	}
	spoolOf := func(id string) string { return p.store.spoolBase(id) + ".0" }
	if _, err := os.Stat(spoolOf("b")); err != nil {
		t.Fatalf("session b's conversation was not spooled: %v", err)
	}
	p.lookup("a") // a is in use again: b is now the least recently used
	p.sessionFor("d", "/work")

	var kept []string
	for id := range p.sessions {
		kept = append(kept, id)
	}
	slices.Sort(kept)
	if want := []string{"a", "c", "d"}; !slices.Equal(kept, want) {
		t.Fatalf("sessions kept %v, want %v", kept, want)
	}
	if p.recency.Len() != len(p.sessions) {
		t.Errorf("recency list holds %d sessions, the map %d", p.recency.Len(), len(p.sessions))
	}
	if _, err := os.Stat(spoolOf("b")); !os.IsNotExist(err) {
		t.Errorf("the forgotten session's spooled conversation is still on disk (%v)", err)
	}
	if _, err := os.Stat(spoolOf("a")); err != nil {
		t.Errorf("a kept session's spooled conversation is gone: %v", err)
	}
	if _, err := p.accp.Get("b", accp.Hot, "k", now); err == nil {
		t.Errorf("the forgotten session's ACCP state is still kept")
	}
	if _, err := p.accp.Get("a", accp.Hot, "k", now); err != nil {
		t.Errorf("a kept session's ACCP state is gone: %v", err)
	}
	if p.lookup("b") != nil {
		t.Errorf("a forgotten session is still looked up")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(p.store.ConversationsDir(), ".*.spool.*"))
	if len(left) != 0 {
		t.Errorf("spooled conversations left after Close: %v", left)
	}
}

// TestManySessionsMemoryBounded opens and uses 5,000 sessions with a bound
// of 50: the heap after the last is no larger than after the 500th, give
// or take what the runtime moves.
func TestManySessionsMemoryBounded(t *testing.T) {
	p, err := New(Config{CacheDir: t.TempDir(), MaxSessions: 50}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	now := time.Unix(1700000000, 0)
	text := string(make([]byte, 32<<10))
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var at500 uint64
	for i := range 5000 {
		s := p.sessionFor(fmt.Sprintf("s%d", i), "/work")
		s.mu.Lock()
		s.rec.UserMessage(now, text) // 32 KiB kept verbatim per session
		s.rec.Release()
		s.mu.Unlock()
		if i == 499 {
			at500 = heap()
		}
	}
	if n := len(p.sessions); n != 50 {
		t.Fatalf("%d sessions kept, want the bound, 50", n)
	}
	end := heap()
	t.Logf("heap after 500 sessions %d KiB, after 5,000 %d KiB", at500>>10, end>>10)
	if end > at500+4<<20 {
		t.Errorf("heap grew from %d KiB after 500 sessions to %d KiB after 5,000 with a bound of 50", at500>>10, end>>10)
	}
}
