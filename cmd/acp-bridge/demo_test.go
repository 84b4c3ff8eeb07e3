package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// demoOutput runs acp-bridge demo with args in a fresh workspace and returns
// its stdout with what changes from run to run replaced: the workspace path,
// times, durations, hashes.
func demoOutput(t *testing.T, args ...string) string {
	t.Helper()
	ws, out := demoSession(t, args...)
	if m := sessionsTable.FindString(out); m != "" && !strings.Contains(m, "demo-session-1") {
		t.Errorf("the audit sessions table does not list the demo's session:\n%s", m)
	}
	return normalizeDemo(out, ws)
}

var demoVariable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{8}_\d{6}\.\d+_`), "STAMP_"},
	{regexp.MustCompile(`head [0-9a-f]{64}`), "head HASH"},
	{regexp.MustCompile(`took [0-9.]+[µm]?s`), "took DURATION"},
	// The reference to offloaded content names its file, so its size, and
	// the agent's estimated context, follow the workspace path's length.
	{regexp.MustCompile(`a [0-9,]+-byte reference`), "a N-byte reference"},
	// Token counts follow the tokenizer, the event count the audit log's
	// contents: the account's order and actions are what the golden holds.
	{regexp.MustCompile(`[0-9,]+ -> [0-9,]+ tokens \([0-9,]+ saved\)`), "N -> N tokens (N saved)"},
	{regexp.MustCompile(`ok: \d+ events in 1 file, seq 0\.\.\d+`), "ok: N events in 1 file, seq 0..N"},
	{regexp.MustCompile(`lines \([0-9]+ bytes\)`), "lines (N bytes)"},
	{regexp.MustCompile(`context: [0-9,]+ of`), "context: N of"},
}

// sessionsTable is the output of audit sessions inside the demo's account:
// its columns are the audit command's business, checked by its own tests.
var sessionsTable = regexp.MustCompile(`(?s)(\$ acp-bridge audit sessions [^\n]*\n).*?(  \$ acp-bridge audit verify)`)

func normalizeDemo(s, ws string) string {
	s = strings.ReplaceAll(s, ws, "WORKSPACE")
	s = sessionsTable.ReplaceAllString(s, "${1}    (the sessions table)\n${2}")
	for _, v := range demoVariable {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// TestDemoDeterministic: the demo prints the same account every time (the
// wire order, which the bridge's recording gives), and by default that
// account shows the product: the denied read of .env, the approval of the
// write, the offload with the tokens it saved, the audit summary and its
// verification. The account is kept in testdata/demo.golden.
func TestDemoDeterministic(t *testing.T) {
	const runs = 8
	first := demoOutput(t)
	for _, want := range []string{
		"fs/read_text_file .env\n  bridge         answered it itself, the IDE never saw it: error -32600: acp-bridge policy: reading .env: denied by Read(**/.env)",
		"asks permission: Write notes.txt",
		"OFFLOADED it: the agent got a",
		" saved); the content is in .acp-bridge/cache/offloaded/",
		"the secret in .env never reached the agent",
		"$ acp-bridge audit sessions .acp-bridge/audit.jsonl\n    (the sessions table)",
		"$ acp-bridge audit verify .acp-bridge/audit.jsonl\n    ok: ",
		`notes.txt holds "Reviewed big.log.\n"`,
	} {
		if !strings.Contains(first, want) {
			t.Errorf("the demo's account lacks %q:\n%s", want, first)
		}
	}
	for i := 1; i < runs; i++ {
		if got := demoOutput(t); got != first {
			t.Fatalf("run %d differs from run 0:\n%s\nrun 0:\n%s", i, got, first)
		}
	}
	// If the bridge's behaviour changed on purpose:
	// go test ./cmd/acp-bridge -run TestDemoDeterministic -update
	golden.Check(t, filepath.Join("testdata", "demo.golden"), []byte(first))
}

// TestDemoAuditEvents: the events the demo's audit log holds, in order,
// with what a tool's output became in them (its rawOutput, the kept diff of
// the write), are those of testdata/demo-audit.golden. Rewrite it with
// go test ./cmd/acp-bridge -run TestDemoAuditEvents -update.
func TestDemoAuditEvents(t *testing.T) {
	ws, _ := demoSession(t)
	f, err := os.Open(filepath.Join(ws, ".acp-bridge", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			Seq     int64
			Action  string
			Actor   struct{ ID string }
			Subject struct{ Kind, Ref string }
			Policy  *struct{ Decision string }
			Output  json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%d %s %s %s:%s", r.Seq, r.Action, r.Actor.ID, r.Subject.Kind, r.Subject.Ref)
		if r.Policy != nil {
			fmt.Fprintf(&b, " %s", r.Policy.Decision)
		}
		if len(r.Output) > 0 && r.Action != "context.compress" { // its token counts follow the tokenizer
			fmt.Fprintf(&b, " output=%s", r.Output)
		}
		b.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The offload reference the agent read names its file: its size
	// follows the workspace path's length.
	got := offloadedBytes.ReplaceAllString(normalizeDemo(b.String(), ws), `{"bytes":N,`)
	golden.Check(t, filepath.Join("testdata", "demo-audit.golden"), []byte(got))
}

var offloadedBytes = regexp.MustCompile(`\{"bytes":\d+,`)

// TestDemoPlain: --plain is the bare pass-through: the agent reads .env,
// nothing is refused, offloaded or audited.
func TestDemoPlain(t *testing.T) {
	out := demoOutput(t, "--plain")
	for _, want := range []string{"policy     none", "audit log  none", "compress   off", "the secret in .env reached the agent"} {
		if !strings.Contains(out, want) {
			t.Errorf("--plain lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"answered it itself", "OFFLOADED", "audit verify", "bridge → IDE"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("--plain shows %q:\n%s", unwanted, out)
		}
	}
}

// TestDemoWorkspaceNotOverwritten: the demo writes .env, big.log and
// GOVERNANCE.md into its workspace, so --workspace must not name a directory
// holding anything else (a project whose policy and secrets it would
// overwrite); an empty directory, a new one, or one a demo made is fine.
func TestDemoWorkspaceNotOverwritten(t *testing.T) {
	t.Setenv("ACP_BRIDGE_TEST_MAIN", "1")
	project := t.TempDir()
	policy := filepath.Join(project, "GOVERNANCE.md")
	if err := os.WriteFile(policy, []byte("my own policy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCmd(t, "", "demo", "--workspace", project)
	if code != 2 || !strings.Contains(errOut, "not a demo workspace") {
		t.Errorf("demo in a project: exit %d, stderr %q; want 2 and a refusal", code, errOut)
	}
	if b, _ := os.ReadFile(policy); string(b) != "my own policy\n" {
		t.Errorf("the project's GOVERNANCE.md was overwritten: %q", b)
	}
	again := filepath.Join(t.TempDir(), "demo")
	for i := 0; i < 2; i++ { // a new directory, then the same one again
		if _, errOut, code := runCmd(t, "", "demo", "--workspace", again); code != 0 {
			t.Fatalf("run %d in %s: exit %d\n%s", i, again, code, errOut)
		}
	}
}
