package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A program may write a file under a name it computes from words of the
// line, which no word holds whole: split's and csplit's pieces (a prefix,
// then letters or a number, then a suffix), the backup cp makes under a
// suffix SIMPLE_BACKUP_SUFFIX may give. Such a name is given to decideArg
// with its static pieces (argWord.pieces), and refused by
// self-protection where they could join to a protected location, as a
// word built at run time is (protectedCommand, couldJoin): the person
// who approves "csplit -f GOVERNANCE. -b md%.0d notes.txt 1" cannot be
// expected to see that it empties the policy.

// shellPiece returns the shell source of w: a static word's text single
// quoted, a word built at run time as written (its expansions marking
// where staticPieces splits it).
func shellPiece(w shellcmd.Word) string {
	if w.Kind == shellcmd.Dynamic {
		return w.Text
	}
	return "'" + strings.ReplaceAll(w.Text, "'", `'\''`) + "'"
}

// formatPieces returns the shell source of a printf-like format (csplit's
// -b) with each conversion ("%02d", "%x") as an expansion ($_) and the
// text between as quoted static text ("%%" is a "%"); a format with no
// conversion gets one at its end, so the name is never taken as whole.
func formatPieces(f string) string {
	var b strings.Builder
	lit := ""
	conv := false
	flush := func() {
		if lit != "" {
			b.WriteString(shellPiece(shellcmd.Word{Kind: shellcmd.Static, Text: lit}))
			lit = ""
		}
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			lit += string(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			lit += "%"
			i++
			continue
		}
		// flags, width and precision, then the conversion letter
		j := i + 1
		for j < len(f) && strings.IndexByte("#0- +'.123456789*lhqjzt", f[j]) >= 0 {
			j++
		}
		flush()
		b.WriteString("$_")
		conv = true
		i = j // past the conversion letter
	}
	flush()
	if !conv {
		b.WriteString("$_")
	}
	return b.String()
}

// computedNameProtected denies the name a.pieces gives (a name a program
// computes, argWord.pieces) where those pieces could join to a protected
// location, or the backup of a.backupOf under a suffix holding no "/"
// where a protected file is named so, in each directory its command may
// run in (dir), as protectedCommand denies a word built at run time.
func (e *Engine) computedNameProtected(in *reqInfo, a argWord, what string, dir shellcmd.Dir) (verdict, bool) {
	list := e.protectedFor(in)
	if len(list) == 0 {
		return verdict{}, false
	}
	dirs := e.dirsOrRoots(in, dir)
	if len(dirs) == 0 {
		dirs = []string{filepath.Clean(in.req.Cwd)}
	}
	for _, cwd := range dirs {
		var cw cmdWords
		if len(a.pieces) > 0 {
			cw.addPieces(a.pieces, cwd)
		}
		var of string // a.backupOf from cwd, in lower case
		if b := path.Base(a.backupOf); a.backupOf != "" && b != "." && b != ".." && !strings.HasSuffix(a.backupOf, "/") {
			of = strings.ToLower(filepath.Join(cwd, a.backupOf))
		}
		inCwd := strings.TrimSuffix(strings.ToLower(cwd), "/") + "/"
		for _, pr := range list {
			for j := range pr.forms {
				lower := pr.lower[j]
				short := shortNames(&pr, j, inCwd)
				needles := short[:]
				rest, after := strings.CutPrefix(lower, of)
				if of != "" && after && rest != "" && !strings.Contains(rest, "/") || len(a.pieces) > 0 && cw.names(lower, needles, pr.Rotated) {
					return verdict{value: Deny, ref: "self-protection",
						ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
						reason: fmt.Sprintf("%s: the name is computed when the line runs from pieces that could make %s (%s), which is protected from the agent, whatever the policy says", what, pr.What, pr.forms[j])}, true
				}
			}
		}
	}
	return verdict{}, false
}

// perlBackupWrites returns the backups perl's and ruby's -i make of each
// file they edit in place when given an extension ("-i.md", "-pi'*.md'"):
// the file's name followed by it, or, where it holds a "*", the
// extension with each "*" the file's name. "perl -i.md -pe 1 GOVERNANCE"
// renames the agent's GOVERNANCE over the policy GOVERNANCE.md. Every
// operand counts (the script's name too, where no -e gives the code); an
// extension computed when the line runs is a computed write.
func perlBackupWrites(form []shellcmd.Word) []argWord {
	var ext *shellcmd.Word
	var ops []shellcmd.Word
	opts := true
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		switch {
		case !opts || len(t) < 2 || t[0] != '-':
			opts = false // perl reads no option after its first operand
			ops = append(ops, w)
			continue
		case t == "--":
			opts = false
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c == 'i' {
				if j+1 < len(t) {
					ext = &shellcmd.Word{Kind: w.Kind, Text: t[j+1:]}
				}
				break
			}
			if strings.IndexByte("eEIMmxdDCl0F", c) >= 0 {
				if (c == 'e' || c == 'E') && j+1 == len(t) {
					i++ // the code
				}
				break // the rest is the option's value
			}
		}
	}
	if ext == nil || ext.Text == "" {
		return nil
	}
	if ext.Kind == shellcmd.Dynamic {
		var out []argWord
		for _, f := range ops {
			out = append(out, argWord{word: *ext, text: ext.Text, write: true,
				pieces: staticPieces(shellPiece(f) + ext.Text)})
		}
		if out == nil {
			out = []argWord{{word: *ext, text: ext.Text, write: true}}
		}
		return out
	}
	var out []argWord
	add := func(n string) {
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
	}
	for _, w := range ops {
		if w.Kind == shellcmd.Dynamic {
			out = append(out, argWord{word: w, text: w.Text, write: true, pieces: staticPieces(w.Text + shellPiece(*ext))})
			continue
		}
		f := w.Text
		if !strings.Contains(ext.Text, "*") {
			add(f + ext.Text)
			continue
		}
		add(strings.ReplaceAll(ext.Text, "*", f))
		if b := strings.ReplaceAll(ext.Text, "*", path.Base(f)); b != strings.ReplaceAll(ext.Text, "*", f) {
			add(b)
		}
	}
	return out
}

// namesAbove returns name joined to each directory above dir up to the
// workspace root dir lies beneath, nothing when dir is beneath none.
func namesAbove(roots []string, dir, name string) []string {
	var out []string
	for _, r := range roots {
		if len(dir) <= len(r) || dir[len(r)] != '/' || dir[:len(r)] != r {
			continue
		}
		for d := filepath.Dir(dir); len(d) >= len(r); d = filepath.Dir(d) {
			out = append(out, filepath.Join(d, name))
			if len(d) == len(r) {
				break
			}
		}
		return out
	}
	return out
}

// createdIfMissing reports whether the name p leads to nothing (a dangling
// link included) in a directory that exists: any command that opens it
// for writing creates it, and which commands do is not in the line.
func createdIfMissing(p string) bool {
	if err := statError(p); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return statError(filepath.Dir(p)) == nil
}

// createdIfMissingLooked is createdIfMissing(p) for a path whose facts f
// the decision has (f.p is p): one that leads to a file (the resolution's
// last lstat found it) is not missing, with no lookup; for one whose
// resolution met a missing element the directory is asked about first,
// which is missing too more often than not, and p only when it exists.
func createdIfMissingLooked(f *pathFacts, p string) bool {
	switch {
	case f.refusal != nil:
	case f.last.fi != nil:
		return false
	case f.last.missing:
		if statError(filepath.Dir(p)) != nil {
			return false
		}
		return errors.Is(statError(p), fs.ErrNotExist)
	}
	return createdIfMissing(p)
}

// runtimeName is the verdict on a file whose name the shell computes only
// when the line runs ("cat $f", "cat $(echo .env)", "cat ~-/x", a name
// from the request's env): it may be any file, one a rule denies or one
// outside the workspace, so the person is asked.
func runtimeName(what string) verdict {
	return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: what + ": the file's name is not known until the line runs"}
}
