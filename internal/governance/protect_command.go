package governance

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
	"mvdan.cc/sh/v3/syntax"
)

// protectedCommand denies a command line run inside a protected directory,
// or that names a protected location:
// its path as written in absolute form, relative to the command's
// directory, or (for a file) by its name alone where it stands as a file
// name (namesIn), anywhere in the line once quotes and backslashes are
// taken out (so `> GOVERN”ANCE.md` and
// redirections count), or a glob word that can expand to it; and, on the
// words the shell parser computes (quotes removed, $'..' decoded, braces
// expanded, as decideCommand sees them), a word that is it or holds it,
// and a word built at run time ($X, $(...)) whose static parts could join
// to it. A command can do anything to a file it names, so reads count
// too; see docs/security.md.
func (e *Engine) protectedCommand(in *reqInfo) (verdict, bool) {
	list := e.protectedFor(in)
	if len(list) == 0 {
		return verdict{}, false
	}
	line := in.req.Command + " " + strings.Join(in.req.Argv, " ")
	cwd := filepath.Clean(in.req.Cwd)
	lines := e.scriptLines(in)
	lcwd := in.facts(cwd).lowerForms()
	t := e.lineTextOf(in, list, line, lines, cwd)
	switch pr, pf, inside := commandPlaceHit(list, lcwd, t.named); {
	case pr == nil:
	case inside:
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: fmt.Sprintf("deny commands run inside %s (built-in self-protection)", pr.What),
			reason: fmt.Sprintf("running %q in %s: the directory is %s, which is protected from the agent, whatever the policy says", strings.TrimSpace(line), cwd, pr.What)}, true
	default:
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: fmt.Sprintf("deny commands naming %s (built-in self-protection)", pr.What),
			reason: fmt.Sprintf("running %q: it names %s (%s), which is protected from the agent, whatever the policy says", strings.TrimSpace(line), pr.What, pf)}, true
	}
	if v, ok := e.protectedScripts(in, list, lines, cwd); ok {
		return v, true
	}
	if v, ok := e.generateProtected(in, lines, cwd); ok {
		return v, true
	}
	if v, ok := e.protectedOperands(in, list, line, lines, cwd, t.names, t.namesOK); ok {
		return v, true
	}
	if v, ok := e.selfWrittenScripts(in, lines, cwd); ok {
		return v, true
	}
	return e.lookupLimit(in, lines, cwd)
}

// commandPlaceHit returns the first location of list, in its order, that
// a command's directory is in (inside; lcwd are the directory's forms in
// lower case) or whose form pf is the one of index named, counting every
// form of every location in order (lineText.named); nil for none.
func commandPlaceHit(list []protected, lcwd []string, named int) (hit *protected, pf string, inside bool) {
	var startsBuf [2]byteSet
	starts := bufSlice(startsBuf[:], len(lcwd))
	var all byteSet // of every form of the directory
	for i, c := range lcwd {
		starts[i] = elementStarts(c)
		all = all.union(starts[i])
	}
	k := 0 // the index of pr's form j
	for i := 0; i < len(list); i++ {
		pr := &list[i]
		if (named < k || named >= k+pr.run.forms) && pr.run.passes(all) {
			// The directory is in no location of the run, and the
			// line names none of its forms (protect_runs.go).
			k += pr.run.forms
			i += pr.run.n - 1
			continue
		}
		for j, pf := range pr.forms {
			for ci, c := range lcwd {
				// Not beneath pr when far (see protected.tail).
				far := pr.tail && !starts[ci].has(pr.lrel[0])
				if !far && beneath(pr.lower[j], c) {
					return pr, pf, true
				}
			}
			if k == named {
				return pr, pf, false
			}
			k++
		}
	}
	return nil, "", false
}

// cmdWords are the words of a command line as the shell parser computes
// them, in lower case: static values (and their paths resolved against
// the command's directory) and the static pieces of words built at run
// time.
type cmdWords struct {
	static []string   // values, and absolute cleaned forms of them
	pieces [][]string // per run-time word: its static pieces, split where it expands; first and last may be ""
}

// commandWords collects the words of every form and redirection of the
// analyses of a command line (commandLines).
func commandWords(lines []*shellcmd.Analysis, cwd string) cmdWords {
	var cw cmdWords
	add := func(w shellcmd.Word) {
		switch w.Kind {
		case shellcmd.Static:
			v := strings.ToLower(w.Text)
			if v == "" {
				return
			}
			cw.static = append(cw.static, v)
			if !strings.HasPrefix(v, "/") {
				v = cwd + "/" + v
			}
			cw.static = append(cw.static, strings.ToLower(filepath.Clean(v)))
		case shellcmd.Dynamic:
			if p := staticPieces(w.Text); p != nil {
				cw.addPieces(p, cwd)
			}
		}
	}
	eachWord(lines, add)
	cw.addVarWords(lines, cwd, add)
	return cw
}

// addPieces adds the static pieces p of a word built at run time
// (staticPieces), and, for a relative one, the same with its first piece
// joined to cwd.
func (cw *cmdWords) addPieces(p []string, cwd string) {
	if !strings.HasPrefix(p[0], "/") {
		// the expansion may start with anything, so only a
		// first piece after it is relative to the directory
		abs := append([]string(nil), p...)
		if p[0] != "" {
			abs[0] = strings.ToLower(filepath.Clean(cwd + "/" + p[0]))
			if strings.HasSuffix(p[0], "/") && abs[0] != "/" {
				abs[0] += "/"
			}
			cw.pieces = append(cw.pieces, abs)
		}
	}
	cw.pieces = append(cw.pieces, p)
}

// staticPieces parses a word as written and returns its static pieces in
// lower case, split at each expansion done at run time: ["pre", "", "suf"]
// for pre${X}$(y)suf. It returns nil for a word that does not parse or
// holds no expansion.
func staticPieces(text string) []string {
	call := oneWordCall(text)
	if call == nil {
		return nil
	}
	out := []string{""}
	lit := func(s string) { out[len(out)-1] += strings.ToLower(s) }
	cut := func() {
		if out[len(out)-1] != "" || len(out) == 1 {
			out = append(out, "")
		}
	}
	split := false
	for _, part := range call.Args[0].Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			lit(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			lit(p.Value)
		case *syntax.DblQuoted:
			split = split || p.Dollar // $"..." is translated at run time, usually to itself
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					lit(l.Value)
				} else {
					cut()
					split = true
				}
			}
		default:
			cut()
			split = true
		}
	}
	if !split {
		return nil
	}
	return out
}

// names reports whether the words name the protected location lower
// (absolute, lower case), or needles (its path relative to the
// directory, its name alone; "" for none): a static word that is it,
// beneath it, or holds a needle as a file name (namesIn); a run-time
// word whose static pieces could join to it or to a needle. rotated: the
// location has rotated siblings (ProtectedPath.Rotated).
func (cw cmdWords) names(lower string, needles []string, rotated bool) bool {
	for _, w := range cw.static {
		if beneath(lower, w) {
			return true
		}
		for _, n := range needles {
			if namesIn(w, n, rotated) {
				return true
			}
		}
	}
	for _, p := range cw.pieces {
		if couldJoin(p, lower, rotated) {
			return true
		}
		for _, n := range needles {
			if n != "" && couldJoin(p, n, rotated) {
				return true
			}
		}
	}
	return false
}

// couldJoin reports whether pieces, static text with expansions between
// them, could make a word holding n: n starts with the first piece's end
// (or the first is empty), ends with the last piece's start, with the
// pieces between in order, and the static text covers more than half of
// n, so `$F.md` does not name every .md file. A word that expands to n
// and more beyond it counts too: a path beneath n. n held whole in a
// piece counts where it stands as a file name (namesIn), an expansion
// ending a name; rotated as namesIn's.
func couldJoin(pieces []string, n string, rotated bool) bool {
	total := 0
	for _, p := range pieces {
		total += len(p)
	}
	if 2*total <= len(n) {
		return false
	}
	first, last := pieces[0], pieces[len(pieces)-1]
	if len(pieces) == 1 {
		// no split point ($"..." alone): the piece is the value
		return namesIn(first, n, rotated)
	}
	rest := n
	if first != "" {
		// the first piece ends with a prefix of n, or holds n whole
		if namesIn(first, n, rotated) {
			return true
		}
		k := -1
		for i := len(first); i > 0; i-- {
			if strings.HasPrefix(n, first[len(first)-i:]) && (i == len(first) || strings.HasSuffix(first[:len(first)-i], "/")) {
				k = i
				break
			}
		}
		if k < 0 {
			return false
		}
		rest = n[k:]
	}
	for _, m := range pieces[1 : len(pieces)-1] {
		i := strings.Index(rest, m)
		if i < 0 {
			return false
		}
		rest = rest[i+len(m):]
	}
	if last == "" {
		return true
	}
	if namesIn(last, n, rotated) {
		return true
	}
	// the last piece starts with a suffix of rest (the word goes on
	// beneath n, or n is its end; a rotated sibling's suffix after it)
	for i := min(len(last), len(rest)); i > 0; i-- {
		if strings.HasSuffix(rest, last[:i]) && (i == len(last) || strings.HasPrefix(last[i:], "/") || rotated && last[i] == '.') {
			return true
		}
	}
	return false
}

// eachWord calls f with every word of every form of every command of
// lines, and every redirection target.
func eachWord(lines []*shellcmd.Analysis, f func(shellcmd.Word)) {
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				for _, w := range form {
					f(w)
				}
			}
		}
		for _, r := range a.Redirects {
			f(r.Target)
		}
	}
}

// oneWordCall parses text, a word as written, as bash reads it: the
// command of that one word, nil where text does not parse as one.
func oneWordCall(text string) *syntax.CallExpr {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || len(call.Assigns) != 0 {
		return nil
	}
	return call
}
