package governance

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateFinishRecords = flag.Bool("update-finish-records", false, "rewrite testdata/records/finish.golden")

// TestFinishRecords holds the records of the soak's four kinds of tool
// call, each announced without input and then completed with output, to
// testdata/records/finish.golden: read and search are allowed and make a
// tool.call record, execute and fetch need an approval the agent never
// asked for and make a tool.call record and a policy.violation. The
// records are as the Recorder receives them, JSON with the workspace
// root as $ROOT.
func TestFinishRecords(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	for i, kind := range []string{"read", "execute", "search", "fetch"} {
		id := "call_" + kind
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call","toolCallId":%q,"title":"%s src/file%d.go","kind":%q,"status":"in_progress","locations":[{"path":%q}]`,
			id, kind, i, kind, filepath.Join(h.root, "src", "file"+string(rune('0'+i))+".go")))
		h.wantForwarded(id)
		h.agent("%s", toolUpdate(`"sessionUpdate":"tool_call_update","toolCallId":%q,"status":"completed","content":[{"type":"content","content":{"type":"text","text":"output of %s"}}]`, id, kind))
		h.wantForwarded(id)
	}
	h.rec.mu.Lock()
	var b strings.Builder
	for _, r := range h.rec.events {
		line, err := json.Marshal(struct {
			Sync bool
			Ev   any
		}{r.sync, r.ev})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	h.rec.mu.Unlock()
	got := strings.ReplaceAll(b.String(), h.root, "$ROOT")
	golden := filepath.Join("testdata", "records", "finish.golden")
	if *updateFinishRecords {
		writeFile(t, golden, got)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("records differ from %s:\ngot\n%s\nwant\n%s", golden, got, want)
	}
}
