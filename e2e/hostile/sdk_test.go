package hostile

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSReaderMatchesSDK checks the suite's model of a JavaScript client
// against the real ACP TypeScript SDK: every line of every case (and the
// reader table's lines) goes through the SDK's ndJsonStream and its
// request/notification/response tests (testdata/sdk/jsread.mjs), and the
// kind, method and path must be what jsReader says. It needs Node.js and
// e2e/install.sh's packages, so it runs with the npm suite
// (ACP_BRIDGE_E2E=1).
func TestJSReaderMatchesSDK(t *testing.T) {
	if os.Getenv("ACP_BRIDGE_E2E") != "1" {
		t.Skip("needs Node.js and the npm packages: runs with ACP_BRIDGE_E2E=1 (scripts/e2e.sh)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found on PATH")
	}
	sdk, err := filepath.Abs("../node_modules/@agentclientprotocol/sdk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
		t.Fatalf("the TypeScript SDK is not installed: run e2e/install.sh (%v)", err)
	}
	cases := testCases(t)
	p := placeholders{ws: "/w", out: "/o", sid: "s", bin: "/b", audit: "/w/audit/log", policy: "/w/GOVERNANCE.md", secret: "ghp_x", markers: "/m"}
	var lines [][]byte
	var names []string
	for _, c := range cases {
		for _, l := range c.lines {
			b, err := expand(l, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, part := range bytes.Split(b, []byte("\n")) {
				if len(part) < 64<<10 {
					lines, names = append(lines, part), append(names, c.name)
				}
			}
		}
	}
	var in bytes.Buffer
	for _, l := range lines {
		in.WriteString(base64.StdEncoding.EncodeToString(l) + "\n")
	}
	cmd := exec.Command(node, "testdata/sdk/jsread.mjs", sdk)
	cmd.Stdin = &in
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jsread.mjs: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(lines) {
			t.Fatalf("jsread.mjs printed more results than lines")
		}
		var want struct {
			Kind, Method, Path string
		}
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatalf("jsread.mjs: %v: %s", err, sc.Bytes())
		}
		got := jsReader{}.read(lines[i])
		handled := got.kind == "request" || got.kind == "notification"
		if got.kind != want.Kind || (handled && got.method != want.Method) {
			t.Errorf("%s: %.120q: model reads %s %q, the SDK %s %q", names[i], lines[i], got.kind, got.method, want.Kind, want.Method)
			continue
		}
		if handled {
			var rp readParams
			if err := (jsReader{}).params(got.params, &rp); err == nil && rp.Path != want.Path && !strings.HasPrefix(want.Path, "{") {
				t.Errorf("%s: %.120q: model reads path %q, the SDK %q", names[i], lines[i], rp.Path, want.Path)
			}
		}
	}
	if i != len(lines) {
		t.Fatalf("jsread.mjs answered %d of %d lines", i, len(lines))
	}
	t.Logf("%d lines read alike by the model and the SDK", len(lines))
}
