package shellcmd

import (
	"os/exec"
	"slices"
	"testing"
)

// TestZshANSIC: a $'...' string is decoded as zsh itself decodes it.
func TestZshANSIC(t *testing.T) {
	for _, body := range []string{`\.env`, `r\m`, `\q\w\y\z`, `\C-a\C-?\M-r`, `\cr`, `\x`, `\x7g`, `\x72m`, `\0162m`, `\162m`, `\u0072\U00000072`,
		`a\nb\tc\e\E\a\b\f\v\r`, `\\ \' \"`, `\1620`, `\u00e9`} {
		out, err := exec.Command("zsh", "-f", "-c", `printf '%s' $'`+body+`'`).Output()
		if err != nil {
			t.Fatalf("zsh %q: %v", body, err)
		}
		if got := zshANSIC(body); got != string(out) {
			t.Errorf("zshANSIC(%q) = %q; zsh decodes %q", body, got, out)
		}
	}
}

// TestZshDollarQuotedWords: a line whose $'...' string zsh decodes
// otherwise than bash is read as zsh reads it too.
func TestZshDollarQuotedWords(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`$'r\m' x`, "rm x"},
		{`cat $'\.env'`, "cat .env"},
		{`rm$'\C-@x' x`, "rm x"},
	} {
		if forms := formsOf(Analyze(c.line, Options{})); !slices.Contains(forms, c.want) {
			t.Errorf("Analyze(%q): forms %q; want %q among them", c.line, forms, c.want)
		}
	}
}
