package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// backquoteEnds reports a `...` substitution of f that bash and dash end
// elsewhere than mvdan.cc/sh does. A shell ends it at the first backquote
// not escaped by a backslash, a backslash escaping only $, ` and another
// backslash, whatever quote, ${ or here-document the text between opens:
// in "echo `echo '\\` ; rm x ; echo \\`'`" it ends after the first \\, and
// "; rm x ;" runs as a command of the outer line. The parser here turns
// \\ into \ first and then reads the backquote after it as quoted or
// escaped text, so those commands are text to it. A substitution inside
// another one (its backquotes escaped) is read by the shell after the
// outer one's escapes are taken off, which is not followed here: it
// counts as a difference too. It returns the substitution's text.
func backquoteEnds(f *syntax.File, src string) (string, bool) {
	if !strings.Contains(src, "`") {
		return "", false // no walk for the lines that hold none
	}
	found := ""
	var outer []*syntax.CmdSubst
	syntax.Walk(f, func(n syntax.Node) bool {
		cs, ok := n.(*syntax.CmdSubst)
		if !ok || !cs.Backquotes || found != "" {
			return found == ""
		}
		for _, o := range outer {
			if cs.Left.After(o.Left) && o.Right.After(cs.Left) {
				found = sourceOf(cs, src) // nested backquotes
				return false
			}
		}
		outer = append(outer, cs)
		if shellBackquoteEnd(src, int(cs.Left.Offset())) != int(cs.Right.Offset()) {
			found = sourceOf(cs, src)
		}
		return found == ""
	})
	return found, found != ""
}

// shellBackquoteEnd returns the offset of the backquote that ends, for
// bash and dash, the `...` substitution opened by the backquote at left,
// or len(src) when none does.
func shellBackquoteEnd(src string, left int) int {
	for i := left + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && (src[i+1] == '\\' || src[i+1] == '`' || src[i+1] == '$') {
				i++
			}
		case '`':
			return i
		}
	}
	return len(src)
}
