package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAACPValidateCLI(t *testing.T) {
	valid := filepath.Join("..", "..", "internal", "aacp", "testdata", "valid", "draft-examples.aacp")
	invalid := filepath.Join("..", "..", "internal", "aacp", "testdata", "invalid", "required.aacp")
	if _, _, code := runCmd(t, "", "aacp", "validate", valid); code != 0 {
		t.Fatalf("validate of the draft's examples exited %d", code)
	}
	out, _, code := runCmd(t, "", "aacp", "validate", invalid)
	if code != 1 {
		t.Fatalf("validate of invalid packets exited %d, want 1", code)
	}
	golden, err := os.ReadFile(strings.TrimSuffix(invalid, ".aacp") + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	// Every diagnostic the package's golden file expects is printed, located
	// by file:line:col.
	for _, line := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasSuffix(line, "rejected") || strings.HasSuffix(line, "accepted") {
			continue
		}
		if i := strings.LastIndex(line, " ["); i > 0 {
			line = line[:i] // the golden file tags the field; the CLI does not
		}
		if !strings.Contains(out, "/"+line) {
			t.Errorf("output lacks %q\noutput:\n%s", line, out)
		}
	}
	if !strings.Contains(out, invalid+":") {
		t.Errorf("diagnostics do not name the file:\n%s", out)
	}
	// --json is machine-readable, packets on stdin work.
	jout, _, code := runCmd(t, "TASK|DOM\n", "aacp", "validate", "--json")
	if code != 1 || !json.Valid([]byte(jout)) {
		t.Fatalf("--json on stdin: exit %d, output %q", code, jout)
	}
	if _, _, code := runCmd(t, "", "aacp", "validate", "/no/such/file"); code != 2 {
		t.Fatalf("unreadable file: exit %d, want 2", code)
	}
}

func TestAACPEncodeCLI(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "registry.json")
	instr := "Process the invoice from supplier ABC Ltd for £4,200, match it against PO 441, payment terms net 30.\n"
	first, _, code := runCmd(t, instr, "aacp", "encode", "--registry", reg)
	if code != 0 || !strings.Contains(first, "aacp:") {
		t.Fatalf("encode: exit %d, output %q", code, first)
	}
	second, _, _ := runCmd(t, instr, "aacp", "encode", "--registry", reg)
	if first != second {
		t.Fatalf("encoding is not deterministic:\n%s\n%s", first, second)
	}
	// Whatever the encoder produced validates.
	if out, _, code := runCmd(t, first, "aacp", "validate"); code != 0 {
		t.Fatalf("encoded packet does not validate: %s", out)
	}
}

// TestAACPEncodeNoEncoder: an instruction no rule covers is reported, with
// exit status 1, rather than guessed.
func TestAACPEncodeNoEncoder(t *testing.T) {
	_, errOut, code := runCmd(t, "Pull the Q3 aging report for all vendors\n", "aacp", "encode", "--registry", filepath.Join(t.TempDir(), "r.json"))
	if code != 1 || !strings.Contains(errOut, "no encoder") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
