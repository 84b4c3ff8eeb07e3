package shellcmd

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestANSICAsBash decodes $'...' strings as bash does: each body below is
// printed by the bash on PATH and compared byte for byte (up to a NUL,
// where bash ends the word). The bodies include \x{HH} and \cX, which
// bash decodes, so $'\x{72}m' reads as rm, as bash runs it.
func TestANSICAsBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bash is required to check $'...' decoding, and is not on PATH: %v", err)
	}
	bodies := []string{
		`\x{72}m`, `\x{0072}m`, `\x{172}m`, `\x{}m`, `\x{72m`, `\x{7fffffff}m`, `\x{1ff}m`, `\x{100}m`,
		`\x72m`, `\x7m`, `\xm`, `\xgm`, `\x{g}m`, `\162m`, `\0162m`, `\01m`, `\8m`, `\400m`, `\777m`,
		`\u72m`, `\u0072m`, `\u{72}m`, `\U72m`, `\U00000072m`, `\um`, `\Um`,
		`\crm`, `\cRm`, `\c?m`, `\c@m`, `\cm`, `\c\\m`, `\c\m`, `\cA\cBm`, `\c[m`, `\c1m`, `\c~m`,
		`\e\E\a\b\f\n\r\t\vm`, `\?\"\\m`, `x\'y`, `\zm`, `\ m`, `a\0b`, `\0`, `.\x{65}nv`, `GOVERNANCE.\x{6d}d`,
		`\x{65`, `é\x{e9}`,
	}
	var script strings.Builder
	for _, b := range bodies {
		fmt.Fprintf(&script, "printf '%%s' $'%s' | od -An -tx1 | tr -d ' \\n'; echo\n", b)
	}
	out, err := exec.Command("bash", "-c", script.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(bodies) {
		t.Fatalf("bash printed %d lines for %d strings", len(lines), len(bodies))
	}
	for i, body := range bodies {
		got, _, _ := strings.Cut(ansiC(body), "\x00")
		var hex strings.Builder
		for _, c := range []byte(got) {
			fmt.Fprintf(&hex, "%02x", c)
		}
		if hex.String() != lines[i] {
			t.Errorf("$'%s': got %s, bash %s", body, hex.String(), lines[i])
		}
	}
}
