package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scriptAgent is an ACP agent in sh: it saves the initialize request it
// receives to the file named by $1, answers it, and waits for stdin to close.
const scriptAgent = `IFS= read -r line; printf '%s\n' "$line" > "$1"; printf '%s\n' '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"mcpCapabilities":{"http":true,"sse":false}},"agentInfo":{"name":"script-agent","version":"1.0.0"}}}'; cat > /dev/null`

func writeManifest(t *testing.T, name, aip44 string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ACP.md")
	src := "---\nname: " + name + "\nid: " + name + "\ndescription: test\nversion: 1.0.0\nkind: bridge\ntransport: stdio\nmetadata:\n  aip44:\n    acp_rev: abc1234\n" + aip44 + "---\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBridgeManifestMasks runs the bridge command with --manifest and a real
// agent process, and checks both initialize messages as they arrive.
func TestBridgeManifestMasks(t *testing.T) {
	path := writeManifest(t, "basic-bridge", "    tier: basic\n    capabilities:\n      client: {terminal: true}\n")
	got := filepath.Join(t.TempDir(), "initialize.json")
	ide := startBridge(t, "--manifest", path, "--adapter", "none", "--", "sh", "-c", scriptAgent, "sh", got)
	ide.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}}}`)
	line := ide.Next()
	// A test binary's main module version is "(devel)".
	want := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false,"mcpCapabilities":{"http":false,"sse":false}},"agentInfo":{"name":"script-agent","version":"1.0.0"},"_meta":{"acp-bridge":{"name":"acp-bridge","version":"(devel)","manifest":"basic-bridge","tier":"basic"}}}}`
	if line != want {
		t.Errorf("IDE received\n  %s\nwant\n  %s", line, want)
	}
	if err := ide.Wait(); err != nil {
		t.Errorf("bridge: %v (stderr: %s)", err, ide.Stderr())
	}
	agentSaw, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	wantAgent := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":true}}}` + "\n"
	if string(agentSaw) != wantAgent {
		t.Errorf("agent received\n  %s\nwant\n  %s", agentSaw, wantAgent)
	}
}

// TestEmbeddedManifestNamesNoFiles: without --manifest the bridge runs on
// its own ACP.md, marked Embedded, whose references (./GOVERNANCE.md) name
// none of the user's files: a GOVERNANCE.md in the directory the bridge
// starts in is not loaded as its policy.
func TestEmbeddedManifestNamesNoFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writePolicy(t, dir, "  default: deny\n")
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	fs, f, features := bridgeFlagSet(e)
	if err := parseFlags(e, fs, []string{"--adapter", "none", "--", "true"}); err != nil {
		t.Fatal(err)
	}
	br, err := prepareBridge(context.Background(), e, f, features, fs.Args())
	if err != nil {
		t.Fatal(err)
	}
	defer br.close()
	if m := br.setup.Manifest; !m.Embedded || m.File != "ACP.md" {
		t.Errorf("manifest %q, embedded %v: want the embedded ACP.md", m.File, m.Embedded)
	}
	if g := br.setup.Governance; g.Policy != nil || g.Audit != nil {
		t.Errorf("the embedded manifest's references were followed: policy %v, audit %v", g.Policy != nil, g.Audit != nil)
	}
}
