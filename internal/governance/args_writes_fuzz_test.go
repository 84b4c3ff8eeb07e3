package governance

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// FuzzWrittenWords checks that reading any command's words for the files
// it writes never panics, names only words of the command after its
// program, and that each value writtenValue takes from an option word is
// the rest of that word.
func FuzzWrittenWords(f *testing.F) {
	for _, s := range []string{"sed -i s/a/b/ f", "sed -ni.bak -e x f g", "sed --in -f s f", "chmod -w f", "truncate -s 0 f",
		"sort -o f a", "sort -of a", "sort --output=f a", "uniq a b", "mv -t d a b", "setfacl -m u:x:rw f", "rm -- -f", "touch -d",
		"ssh -o UserKnownHostsFile=f h", "scp -oControlPath=x a b", "curl -w %output{f}x u", "find d -exec env sed -i x {} +",
		"python3 -W x s.py f", "git interpret-trailers --in-place f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var form []shellcmd.Word
		for _, w := range strings.Fields(line) {
			form = append(form, shellcmd.Word{Kind: shellcmd.Static, Text: w})
		}
		for i := range writtenWords(form) {
			if i < 1 || i >= len(form) {
				t.Fatalf("%q: word %d written, outside 1..%d", line, i, len(form)-1)
			}
		}
		if len(form) == 0 {
			return
		}
		// The files named inside an option's value are parts of its words.
		for _, a := range optionValueWrites(form) {
			if !strings.Contains(line, a.text) {
				t.Fatalf("%q: %q named inside an option's value is not in the line", line, a.text)
			}
		}
		if s := interpreterScript(filepath.Base(form[0].Text), form); s != nil && !strings.Contains(line, s.Text) {
			t.Fatalf("%q: script %q is not a word of the line", line, s.Text)
		}
		mayWriteOperands(form, true)
		findExecWrites(form)
		for _, w := range form[1:] {
			if v, ok := writtenValue(filepath.Base(form[0].Text), w.Text); ok && !strings.HasSuffix(w.Text, v) {
				t.Fatalf("%q: %q gives %q, not the rest of the word", line, w.Text, v)
			}
		}
	})
}
