package shellcmd

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// hereDocEnds reports a here-document of f whose end bash and dash find
// elsewhere than mvdan.cc/sh does. A shell ends a document at the first
// line, after the operator's line (or after the document before it on
// that line), that is the delimiter: in an unquoted document once each
// backslash-newline is joined ("\" then "EOF" ends it), whatever expansion
// a line of the body leaves open ("${x-" does not carry past "EOF"), and
// with the leading tabs taken off for <<-. Inside a $(...) or <(...)
// bash also ends it at a line that starts with the delimiter and holds a
// ")" after it, and reads the rest of that line as commands ("EOF)" closes
// the substitution, the lines after it run). The parser here checks before
// joining, carries an open expansion on and ends a document only at a line
// that is the delimiter, so the lines between the two ends are text to it
// and commands to the shell. It returns the document's delimiter word. A
// delimiter the shell would expand or that the reading here cannot take
// apart counts as a difference.
func hereDocEnds(f *syntax.File, src string) (string, bool) {
	if !strings.Contains(src, "<<") {
		return "", false
	}
	var docs []*syntax.Redirect
	var parens [][2]syntax.Pos // the $(...) and <(...) substitutions: where each opens and closes
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Word != nil {
				docs = append(docs, n)
			}
		case *syntax.CmdSubst:
			if !n.Backquotes {
				parens = append(parens, [2]syntax.Pos{n.Left, n.Right})
			}
		case *syntax.ProcSubst:
			parens = append(parens, [2]syntax.Pos{n.OpPos, n.Rparen})
		}
		return true
	})
	if len(docs)*len(parens) > maxHereDocPairs {
		return "<<", true // too many to compare: the line needs approval
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].OpPos.Offset() < docs[j].OpPos.Offset() })
	next := 0 // where the next document's body may start: past the last one's end
	for _, r := range docs {
		word := sourceOf(r.Word, src)
		delim, quoted, ok := hereDocDelimiter(r.Word)
		if !ok {
			return word, true
		}
		nl := strings.IndexByte(src[r.Word.End().Offset():], '\n')
		if nl < 0 {
			continue // no body at all: nothing runs after it
		}
		start := max(int(r.Word.End().Offset())+nl+1, next)
		end := shellHereDocEnd(src, start, delim, quoted, r.Op == syntax.DashHdoc, false)
		if insideParens(r.OpPos, parens) && shellHereDocEnd(src, start, delim, quoted, r.Op == syntax.DashHdoc, true) != end {
			return word, true
		}
		next = min(end+1, len(src))
		if r.Hdoc == nil {
			// An empty document: the shell's first line must be the
			// delimiter too.
			if first := strings.IndexByte(src[start:], '\n'); first >= 0 && start+first != end || first < 0 && len(src) != end {
				return word, true
			}
			continue
		}
		if int(r.Hdoc.End().Offset()) != end {
			return word, true
		}
	}
	return "", false
}

// hereDocDelimiter returns the delimiter word w stands for, its quotes
// taken off, and whether any part of it is quoted (a quoted document's
// body is taken as it is: no backslash-newline is joined). ok is false
// for a word holding an expansion.
func hereDocDelimiter(w *syntax.Word) (delim string, quoted, ok bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				quoted = true
			}
			b.WriteString(strings.ReplaceAll(p.Value, "\\", ""))
		case *syntax.SglQuoted:
			quoted = true
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			quoted = true
			for _, q := range p.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false, false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false, false
		}
	}
	return b.String(), quoted, true
}

// insideParens reports whether pos lies inside one of the substitutions
// parens gives by where they open and close.
func insideParens(pos syntax.Pos, parens [][2]syntax.Pos) bool {
	for _, p := range parens {
		if pos.After(p[0]) && p[1].After(pos) {
			return true
		}
	}
	return false
}

// shellHereDocEnd returns the offset in src where bash's and dash's
// reading of a document whose body starts at start ends: the end of its
// delimiter line, or len(src) when no line is the delimiter. With
// inParen, the document stands inside a $(...) or <(...), where bash ends
// it also at a line starting with the delimiter and holding a ")" after
// it; the offset returned is then that line's end too.
func shellHereDocEnd(src string, start int, delim string, quoted, dash, inParen bool) int {
	var line strings.Builder
	for i := start; i < len(src); {
		nl := strings.IndexByte(src[i:], '\n')
		end := len(src)
		if nl >= 0 {
			end = i + nl
		}
		raw := src[i:end]
		if !quoted && oddTrailingBackslashes(raw) && nl >= 0 {
			line.WriteString(raw[:len(raw)-1])
			i = end + 1
			continue
		}
		line.WriteString(raw)
		text := line.String()
		line.Reset()
		if dash {
			text = strings.TrimLeft(text, "\t")
		}
		if text == delim || inParen && strings.HasPrefix(text, delim) && strings.Contains(text[len(delim):], ")") {
			return end
		}
		if nl < 0 {
			break
		}
		i = end + 1
	}
	return len(src)
}

// oddTrailingBackslashes reports whether s ends in an odd number of
// backslashes: the last one escapes the newline after it.
func oddTrailingBackslashes(s string) bool {
	n := len(s) - len(strings.TrimRight(s, "\\"))
	return n%2 == 1
}
