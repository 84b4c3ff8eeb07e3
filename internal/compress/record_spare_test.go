package compress

import (
	"bytes"
	"reflect"
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

// FuzzToolCallStateReuse: a recorder whose new tool calls take the state
// of the call done before (newToolCall) records what one whose new calls
// each start from a new state records, for any run of tool call updates
// (one a line): the same artifacts, facts and archive.
func FuzzToolCallStateReuse(f *testing.F) {
	f.Add([]byte(`{"toolCallId":"a","kind":"edit","title":"Edit a","status":"completed","locations":[{"path":"/w/a"},{"path":"/w/a2"}]}
{"toolCallId":"b","status":"failed","locations":[{"path":"/w/b"}],"content":[{"type":"content","content":{"type":"text","text":"E0308"}}]}
{"toolCallId":"c","kind":"delete","title":"Delete c","status":"pending"}
{"toolCallId":"c","status":"completed","content":[{"type":"diff","path":"/w/c","newText":"x"}]}
{"toolCallId":"d","kind":"execute","status":"completed","content":[{"type":"content","content":{"type":"text","text":"exit code 2"}}]}
{"toolCallId":"e","kind":"edit","status":"in_progress","content":[{"type":"diff","path":"/w/e","oldText":null,"newText":"y"}]}`))
	f.Add([]byte(`{"toolCallId":"a","kind":"move","status":"completed","locations":[{"path":"/1"},{"path":"/2"},{"path":"/3"},{"path":"/4"},{"path":"/5"},{"path":"/6"},{"path":"/7"},{"path":"/8"},{"path":"/9"},{"path":"/10"},{"path":"/11"},{"path":"/12"},{"path":"/13"},{"path":"/14"},{"path":"/15"},{"path":"/16"},{"path":"/17"}]}
{"toolCallId":"b","kind":"edit","status":"completed"}`))
	f.Fuzz(func(t *testing.T, updates []byte) {
		at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		reused, fresh := NewRecorder("s1", "/w"), NewRecorder("s1", "/w")
		for _, u := range bytes.Split(updates, []byte("\n")) {
			reused.ToolCall(at, u)
			fresh.spareCall = nil
			fresh.ToolCall(at, u)
		}
		if got, want := reused.Artifacts(), fresh.Artifacts(); !reflect.DeepEqual(got, want) {
			t.Fatalf("artifacts = %+v, want %+v", got, want)
		}
		if got, want := reused.Facts(), fresh.Facts(); !reflect.DeepEqual(got, want) {
			t.Fatalf("facts = %q, want %q", got, want)
		}
		if got, want := reused.Archive(at), fresh.Archive(at); got != want {
			t.Fatalf("archive = %q, want %q", got, want)
		}
	})
}
