package governance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// TestInputRecordOutlivesItsSources: a record's input is the call's kept
// copy, so neither the message it came in (its read block written over)
// nor a later input of the same call changes what the record holds, for
// an input kept whole and for one kept in part.
func TestInputRecordOutlivesItsSources(t *testing.T) {
	for _, size := range []int{10, maxKept + 10} {
		first := []byte(`{"path":"/w/a.go","content":"` + strings.Repeat("a", size) + `"}`)
		c := &callState{session: "s1", id: "c1"}
		c.merge(&acpparams.ToolCall{ID: "c1", RawInput: first})
		rec := inputRecord(c)
		want := recordInputText(t, rec)
		for i := range first {
			first[i] = '#' // the read block, reused
		}
		c.merge(&acpparams.ToolCall{ID: "c1", RawInput: []byte(`{"path":"/w/b.go"}`)})
		if got := recordInputText(t, rec); got != want || strings.Contains(got, "#") || !strings.Contains(got, "/w/a.go") {
			t.Fatalf("input of %d bytes: record holds %.80s, want %.80s", size, got, want)
		}
	}
}

// recordInputText is an input record as JSON.
func recordInputText(t *testing.T, rec any) string {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
