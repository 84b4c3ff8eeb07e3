package compress

import (
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

func TestWarmStateDeltasAndCheckpoint(t *testing.T) {
	clock := func() time.Time { return time.Date(2026, 1, 29, 14, 0, 0, 0, time.UTC) }
	w := newWarmState("s1", accp.NewStore(), clock)
	r := scriptedRecorder()
	w.observe(r, Yellow)
	f1, err := w.delta()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first delta: %s", f1)
	if !strings.Contains(f1, ">sync:state{") || !strings.Contains(f1, "/repo/gw/limiter.go") || !strings.Contains(f1, "YELLOW") {
		t.Fatalf("first delta frame: %s", f1)
	}
	// Nothing changed: no frame.
	w.observe(r, Yellow)
	if f, err := w.delta(); err != nil || f != "" {
		t.Fatalf("unchanged state gave %q, %v", f, err)
	}
	// Only what changed travels.
	w.observe(r, Orange)
	f2, err := w.delta()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f2, "ORANGE") || strings.Contains(f2, "limiter.go") {
		t.Fatalf("second delta should carry only the level: %s", f2)
	}
	if _, err := accp.ParseFrame(f2); err != nil {
		t.Fatalf("delta frame does not parse: %v", err)
	}

	md := BuildSummary(r, clock(), "/c/a.md", "/c/o", 50000).Markdown()
	res, err := w.checkpoint(md)
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != "ckpt_1" || res.SummaryTokens > 100 || res.WarmTokens > 200 {
		t.Errorf("checkpoint %+v: want ckpt_1 within the draft's 100/200-token budgets", res)
	}
	if _, err := w.sess.Resolve("$warm.ckpt_1"); err != nil {
		t.Errorf("$warm.ckpt_1: %v", err)
	}
	v, err := w.sess.Get(accp.Cold, "summary")
	if err != nil || v.Str != md {
		t.Errorf("cold summary: %v", err)
	}
	if prev, id := w.previous(); prev != md || id != "ckpt_1" {
		t.Errorf("previous = %q, %q", prev[:min(len(prev), 40)], id)
	}
	frames := w.Frames()
	if len(frames) != 3 || !strings.HasPrefix(frames[2], "$warm.ckpt_1 ") {
		t.Errorf("frames: %q", frames)
	}
	if b := w.budget(); b.Checkpoints != 1 {
		t.Errorf("budget %+v", b)
	}
}
