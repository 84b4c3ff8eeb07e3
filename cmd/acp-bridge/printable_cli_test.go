package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/terminaltest"
)

// hostileText holds characters a terminal acts on or prints as nothing
// (a Hangul filler, a variation selector, the braille blank, a
// right-to-left override, a zero-width space, a C1 CSI): text the agent
// chose, which a person copies into 'policy check' or which ends up in a
// policy's rule.
const hostileText = "\u3164\ufe0f\u2800\u202e\u200b\u009b2J"

// checkPrintableOut fails t when out holds a character a terminal acts on
// or prints as nothing.
func checkPrintableOut(t *testing.T, what, out string) {
	t.Helper()
	terminaltest.CheckPrintable(t, what, out, "\x00never")
	if strings.ContainsAny(out, "\u2800\u3164") {
		t.Errorf("%s printed a character that prints as nothing:\n%s", what, out)
	}
}

// TestPolicyCheckAndValidatePrintable runs 'policy check' on a command and
// a path, 'validate' and the bridge itself on a policy whose rules (and
// directory) hold such characters, and checks what reaches standard
// output and standard error: each written as an escape, the JSON reports
// still JSON of the same text.
func TestPolicyCheckAndValidatePrintable(t *testing.T) {
	root := t.TempDir()
	good := writePolicy(t, root, "  default: ask\n  allow: [Read]\n")
	dir := filepath.Join(root, "p"+hostileText)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := writePolicy(t, dir, "  default: ask\n  deny: [\"Bash(rm"+hostileText+":*)\"]\n  allow: [\"Read(./a"+hostileText+"/**)\"]\n")
	cmdLine := "cat a" + hostileText + " && rm" + hostileText + " x"
	runs := []struct {
		name string
		args []string
		json bool
	}{
		{"policy check --command", []string{"policy", "check", "--policy", good, "--workspace-root", root, "--cwd", root, "--command", cmdLine}, false},
		{"policy check --path", []string{"policy", "check", "--policy", good, "--workspace-root", root, "--cwd", root, "--path", "a" + hostileText, "--action", "fs.read"}, false},
		{"policy check --json", []string{"policy", "check", "--policy", good, "--workspace-root", root, "--cwd", root, "--command", cmdLine, "--json"}, true},
		{"policy check of a bad policy", []string{"policy", "check", "--policy", bad}, false},
		{"validate", []string{"validate", bad}, false},
		{"validate --json", []string{"validate", "--json", bad}, true},
		{"the bridge under a bad policy", []string{"--policy", bad, "--", "true"}, false},
	}
	for _, r := range runs {
		stdout, stderr, _ := runProcess(t, bridgeCommand(t, r.args...), "")
		if stdout+stderr == "" {
			t.Fatalf("%s printed nothing", r.name)
		}
		if !strings.Contains(stdout+stderr, `\u{3164}\u{FE0F}\u{2800}`) && !strings.Contains(stdout+stderr, `\u3164\ufe0f\u2800`) {
			t.Errorf("%s does not show the characters as escapes:\n%s%s", r.name, stdout, stderr)
		}
		checkPrintableOut(t, r.name+" (stdout)", stdout)
		checkPrintableOut(t, r.name+" (stderr)", stderr)
		if r.json {
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Errorf("%s: not JSON: %v\n%s", r.name, err, stdout)
			}
			if b, _ := json.Marshal(v); !strings.Contains(string(b), hostileText) {
				t.Errorf("%s: the JSON lost the text:\n%s", r.name, stdout)
			}
		}
	}
}
