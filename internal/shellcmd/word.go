package shellcmd

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// fields returns the words word expands to before globbing: one, or one
// per brace expansion result. ok is false when the expansion is too large
// to list.
func fields(word *syntax.Word, src string) (out []Word, ok bool) {
	// SplitBraces rewrites the word it is given; the tree is still being
	// walked, so it gets a copy.
	split := &syntax.Word{Parts: append([]syntax.WordPart(nil), word.Parts...)}
	if !syntax.SplitBraces(split) {
		return []Word{evalWord(word, src)}, true
	}
	for bw, err := range expand.BracesSeq(nil, split) {
		if err != nil || len(out) >= maxFields {
			return out, false
		}
		if emptyUnquoted(bw) {
			// bash drops an empty word brace expansion leaves unquoted:
			// "{,} rm x" runs rm x, and "sort -o {,} f a.txt" writes f.
			continue
		}
		out = append(out, evalWord(bw, sourceOf(word, src)))
	}
	return out, true
}

// emptyUnquoted reports whether w is no text at all, not even quotes.
func emptyUnquoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// sourceOf returns the text of node n within src, or src itself when the
// positions do not fit (nodes made by brace expansion).
func sourceOf(n syntax.Node, src string) string {
	s, e := n.Pos(), n.End()
	if !s.IsValid() || !e.IsValid() || s.IsRecovered() || e.IsRecovered() {
		return src
	}
	if a, b := int(s.Offset()), int(e.Offset()); a <= b && b <= len(src) {
		return src[a:b]
	}
	return src
}

// evalWord computes a word's value by quote removal when it is static,
// its pattern when it is a glob, and why not otherwise. src is the text
// the word was parsed from (for reporting dynamic words as written).
func evalWord(word *syntax.Word, src string) Word {
	val, pat, glob, zshOps, why := quoteRemoval(word)
	if why != "" {
		return Word{Kind: Dynamic, Text: sourceOf(word, src), Why: why}
	}
	w := Word{Kind: Static, Text: val}
	if glob {
		// The shell's brackets in path.Match's syntax; one that is not a
		// bracket expression after all leaves a static word.
		if g := patternAsWord(pat); g.Kind == Glob {
			w = g
		} else if g.Kind == Dynamic {
			w = Word{Kind: Dynamic, Text: sourceOf(word, src), Why: g.Why}
		}
	}
	if zshOps {
		w.zshPattern = pat
	}
	return w
}

// quoteRemoval returns a word's text after quote removal (val), the same
// text with its quoted bytes escaped for a pattern (pat), whether an
// unquoted *, ? or [ makes it a glob, whether zsh's EXTENDED_GLOB reads
// more of it (zshOps: an unquoted "#" after its first byte, a "~" there
// in a glob, or a "^" first in a path element; see zshExtendedReadings),
// and why it is not static (empty when it is).
func quoteRemoval(word *syntax.Word) (val, pat string, glob, zshOps bool, why string) {
	var vb, pb strings.Builder
	repeat, exclude, caret := false, false, false
	dyn := func(reason string) {
		if why == "" {
			why = reason
		}
	}
	for i, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			s := p.Value
			if i == 0 && strings.HasPrefix(s, "~") {
				dyn("tilde expansion")
			}
			for j := 0; j < len(s); j++ {
				c := s[j]
				switch {
				case c == '\\' && j+1 < len(s):
					j++
					if s[j] == '\n' {
						continue
					}
					vb.WriteByte(s[j])
					writeEscaped(&pb, s[j:j+1])
				case c == '*' || c == '?' || c == '[' || c == '^' && vb.Len() > 0 && !strings.HasSuffix(vb.String(), "/"):
					// A ^ after a path element's start is zsh's
					// EXTENDED_GLOB negation (matchPattern).
					glob = true
					vb.WriteByte(c)
					pb.WriteByte(c)
				default:
					if vb.Len() > 0 {
						repeat = repeat || c == '#'
						exclude = exclude || c == '~'
					}
					// A "^" first in a path element: zsh's negation
					// where the line turns EXTENDED_GLOB on.
					caret = caret || c == '^'

					vb.WriteByte(c)
					pb.WriteByte(c)
				}
			}
		case *syntax.SglQuoted:
			s := p.Value
			if p.Dollar {
				s = nulMarked(ansiC(s))
			}
			vb.WriteString(s)
			writeEscaped(&pb, s)
		case *syntax.DblQuoted:
			if p.Dollar {
				dyn(`$"..." string translated at run time`)
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					dyn(dynamicWhy(q))
					continue
				}
				s := unescapeDouble(lit.Value)
				vb.WriteString(s)
				writeEscaped(&pb, s)
			}
		case *syntax.ExtGlob:
			// An extended glob matches names as a glob does: any name
			// its group could match, which * covers within one path
			// element (a '/' in a group matches no name). One whose
			// pattern expands something is not known.
			if p.Pattern == nil || strings.ContainsAny(p.Pattern.Value, "$`") {
				dyn(dynamicWhy(part))
				continue
			}
			glob = true
			vb.WriteString(p.Op.String() + p.Pattern.Value + ")")
			pb.WriteByte('*')
		default:
			dyn(dynamicWhy(part))
		}
	}
	return vb.String(), pb.String(), glob, repeat || exclude && glob || caret, why
}

// dynamicWhy names the expansion a word part does.
func dynamicWhy(part syntax.WordPart) string {
	switch p := part.(type) {
	case *syntax.ParamExp:
		if p.Param != nil {
			return "parameter expansion $" + p.Param.Value
		}
		return "parameter expansion"
	case *syntax.CmdSubst:
		return "command substitution"
	case *syntax.ArithmExp:
		return "arithmetic expansion"
	case *syntax.ProcSubst:
		return "process substitution"
	case *syntax.ExtGlob:
		return "extended glob"
	case *syntax.BraceExp:
		return "brace expansion"
	}
	return "expansion"
}

// unescapeDouble removes the backslashes that escape a character inside
// double quotes ($ ` " \ and newline).
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// writeEscaped writes s to a pattern with its metacharacters escaped.
func writeEscaped(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]\!^-#~`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}

// validPattern reports whether pat is a pattern path.Match accepts; the
// shell takes an invalid pattern ("a[") literally.
func validPattern(pat string) bool {
	_, err := path.Match(pat, "")
	return err == nil
}

// Matches reports whether the word is, or as a glob could expand to, s.
// A dynamic word matches nothing: callers treat it as unknown. fold
// compares without regard to case.
func (w Word) Matches(s string, fold bool) bool {
	// Folded as written too: a negated class lowered ("[!A-Z]" is
	// "[^a-z]") no longer holds the lower-case letters it held.
	return w.matchesText(w.Text, s) || fold && w.matchesText(strings.ToLower(w.Text), strings.ToLower(s))
}

// matchesText is Matches for the word's text given as text.
func (w Word) matchesText(text, s string) bool {
	switch w.Kind {
	case Static:
		return text == s
	case Glob:
		ok, err := path.Match(text, s)
		return err == nil && ok
	}
	return false
}

// MatchesName is Matches for a command word, which also names the command
// by its last path element (/usr/bin/rm and ./rm are rm).
func (w Word) MatchesName(name string, fold bool) bool {
	if w.Matches(name, fold) {
		return true
	}
	if w.Kind == Dynamic || !strings.Contains(w.Text, "/") {
		return false
	}
	base := w
	base.Text = w.Text[strings.LastIndexByte(w.Text, '/')+1:]
	return base.Matches(name, fold)
}

// Name returns the command name a static command word runs: its last
// path element.
func (w Word) Name() string {
	return path.Base(w.Text)
}

// maxGlobMatches bounds the file names a command-position glob is
// expanded to.
const maxGlobMatches = 16

// maxGlobDir bounds the entries of a directory a glob is matched in: a
// larger one (/usr/bin) is not listed, so a decision stays fast; the
// pattern itself is still matched against every name a rule or wrapper
// knows (globCandidates).
const maxGlobDir = 256

// globFiles returns the file names pattern matches in dir, as the shell
// would write them, when only its last element is a pattern and its
// directory is small.
func globFiles(dir, pattern string) []string {
	d, base := path.Split(pattern)
	if strings.ContainsAny(d, "*?[\\") {
		return nil
	}
	full := d
	if !filepath.IsAbs(d) {
		if dir == "" {
			return nil
		}
		full = filepath.Join(dir, d)
	}
	// Not waiting on a named pipe the agent put there (O_NONBLOCK
	// changes nothing for a directory), and listing only a directory.
	f, err := nowaitopen.OpenDir(full)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxGlobDir + 1)
	if len(names) > maxGlobDir {
		return nil
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		if ok, err := path.Match(base, n); err == nil && ok && len(out) < maxGlobMatches {
			out = append(out, d+n)
		}
	}
	return out
}

// globCandidates returns the names of wrappers, shells and interpreters
// the last element of pattern can match, with its directory: whatever
// the file system holds when the line runs, such a name would make the
// command run another one.
func globCandidates(pattern string) []string {
	d, base := path.Split(pattern)
	var out []string
	for name := range handlers {
		if ok, err := path.Match(base, name); err == nil && ok {
			out = append(out, d+name)
		}
	}
	for name := range inlineFlags {
		if ok, err := path.Match(base, name); err == nil && ok {
			out = append(out, d+name)
		}
	}
	sort.Strings(out)
	if len(out) > maxGlobMatches {
		out = out[:maxGlobMatches]
	}
	return out
}
