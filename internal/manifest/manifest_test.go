package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/golden"
	"github.com/google/go-cmp/cmp"
)

// summary describes a valid manifest for its golden file: the typed fields
// and the capabilities it grants and withholds.
func summary(m *Manifest) string {
	a := m.AIP44()
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nid: %s\nversion: %s\nkind: %s\n", m.Name, m.ID, m.Version, m.Kind)
	fmt.Fprintf(&b, "transport: %s\n", strings.Join(m.Transport, ", "))
	fmt.Fprintf(&b, "acp_rev: %s\ntier: %s\n", a.ACPRev, a.Tier)
	for _, r := range []struct{ name, v string }{
		{"operator", a.Operator}, {"governance", a.Governance}, {"sandbox", a.Sandbox},
	} {
		if r.v != "" {
			fmt.Fprintf(&b, "%s: %s\n", r.name, r.v)
		}
	}
	if a.Audit != nil {
		fmt.Fprintf(&b, "audit: kind=%s ref=%q\n", a.Audit.Kind, a.Audit.Ref)
	}
	for _, s := range a.MCPServers {
		fmt.Fprintf(&b, "mcp server: %s (%s) %s\n", s.Name, s.Transport, s.Ref)
	}
	caps := m.Capabilities()
	fmt.Fprintf(&b, "grants: %s\n", orNone(caps))
	fmt.Fprintf(&b, "withholds: %s\n", orNone(All&^caps))
	fmt.Fprintf(&b, "body: %d bytes from line %d\n", len(m.Body), m.BodyLine)
	return b.String()
}

func orNone(s Set) string {
	if s == 0 {
		return "(none)"
	}
	return s.String()
}

// isManifestFile reports whether a testdata file is a manifest under test:
// ACP.md, a <name>.ACP.md sidecar, or a wrongly named acp.md.
func isManifestFile(name string) bool {
	return strings.HasSuffix(strings.ToUpper(name), "ACP.MD")
}

// manifestFiles lists the manifests under dir.
func manifestFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isManifestFile(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestLoadValid(t *testing.T) {
	eachManifest(t, "valid", 3, "the upstream examples and more", func(t *testing.T, file string) {
		m, err := Load(file)
		if err != nil {
			t.Fatalf("Load: %v\n%s", err, listErrors(err))
		}
		golden.Check(t, file+".golden", []byte(summary(m)))
	})
}

func TestLoadInvalid(t *testing.T) {
	eachManifest(t, "invalid", 20, "at least 20", func(t *testing.T, file string) {
		_, err := Load(file)
		if err == nil {
			t.Fatal("Load succeeded, want problems")
		}
		var l ErrorList
		if !errors.As(err, &l) {
			t.Fatalf("Load error is %T (%v), want ErrorList", err, err)
		}
		golden.Check(t, file+".golden", []byte(listErrors(err)))
	})
}

// eachManifest runs test on every manifest under testdata/dir, each as a
// subtest named for its file, once it has found atLeast of them (want says
// how many it wants, in words).
func eachManifest(t *testing.T, dir string, atLeast int, want string, test func(t *testing.T, file string)) {
	files := manifestFiles(t, filepath.Join("testdata", dir))
	if len(files) < atLeast {
		t.Fatalf("found %d %s manifests, want %s", len(files), dir, want)
	}
	for _, file := range files {
		t.Run(filepath.ToSlash(file), func(t *testing.T) { test(t, file) })
	}
}

// listErrors renders an ErrorList one problem per line, with forward
// slashes so golden files match on every OS.
func listErrors(err error) string {
	var l ErrorList
	if !errors.As(err, &l) {
		return err.Error() + "\n"
	}
	var b strings.Builder
	for _, e := range l {
		b.WriteString(filepath.ToSlash(e.Error()))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestProjectManifest checks the repository's own ACP.md, the file CI
// validates and the bridge embeds: its content against a golden file, and
// the file-system rules once the files it references exist.
func TestProjectManifest(t *testing.T) {
	path := filepath.Join("..", "..", "ACP.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(path, data)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, listErrors(err))
	}
	golden.Check(t, filepath.Join("testdata", "project-ACP.md.golden"), []byte(summary(m)))
	if got := m.Capabilities(); got != All {
		t.Errorf("the bridge's own manifest withholds %s; it must grant everything it carries", All&^got)
	}
	if m.Kind != Bridge || len(m.Transport) != 1 || m.Transport[0] != "stdio" || len(m.AIP44().ACPRev) != 40 {
		t.Errorf("kind %s, transport %v, acp_rev %q: want a stdio bridge pinned to a full SHA", m.Kind, m.Transport, m.AIP44().ACPRev)
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("Load: %v\n%s", err, listErrors(err))
	}
}

func TestParseErrorPositions(t *testing.T) {
	// Positions are of the offending node, shifted by the opening "---".
	src := "---\nname: x\nid: x1\ndescription: d\nversion: 1.0\nkind: bridge\ntransport: stdio\nmetadata:\n  aip44:\n    acp_rev: abc1234\n    tier: premium\n---\n"
	_, err := Parse("ACP.md", []byte(src))
	var l ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("Parse error = %v, want ErrorList", err)
	}
	var got []string
	for _, e := range l {
		got = append(got, fmt.Sprintf("%d:%d %s", e.Line, e.Column, e.Field))
	}
	want := []string{"5:10 version", "11:11 metadata.aip44.tier"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

func TestCapabilities(t *testing.T) {
	head := "---\nname: x\nid: x1\ndescription: d\nversion: 1.0.0\nkind: bridge\ntransport: stdio\nmetadata:\n  aip44:\n    acp_rev: abc1234\n"
	tests := []struct {
		name string
		aip  string
		want []Capability
	}{
		{"basic grants no optional capability", "    tier: basic\n", nil},
		{"governance-aware adds loadSession and tool calls", "    tier: governance-aware\n",
			[]Capability{LoadSession, ToolCallStreaming}},
		{"sandboxed adds MCP", "    tier: sandboxed\n    sandbox: ./S.md\n",
			[]Capability{LoadSession, MCPHTTP, MCPSSE, ToolCallStreaming}},
		{"a declared client side replaces client defaults only",
			"    tier: governance-aware\n    capabilities:\n      client:\n        fs: {readTextFile: true}\n",
			[]Capability{ReadTextFile, LoadSession, ToolCallStreaming}},
		{"a declared agent side withholds what it omits",
			"    tier: sandboxed\n    sandbox: ./S.md\n    capabilities:\n      agent:\n        mcpCapabilities: {sse: true}\n",
			[]Capability{MCPSSE, ToolCallStreaming}},
		{"explicit grants on a basic tier",
			"    tier: basic\n    capabilities:\n      client: {terminal: true}\n      agent:\n        loadSession: true\n        promptCapabilities: {image: true, audio: true, embeddedContext: true}\n",
			[]Capability{Terminal, LoadSession, PromptImage, PromptAudio, PromptEmbeddedContext}},
		{"an empty map withholds both sides",
			"    tier: sandboxed\n    sandbox: ./S.md\n    capabilities: {client: {}, agent: {}}\n",
			[]Capability{ToolCallStreaming}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("ACP.md", []byte(head+tt.aip+"---\n"))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, m.Capabilities().List()); diff != "" {
				t.Errorf("capabilities (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCapabilityFields(t *testing.T) {
	// The ACP field names are those of the ACP schema (acp-go-sdk v0.13.0
	// schema/schema.json, InitializeRequest and InitializeResponse).
	want := map[Capability]string{
		ReadTextFile:          "clientCapabilities.fs.readTextFile",
		WriteTextFile:         "clientCapabilities.fs.writeTextFile",
		Terminal:              "clientCapabilities.terminal",
		LoadSession:           "agentCapabilities.loadSession",
		PromptImage:           "agentCapabilities.promptCapabilities.image",
		PromptAudio:           "agentCapabilities.promptCapabilities.audio",
		PromptEmbeddedContext: "agentCapabilities.promptCapabilities.embeddedContext",
		MCPHTTP:               "agentCapabilities.mcpCapabilities.http",
		MCPSSE:                "agentCapabilities.mcpCapabilities.sse",
		ToolCallStreaming:     "",
	}
	for c := Capability(0); c < numCapabilities; c++ {
		if got := c.ACPField(); got != want[c] {
			t.Errorf("%s.ACPField() = %q, want %q", c, got, want[c])
		}
	}
}

func TestBody(t *testing.T) {
	src := "\ufeff---\r\nname: x\r\nid: x1\r\ndescription: d\r\nversion: 1.0.0\r\nkind: bridge\r\ntransport: [stdio]\r\nmetadata:\r\n  aip44: {acp_rev: abc1234, tier: basic}\r\n--- \r\n# Title\r\n\r\nText.\r\n"
	m, err := Parse("ACP.md", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got, want := string(m.Body), "# Title\r\n\r\nText.\r\n"; got != want {
		t.Errorf("Body = %q, want %q", got, want)
	}
	if m.BodyLine != 11 {
		t.Errorf("BodyLine = %d, want 11", m.BodyLine)
	}
}

func TestSyntaxErrorLine(t *testing.T) {
	// The YAML library's own line is off by one for parser errors, or
	// names the enclosing construct; these are the lines a user needs.
	tests := []struct {
		name string
		src  string
		line int
	}{
		{"indented key", "---\nname: x\n  id: y\n---\n", 3},
		{"unclosed flow list", "---\nname: x\nid: [a, b\nkind: c\n---\n", 3},
		{"list item in a mapping", "---\nname: x\nid: y\n- z\n---\n", 4},
		{"dedented key", "---\nname: x\nmetadata:\n  a: 1\n b: 2\n---\n", 5},
		{"unclosed quote", "---\nname: 'x\n---\n", 2},
		{"reserved indicator", "---\nname: x\nid: @y\n---\n", 3},
		{"unknown anchor", "---\nname: x\nid: *unknown\n---\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("ACP.md", []byte(tt.src))
			var l ErrorList
			if !errors.As(err, &l) || len(l) != 1 {
				t.Fatalf("Parse error = %v, want one problem", err)
			}
			if !strings.HasPrefix(l[0].Msg, "YAML syntax error: ") {
				t.Errorf("message %q does not say it is a YAML syntax error", l[0].Msg)
			}
			if l[0].Line != tt.line || l[0].Column != 1 {
				t.Errorf("position %d:%d, want %d:1", l[0].Line, l[0].Column, tt.line)
			}
		})
	}
}

func TestNameRule(t *testing.T) {
	tests := []struct {
		name    string
		dir     string
		file    string
		git     bool // the directory is the root of a Git checkout
		mname   string
		wantErr string // empty if valid
	}{
		{"directory name", "my-agent", "ACP.md", false, "my-agent", ""},
		{"directory mismatch", "checkout", "ACP.md", false, "my-agent", `name: must equal the name of the directory holding ACP.md, "checkout"`},
		{"checkout root of any name", "checkout", "ACP.md", true, "my-agent", ""},
		{"sidecar prefix", "checkout", "my-agent.ACP.md", false, "my-agent", ""},
		{"sidecar in a checkout root still checked", "my-agent", "other.ACP.md", true, "my-agent", `name: must equal the prefix of the sidecar file name other.ACP.md, "other"`},
		{"bare .ACP.md is no sidecar", "my-agent", ".ACP.md", false, "my-agent", `cannot be checked: the manifest file is named ".ACP.md"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tt.dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.git {
				if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(dir, tt.file)
			src := "---\nname: " + tt.mname + "\nid: x1\ndescription: d\nversion: 1.0.0\nkind: client\ntransport: stdio\nmetadata:\n  aip44: {acp_rev: abc1234, tier: basic}\n---\n"
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Load: %v", err)
			case tt.wantErr != "" && err == nil:
				t.Errorf("Load succeeded, want %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr):
				t.Errorf("Load error %q, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestMergeKeys(t *testing.T) {
	// The anchor is defined in the merge itself: a key of its own at the
	// top level would be a field AIP-44 does not define.
	src := `---
name: merged
id: merged
description: Fields brought in with a YAML merge key; the manifest's own keys win.
<<: &common
  kind: client
  transport: stdio
  version: 9.9.9
version: 1.0.0
metadata:
  aip44:
    <<: [{acp_rev: abc1234}, {tier: sandboxed, acp_rev: fffffff}]
    tier: basic
---
`
	m, err := Parse("ACP.md", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	got := fmt.Sprintf("%s %s %s %s %s", m.Kind, m.Transport, m.Version, m.AIP44().ACPRev, m.AIP44().Tier)
	if want := "client [stdio] 1.0.0 abc1234 basic"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	// A problem in a merged value points at the anchor that defines it.
	_, err = Parse("ACP.md", []byte(strings.Replace(src, "kind: client", "kind: agent", 1)))
	if err == nil || !strings.Contains(err.Error(), "ACP.md:6:9: kind: must be one of client, server, bridge") {
		t.Errorf("Parse error %v, want it at the anchor's kind (6:9)", err)
	}
}
