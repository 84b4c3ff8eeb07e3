package auditweb

import (
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusalShownAndCounted runs the real demo with the person refusing
// the write the agent asks for, and checks that the sessions page counts
// the refusal and the session page says who refused the call.
func TestRefusalShownAndCounted(t *testing.T) {
	bin := demoBridge(t)
	ws := filepath.Join(t.TempDir(), "ws")
	if out, err := exec.Command(bin, "demo", "--workspace", ws, "--answer", "reject").CombinedOutput(); err != nil {
		t.Fatalf("acp-bridge demo: %v\n%s", err, out)
	}
	ts := newTestServer(t, filepath.Join(ws, ".acp-bridge", "audit.jsonl"))
	_, body := ts.get(t, "/")
	for _, want := range []string{`<th class="num">refused by a person</th>`, `<td class="num refused">1</td>`} {
		if !strings.Contains(body, want) {
			t.Errorf("sessions page lacks %q:\n%s", want, body)
		}
	}
	g := ts.logs[0].groups[0]
	_, body = ts.get(t, "/timeline?"+url.Values{"run": {g.run}, "session": {g.session}}.Encode())
	for _, want := range []string{`<span class="refused">1 refused by a person</span>`, `<p class="approval">refused by a person: user:ide</p>`} {
		if !strings.Contains(body, want) {
			t.Errorf("session page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "approved by user:ide") {
		t.Errorf("session page says the refused call was approved:\n%s", body)
	}
}
