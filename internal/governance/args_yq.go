package governance

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// mikefarah's yq reads files its expression names: load, load_str (and
// its other name strload), load_xml, load_props, load_base64 and any later
// load_ function open the file their argument names, relative to where
// yq runs, and yq prints or merges its content ("yq -n 'load_str(\".env\")'"
// prints .env). The expression is any word of the line (its first operand,
// after eval, e, eval-all or ea, or --expression's value), so every word of
// a yq form is read for such calls: a call whose argument is one string
// literal is decided as a read of that file, and any other call (a path
// computed by the expression, a string with escapes, a word computed when
// the line runs) needs approval. yq's --from-file takes the expression
// from a file the bridge does not read, which needs approval too.

// yqName matches yq and its release binaries' names (yq_linux_amd64, yq4).
var yqName = regexp.MustCompile(`^yq(?:[0-9._-].*)?$`)

// yqLoadCall finds a load call in a yq expression: the function's name and
// the opening parenthesis.
var yqLoadCall = regexp.MustCompile(`\b(?:load|strload|load_[A-Za-z0-9_]*)\s*\(`)

// yqStringArg matches a load call's argument when it is one plain string
// literal, without escapes, and the call's closing parenthesis.
var yqStringArg = regexp.MustCompile(`^\s*"([^"\\]*)"\s*\)`)

// yqLoadReads returns the files a yq form's expressions load, as reads,
// and a question for each load whose file the bridge cannot name.
func yqLoadReads(form []shellcmd.Word) []argWord {
	if !yqName.MatchString(filepath.Base(form[0].Text)) {
		return nil
	}
	var out []argWord
	ask := func(w shellcmd.Word, text, why string) {
		out = append(out, argWord{word: w, text: text, readOnly: true, unplaced: why, namedBy: "loaded by yq's expression"})
	}
	for i, w := range form[1:] {
		if w.Kind == shellcmd.Static && (w.Text == "--from-file" || strings.HasPrefix(w.Text, "--from-file=")) {
			ask(w, w.Text, "yq takes its expression from a file the bridge does not read, whose load calls may read any file")
			continue
		}
		locs := yqLoadCall.FindAllStringIndex(w.Text, -1)
		if len(locs) == 0 {
			continue
		}
		if w.Kind != shellcmd.Static {
			ask(w, w.Text, "yq's expression loads a file and is computed when the line runs")
			continue
		}
		for _, loc := range locs {
			m := yqStringArg.FindStringSubmatch(w.Text[loc[1]:])
			if m == nil {
				ask(w, w.Text[loc[0]:], "yq's expression loads a file whose name it computes or escapes")
				continue
			}
			out = append(out, argWord{word: w, text: m[1], readOnly: true, at: &form[i+1], namedBy: "loaded by yq's expression"})
		}
	}
	return out
}
