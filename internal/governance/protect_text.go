package governance

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// What protectedCommand reads in a command line's text (which protected
// location it names, which names it may open) depends on the text, the
// command's directory and the protected locations, and on the file system
// only through a glob word. For a pure line (shellcmd.Pure: no glob can
// be in it) the engine keeps that reading, as it keeps the line's
// analysis; everything the file system says (where the directory and each
// name lead, links, what a command deletes or copies) is looked up again
// by every decision.

// lineText is what protectedCommand reads in a command line's text.
type lineText struct {
	named   int      // namedIndex
	names   []string // lineNames: shared, never changed
	namesOK bool
}

// lineTexts keeps the lineText of pure command lines, per directory and
// protected list. It is safe for concurrent use.
type lineTexts struct {
	mu sync.Mutex
	m  map[lineTextKey]*keptText // guarded by mu
}

// lineTextKey names a reading: the line, its directory and the roots the
// protected list was made for.
type lineTextKey struct{ line, cwd, roots string }

// keptText is a kept reading, valid for the protected list it was read
// against.
type keptText struct {
	list []protected
	text lineText
}

// lineTextOf returns the lineText of the command line, kept per engine
// for a pure line without arguments run as argv.
func (e *Engine) lineTextOf(in *reqInfo, list []protected, line string, lines []*shellcmd.Analysis, cwd string) lineText {
	read := func() lineText {
		names, ok := e.lineNames(in, line, lines, cwd)
		return lineText{named: namedIndex(list, line, lines, cwd), names: names, namesOK: ok}
	}
	if len(in.req.Argv) > 0 || len(in.req.Command) > maxAnalysedLine || !shellcmd.Pure(in.req.Command) {
		return read()
	}
	key := lineTextKey{line: line, cwd: cwd, roots: strings.Join(in.roots, "\x00")}
	c := &e.lineTexts
	c.mu.Lock()
	k, ok := c.m[key]
	c.mu.Unlock()
	if ok && sameList(k.list, list) {
		return k.text
	}
	t := read()
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxAnalyses {
		c.m = make(map[lineTextKey]*keptText)
	}
	c.m[key] = &keptText{list: list, text: t}
	c.mu.Unlock()
	return t
}

// sameList reports whether a and b are the same protected list: the same
// backing array (protectedFor returns one list per set of roots until
// Protect replaces the engine's own).
func sameList(a, b []protected) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// namedIndex returns the index, counting every form of every location of
// list in order, of the first protected form the text of a command line
// names (see protectedCommand), or -1: its path as written in absolute
// form or relative to cwd, or (for a file) its name alone, where it
// stands as a file name (namesIn) anywhere in the line once quotes and
// backslashes are taken out, a glob word that
// can expand to it, or a word the shell parser computes that is it, holds
// it or could join to it. It reads no file system.
func namedIndex(list []protected, line string, lines []*shellcmd.Analysis, cwd string) int {
	flat := strings.ToLower(unquoter.Replace(line))
	var globs []string
	if strings.ContainsAny(line, "*?[") {
		for _, a := range lines {
			for _, c := range a.Commands {
				for _, f := range c.Forms {
					for _, w := range f {
						if w.Kind == shellcmd.Glob {
							g := w.Text
							if !strings.HasPrefix(g, "/") {
								g = cwd + "/" + g
							}
							globs = append(globs, strings.ToLower(filepath.Clean(g)))
						}
					}
				}
			}
		}
	}
	lowerCwd := strings.ToLower(cwd)
	inCwd := strings.TrimSuffix(lowerCwd, "/") + "/"
	words := commandWords(lines, cwd)
	tails := unknownDirWords(lines)
	k := 0
	for _, pr := range list {
		for j := range pr.forms {
			if tailNames(tails, pr.lower[j], pr.dir, pr.lrel) {
				return k
			}
			if pr.elem {
				k++ // decided on the paths the line names (protectedVerdict), not on its text
				continue
			}
			lower := pr.lower[j]
			short := shortNames(&pr, j, inCwd)
			needles := [3]string{lower, short[0], short[1]}
			named := false
			for _, n := range needles {
				if namesIn(flat, n, pr.Rotated) {
					named = true
				}
			}
			for _, g := range globs {
				if ok, _ := filepath.Match(g, lower); ok {
					named = true
				}
			}
			if !named && words.names(lower, needles[1:], pr.Rotated) {
				named = true
			}
			if named {
				return k
			}
			k++
		}
	}
	return -1
}

// unquoter takes quotes and backslashes out of a command line.
var unquoter = strings.NewReplacer(`'`, "", `"`, "", `\`, "")

// shortNames returns the shorter names a line may give form j of pr: its
// path relative to inCwd (the line's directory with a trailing slash),
// when it lies beneath it, and its path relative to the workspace root, or
// for a file its name alone; "" where there is none.
func shortNames(pr *protected, j int, inCwd string) [2]string {
	var out [2]string
	lower := pr.lower[j]
	if rel, ok := strings.CutPrefix(lower, inCwd); ok {
		out[0] = rel
	}
	switch {
	case pr.rel != "":
		out[1] = strings.ToLower(pr.rel)
	case !pr.dir:
		out[1] = filepath.Base(lower)
	}
	return out
}
