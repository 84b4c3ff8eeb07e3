package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// diff prints the lines of the files it compares: given two directories
// ("diff . /elsewhere", "diff -r a b", "git diff --no-index a b") it
// compares every file of the same name in both, .env with .env, without
// naming them; given a file and a directory it reads the file of the
// same name in the directory. So each operand (and the value of
// --from-file/--to-file) is read whole, followed through links as diff
// follows them, whether or not -r is given: the walk is stricter than a
// diff without -r, which reads only the top of each directory. Operands
// that are files are walked as nothing (treeReadVerdict) and judged as
// the command's other files are (decideArgs).

// diffOpts are GNU diff's options that take the next word as their value.
var diffOpts = optSet{shortValue: "CDFILSUWXx", longValue: map[string]bool{"context": true, "unified": true,
	"ifdef": true, "show-function-line": true, "label": true, "width": true, "tabsize": true, "exclude": true,
	"exclude-from": true, "starting-file": true, "ignore-matching-lines": true, "old-group-format": true,
	"new-group-format": true, "unchanged-group-format": true, "changed-group-format": true, "line-format": true,
	"old-line-format": true, "new-line-format": true, "unchanged-line-format": true, "horizon-lines": true,
	"color": false, "palette": true, "from-file": true, "to-file": true}}

// diffRead is what "diff" (or "colordiff", which runs it) reads whole.
func diffRead(name string, form []shellcmd.Word) (treeRead, bool) {
	opts, operands, unknown := splitWords(form[1:], diffOpts.takesValue)
	for i, t := range opts {
		for _, o := range []string{"--from-file", "--to-file"} {
			switch {
			case strings.HasPrefix(t, o+"="):
				operands = append(operands, t[len(o)+1:])
			case t == o && i+1 < len(opts):
				operands = append(operands, opts[i+1])
			}
		}
	}
	return treeRead{reader: name, dirs: operands, follow: true, cwd: unknown}, true
}

// gitDiffNoIndexRead reads "git [-C dir] diff --no-index A B": git compares
// two paths of the file system, directories whole, as diff -r does.
func gitDiffNoIndexRead(form []shellcmd.Word) (treeRead, bool) {
	base, i, ok := gitSubcommand(form, "diff")
	if !ok {
		return treeRead{}, false
	}
	var operands []string
	noIndex, unknown := false, false
	for j, w := range form[i+1:] {
		if w.Kind == shellcmd.Dynamic {
			unknown = true
			continue
		}
		switch t := w.Text; {
		case t == "--no-index":
			noIndex = true
		case t == "--":
			for _, r := range form[i+2+j:] {
				operands = append(operands, r.Text)
			}
		case strings.HasPrefix(t, "-"):
		default:
			operands = append(operands, t)
			continue
		}
		if w.Text == "--" {
			break
		}
	}
	if !noIndex {
		return treeRead{}, false
	}
	return treeRead{reader: "git diff --no-index", dirs: operands, base: base, follow: true, cwd: unknown}, true
}
