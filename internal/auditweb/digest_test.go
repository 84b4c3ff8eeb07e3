package auditweb

import (
	"strings"
	"testing"
)

// TestResultTextDigest: a tool call's output stored as digest records
// (audit --audit-content digest) shows on the session page as its preview
// and what was left out; a diff too large to keep shows as its path.
func TestResultTextDigest(t *testing.T) {
	digest := `{"$digest":true,"bytes":20002,"sha256":"0123456789abcdef","preview":"the build failed","redactions":0}`
	for _, tt := range []struct{ result, want string }{
		{`[{"type":"content","content":{"type":"text","text":` + digest + `}}]`, "the build failed … [20002 bytes, sha256 0123456789ab…]"},
		{`[{"type":"content","content":{"type":"text","text":"ok"}}]`, "ok"},
		{`[{"type":"diff","path":"/w/a.go","oldText":` + digest + `,"newText":` + digest + `}]`, "diff of /w/a.go"},
	} {
		if got := resultText([]byte(tt.result)); got != tt.want {
			t.Errorf("resultText(%.60s…) = %q, want %q", tt.result, got, tt.want)
		}
	}
	if d := diffFrom([]byte(`[{"type":"diff","path":"/w/a.go","oldText":"a\n","newText":"b\n"}]`)); len(d) == 0 || !strings.Contains(d[0].Text, "a.go") {
		t.Errorf("a kept diff renders as %v", d)
	}
}
