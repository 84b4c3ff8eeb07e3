package shellcmd

import (
	"path"
	"sort"
	"strings"
)

// A glob operand expands to the names it matches, and a program reads a
// name starting with '-' as an option: with a file named -exec beside it,
// "find x [-]exec rm {} \;" runs rm, and the file may be there already or
// made earlier on the line ("echo > -exec; find x [-]exec rm {} \;").
// optionGlobs gives the reading in which such names stand in the glob's
// place; a glob with a directory part expands to names that start with it,
// never with '-'.

// optionGlobs returns form with the names starting with '-' that each of
// its glob operands may expand to in that glob's place: those it matches
// where the line starts and those the line's redirections write. ok is
// false when no glob may expand to such a name.
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
// expand to: matched where the line starts, or written by a redirection
// of the line into the directory it starts in.
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
	for _, r := range w.a.Redirects {
		if !r.Write || r.Target.Kind != Static {
			continue
		}
		if td, _ := path.Split(r.Target.Text); path.Clean("./"+td) == "." {
			add(r.Target.Text)
		}
	}
	sort.Strings(out)
	return out
}
