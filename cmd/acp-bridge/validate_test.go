package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

// testManifest returns the path of a manifest in internal/manifest/testdata.
func testManifest(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "internal", "manifest", "testdata"}, parts...)...)
}

func TestValidateText(t *testing.T) {
	valid := testManifest("valid", "hermes-client", "ACP.md")
	dup := testManifest("invalid", "transport-duplicate", "ACP.md")
	refs := testManifest("invalid", "missing-refs", "ACP.md")
	tests := []struct {
		name  string
		args  []string
		code  int
		lines []string
	}{
		{"one valid file", []string{valid}, 0, []string{
			valid + ": valid (kind client, tier governance-aware)",
		}},
		{"every problem of every file", []string{dup, valid, refs}, 1, []string{
			dup + ":10:5: transport[2]: duplicate of transport[0]",
			valid + ": valid (kind client, tier governance-aware)",
			refs + ":12:15: metadata.aip44.operator: referenced file " + filepath.Join(filepath.Dir(refs), "OPERATOR.md") + " does not exist",
			refs + ":13:17: metadata.aip44.governance: referenced file " + filepath.Join(filepath.Dir(refs), "GOVERNANCE.md") + " does not exist",
			refs + ":14:14: metadata.aip44.sandbox: referenced file " + filepath.Join(filepath.Dir(refs), "sandbox", "SANDBOX.md") + " does not exist",
			refs + ":17:12: metadata.aip44.audit.ref: referenced file " + filepath.Join(filepath.Dir(refs), "logs", "audit.jsonl") + " does not exist",
			refs + ":24:14: metadata.aip44.mcp_servers[1].ref: referenced file " + filepath.Join(filepath.Dir(refs), "absent.MCP.md") + " does not exist",
		}},
		{"unreadable file", []string{"no-such-dir/ACP.md"}, 1, []string{
			"no-such-dir/ACP.md: cannot read manifest: open no-such-dir/ACP.md: no such file or directory",
		}},
		{"no files", nil, 2, nil},
		{"unknown flag", []string{"--yaml", valid}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCmd(t, "", append([]string{"validate"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d (stderr: %s)", code, tt.code, stderr)
			}
			want := ""
			if tt.lines != nil {
				want = strings.Join(tt.lines, "\n") + "\n"
			}
			if stdout != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
			}
			if tt.code == 2 && !strings.Contains(stderr, "run 'acp-bridge validate --help' for usage") {
				t.Errorf("usage error without a pointer to the usage; stderr: %s", stderr)
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	valid := testManifest("valid", "guilde-acp", "ACP.md")
	bad := testManifest("invalid", "unknown-tier", "ACP.md")
	stdout, _, code := runCmd(t, "", "validate", "--json", valid, bad)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	var got validateReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if got.Valid || len(got.Files) != 2 {
		t.Fatalf("report: valid=%v with %d files, want false with 2", got.Valid, len(got.Files))
	}
	g, b := got.Files[0], got.Files[1]
	if !g.Valid || g.ID != "guilde-acp" || g.Kind != "server" || g.Tier != "sandboxed" || len(g.Problems) != 0 {
		t.Errorf("valid file reported as %+v", g)
	}
	if want := "agent.loadSession,agent.promptCapabilities.image,agent.promptCapabilities.embeddedContext,agent.mcpCapabilities.http,toolCallStreaming"; strings.Join(g.Grants, ",") != want {
		t.Errorf("grants %v, want %s", g.Grants, want)
	}
	if b.Valid || len(b.Problems) != 1 {
		t.Fatalf("invalid file reported as %+v", b)
	}
	p := b.Problems[0]
	if p.File != bad || p.Line != 11 || p.Column != 11 || p.Field != "metadata.aip44.tier" ||
		p.Msg != `must be one of basic, governance-aware, sandboxed (got "premium")` {
		t.Errorf("problem %+v", p)
	}

	stdout, _, code = runCmd(t, "", "validate", "--json", valid)
	if code != 0 || !strings.Contains(stdout, `"valid": true`) {
		t.Errorf("all-valid run: exit %d, output %s", code, stdout)
	}
}

// TestValidatePolicies checks that validate refuses a GOVERNANCE.md and a
// POLICY.md whose rules cannot mean what they look like, with every
// problem at file:line:col (testdata/validate-policies.golden), and
// accepts the repository's own policy files.
func TestValidatePolicies(t *testing.T) {
	errs := filepath.Join("..", "..", "internal", "governance", "testdata", "errors", "unclear-rules")
	stdout, stderr, code := runCmd(t, "", "validate", filepath.Join(errs, "GOVERNANCE.md"), filepath.Join(errs, "policies", "p", "POLICY.md"))
	if code != 1 {
		t.Errorf("exit status %d, want 1 (stderr: %s)", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "validate-policies.golden"), []byte(filepath.ToSlash(stdout)))

	stdout, stderr, code = runCmd(t, "", "validate", "../../GOVERNANCE.md", "../../policies/governance-self-edit/POLICY.md")
	want := "../../GOVERNANCE.md: valid (governance)\n../../policies/governance-self-edit/POLICY.md: valid (policy)\n"
	if code != 0 || stdout != want {
		t.Errorf("validate of the repository's policy = %d %q (stderr %s); want 0 %q", code, stdout, stderr, want)
	}
}

// TestValidatePolicyWarnings: a GOVERNANCE.md whose extends parent is missing
// is valid, as the bridge loads it, and validate says what it ignored, as
// policy check and the bridge do: on stderr, and as warnings with --json.
func TestValidatePolicyWarnings(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "GOVERNANCE.md")
	body := "---\nschema: governance.workspace/v1\nname: test-policy\ntitle: T\ndescription: D\nversion: 1.0.0\n" +
		"extends: ./missing/GOVERNANCE.md\nrules:\n  default: ask\n---\n"
	if err := os.WriteFile(policy, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	const warning = ":7: governance_extends_missing: ./missing/GOVERNANCE.md not found; ignored"
	stdout, stderr, code := runCmd(t, "", "validate", policy)
	if code != 0 || stdout != policy+": valid (governance)\n" {
		t.Errorf("validate = %d %q, want 0 and valid", code, stdout)
	}
	if !strings.HasPrefix(stderr, "warning: ") || !strings.Contains(stderr, warning) {
		t.Errorf("stderr = %q, want a warning ending %q", stderr, warning)
	}
	stdout, _, code = runCmd(t, "", "validate", "--json", policy)
	var report validateReport
	if err := json.Unmarshal([]byte(stdout), &report); err != nil || code != 0 {
		t.Fatalf("validate --json = %d %q: %v", code, stdout, err)
	}
	if w := report.Files[0].Warnings; len(w) != 1 || !strings.HasSuffix(w[0], warning) {
		t.Errorf("--json warnings = %q, want one ending %q", w, warning)
	}
}
