package compress

import (
	"testing"
	"time"
)

// TestToolCallStateStartsEmpty: a new tool call's state, taken from the
// call done before it, carries none of that call's kind, title, status or
// paths: a call of no kind on another file makes no artifact, and the
// edit's artifact keeps its own title.
func TestToolCallStateStartsEmpty(t *testing.T) {
	r := NewRecorder("s1", "/w")
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, update := range []string{
		`{"toolCallId":"a","kind":"edit","title":"Edit a","status":"completed","locations":[{"path":"/w/a"}]}`,
		`{"toolCallId":"b","status":"completed","locations":[{"path":"/w/b"}]}`,
		`{"toolCallId":"c","kind":"delete","title":"Delete c","status":"pending"}`,
	} {
		r.ToolCall(at, []byte(update))
	}
	got := r.Artifacts()
	if len(got) != 1 || got[0].Path != "/w/a" || got[0].Summary != "Edit a" || got[0].Action != "edited" || got[0].Status != "Complete" {
		t.Fatalf("artifacts = %+v, want only /w/a, edited by Edit a, Complete", got)
	}
}
