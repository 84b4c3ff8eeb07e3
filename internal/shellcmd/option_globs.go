package shellcmd

import (
	"path"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A glob operand expands to the names it matches, and a program reads a
// name starting with '-' as an option: with a file named -exec beside it,
// "find x [-]exec rm {} \;" runs rm, and the file may be there already or
// made by the line ("echo > -exec; find x [-]exec rm {} \;", "touch
// ./-exec; find x [-]exec rm {} \;").
// optionGlobs gives the reading in which such names stand in the glob's
// place; a glob with a directory part expands to names that start with it,
// never with '-'.

// optionGlobs returns form with the names starting with '-' that each of
// its glob operands may expand to in that glob's place: those it matches
// where the line starts and those the line may make (see lineNames). ok
// is false when no glob may expand to such a name.
func (w *walker) optionGlobs(form []Word) (out []Word, ok bool) {
	if len(form) < 2 {
		return nil, false
	}
	out = append(out, form[0])
	for _, wd := range form[1:] {
		if wd.Kind == Glob {
			names := w.dashNames(wd.Text)
			if len(names) > 0 {
				ok = true
				for _, n := range names {
					out = append(out, Word{Kind: Static, Text: n})
				}
				continue
			}
		}
		out = append(out, wd)
	}
	return out, ok
}

// dashNames returns the names starting with '-' that glob pattern may
// expand to: matched where the line starts, or made by the line in the
// directory it starts in (w.lineNames).
func (w *walker) dashNames(pattern string) []string {
	d, base := path.Split(pattern)
	if d != "" {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		name := n[strings.LastIndexByte(n, '/')+1:]
		if !strings.HasPrefix(name, "-") || seen[name] {
			return
		}
		if ok, err := path.Match(base, name); err == nil && ok {
			seen[name] = true
			out = append(out, name)
		}
	}
	if !w.cur.Moved() {
		for _, n := range globFiles(w.opts.Dir, pattern) {
			add(n)
		}
	}
	for n := range w.lineNames {
		add(n)
	}
	sort.Strings(out)
	return out
}

// noteLineNames adds to w.lineNames the names a static word of f gives,
// whole or after its first '=', that start with '-' in the directory the
// line starts in: the names the line may make there. What a command makes
// is not known here (a redirection, touch, cp, tee, mkdir, ln, dd of=,
// install, find -fprint and any program of the agent's make the files
// their words name), so every such word counts, wherever it stands on the
// line: the commands of a pipeline, and one run with '&', start together.
func (w *walker) noteLineNames(f *syntax.File) {
	walkNesting(f, func(n syntax.Node) bool {
		word, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		val, _, glob, _, why := quoteRemoval(word)
		if why != "" || glob {
			return true
		}
		w.noteLineName(val)
		if _, v, ok := strings.Cut(val, "="); ok {
			w.noteLineName(v)
		}
		return true
	}, nil)
}

// noteLineName adds n to w.lineNames when it names a file starting with
// '-' in the directory the line starts in.
func (w *walker) noteLineName(n string) {
	d, name := path.Split(n)
	if !strings.HasPrefix(name, "-") || path.Clean("./"+d) != "." {
		return
	}
	if w.lineNames == nil {
		w.lineNames = map[string]bool{}
	}
	w.lineNames[name] = true
}
