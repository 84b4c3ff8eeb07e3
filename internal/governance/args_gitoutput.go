package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitDiffWriters are git's subcommands that take the diff options, whose
// --output=FILE writes what the command prints to FILE: "git diff
// --output=keys/a.key" replaces keys/a.key with a diff.
var gitDiffWriters = map[string]bool{"diff": true, "log": true, "show": true, "whatchanged": true,
	"diff-files": true, "diff-index": true, "diff-tree": true, "format-patch": true, "range-diff": true}

// gitOutputWrites returns the files a git command of gitDiffWriters
// writes by an option: the diff options' --output (as --output=FILE or
// --output FILE; git takes no shorter spelling, --output-indicator-* also
// beginning so), and format-patch's -o DIR, -oDIR and --output-directory
// (or a prefix of it past "--output-"), the directory its patches are
// written into. Each is decided as a write, relative to the directory
// git's -C options lead to.
func gitOutputWrites(form []shellcmd.Word) []argWord {
	g := shellcmd.GitOptions(form)
	if g.At >= len(form) || form[g.At].Kind != shellcmd.Static || !gitDiffWriters[form[g.At].Text] {
		return nil
	}
	base := ""
	for _, d := range g.Dirs {
		base = joinRaw(base, d.Text)
	}
	patches := form[g.At].Text == "format-patch"
	var out []argWord
	add := func(w shellcmd.Word, v string) {
		if w.Kind == shellcmd.Dynamic || v == "" {
			out = append(out, argWord{word: w, text: w.Text, write: true})
			return
		}
		out = append(out, argWord{word: w, text: joinRaw(base, v), write: true})
	}
	args := form[g.At+1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.Text
		if w.Kind == shellcmd.Static && t == "--" {
			break
		}
		next := func() {
			if i+1 < len(args) {
				i++
				add(args[i], args[i].Text)
			}
		}
		name, value, eq := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		switch {
		case !strings.HasPrefix(t, "--") && patches && strings.HasPrefix(t, "-o"):
			if t == "-o" {
				next()
			} else {
				add(w, t[2:])
			}
		case !strings.HasPrefix(t, "--"):
		case name == "output" || patches && len(name) > len("output-") && strings.HasPrefix("output-directory", name):
			if eq {
				add(w, value)
			} else {
				next()
			}
		}
	}
	return out
}
