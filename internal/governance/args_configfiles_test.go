package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestConfigFiles: the files a curl or wget configuration file the line
// names makes the program write are decided as the same options on the
// line are: a rule refusing to edit one refuses the command; a file the
// bridge cannot read needs approval.
func TestConfigFiles(t *testing.T) {
	root := tempTree(t, []string{"secrets"}, []string{"secrets/a.key"})
	for name, text := range map[string]string{
		"quoted.cfg": "# a comment\noutput = \"secrets/a.key\"\n",
		"dashed.cfg": "-o secrets/a.key\n",
		"colon.cfg":  "silent\noutput: secrets/a.key\n",
		"nested.cfg": "config = quoted.cfg\n",
		"remote.cfg": "remote-name\n",
		"plain.cfg":  "silent\nlocation\noutput = out.txt\n",
		"wgetrc":     "# options\noutput_document = secrets/a.key\n",
		"wgetrc.ok":  "tries = 3\n",
		"upper.cfg":  "OUTPUT = secrets/a.key\n",
		"stdin.cfg":  "output = /dev/stdin\n",
		"vtab.cfg":   "output\vsecrets/a.key\n",
		"ffeed.cfg":  "output\f=\fsecrets/a.key\r\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkPolicyLines(t, root, "config_files_lines.txt", nil,
		"  default: allow\n  deny:\n    - Edit(./secrets/*.key)\n")
}

// FuzzConfigWords: any configuration text gives static words and no
// panic, and a curl option line's value survives as one word.
func FuzzConfigWords(f *testing.F) {
	f.Add("output = \"a b\\\"c\"\n-o x\n# c\nconfig: y\n")
	f.Add("output_document = f\n\n  tries=3")
	f.Add("\"\\")
	f.Fuzz(func(t *testing.T, text string) {
		for _, words := range [][]shellcmd.Word{curlConfigWords(text), wgetrcWords(text)} {
			for _, w := range words {
				if w.Kind != shellcmd.Static {
					t.Fatalf("%q gave a word that is not static", text)
				}
			}
		}
		if v := curlConfigValue(`"` + strings.ReplaceAll(strings.ReplaceAll(text, `\`, `\\`), `"`, `\"`) + `"`); v != text {
			t.Fatalf("quoted %q read back as %q", text, v)
		}
	})
}
