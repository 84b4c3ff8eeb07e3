package governance

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// A directory a command reads or changes whole may be a link a line the
// engine let run makes, not there yet when the command is decided: after
// "ln -s . kk", "grep -r API_KEY kk/" reads the workspace's .env, while the
// walk of kk finds nothing. So the directories such a command names are
// walked also where the kept links lead (keptForms), and a pattern beneath
// such a name is expanded there too (keptGlobNames).

// keptForms returns the forms of the path p that only the kept links give
// (madeLinks.extend, extendDotDot), none of which the file system shows
// now: the places a walk of p reaches once those links are made. A path
// those links leave unjudgeable has none here; it is refused where it is
// judged as a path.
func (in *reqInfo) keptForms(p string) []string {
	if in.links == nil || in.links.n.Load() == 0 {
		return nil
	}
	all, r := in.pathForms(p)
	if r != nil {
		return nil
	}
	now, r := pathForms(p, in.roots...)
	if r != nil {
		return nil
	}
	var out []string
	for _, f := range all {
		if !slices.Contains(now, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// keptGlobNames is globNames of the absolute pattern p, and of p where the
// kept links lead its leading elements that hold no pattern character
// (keptForms): once "ln -s vault vv" has run, "cat vv/x.*" expands to
// vv/x.pem, while the file system shows no vv to expand it in now; and
// what p matches through a kept link whose name its elements match
// (keptNamesMatched).
func (in *reqInfo) keptGlobNames(p string, most int) (names []string, ok bool) {
	names, ok = globNames(p, most)
	if !ok {
		return nil, false
	}
	segs := strings.Split(p, "/")
	i := slices.IndexFunc(segs, func(s string) bool { return strings.ContainsAny(s, `*?[\`) })
	if i < 0 {
		return names, true
	}
	if i == 0 {
		return in.keptNamesMatched(segs, names, most)
	}
	rest := strings.Join(segs[i:], "/")
	for _, f := range in.keptForms(strings.Join(segs[:i], "/")) {
		more, ok := globNames(strings.TrimSuffix(f, "/")+"/"+rest, most)
		if !ok || len(names)+len(more) > most {
			return nil, false
		}
		names = append(names, more...)
	}
	return in.keptNamesMatched(segs, names, most)
}

// keptNamesMatched appends to names what the pattern whose elements are
// segs matches through each kept link whose name a pattern element
// matches: the shell expands the pattern when its line runs, once the
// link is there, so after "ln -s keys sub/kk", "sed -i s/a/b/ sub/*/a.key"
// edits keys/a.key, while the file system shows no sub/kk to match now.
// The link's name is a match itself where the pattern ends at it, and the
// rest of the pattern is expanded where the link will lead (keptForms)
// where it goes on. ok is false past most names.
func (in *reqInfo) keptNamesMatched(segs, names []string, most int) ([]string, bool) {
	if in.links == nil || in.links.n.Load() == 0 {
		return names, true
	}
	var elems []string // segs without the empty and "." elements the kernel passes over
	for _, s := range segs {
		if s != "" && s != "." {
			elems = append(elems, s)
		}
	}
	for _, l := range in.links.snapshot() {
		ls := strings.Split(strings.TrimPrefix(l.name, "/"), "/")
		if len(ls) > len(elems) || !slices.ContainsFunc(elems[:len(ls)], hasGlobMeta) {
			continue // a name the elements spell out is a leading name, followed above
		}
		matched := true
		for i, n := range ls {
			if !newShellPattern(elems[i]).match(n) {
				matched = false
				break
			}
		}
		if !matched {
			continue
		}
		rest := strings.Join(elems[len(ls):], "/")
		if rest == "" {
			if !slices.Contains(names, l.name) {
				names = append(names, l.name)
			}
		} else {
			for _, f := range in.keptForms(l.name) {
				more, ok := globNames(strings.TrimSuffix(f, "/")+"/"+rest, most)
				if !ok {
					return nil, false
				}
				for _, m := range more {
					if !slices.Contains(names, m) {
						names = append(names, m)
					}
				}
			}
		}
		if len(names) > most {
			return nil, false
		}
	}
	return names, true
}

// keptBeneath returns the kept links not in done whose names lie beneath
// a directory reached reports a walk reached (as reached, or as the file
// system resolves it), marking them done: the names a walk of those
// directories meets once the lines that make the links have run, while it
// found nothing there ("ln -s ../vault sub/v" still running, "grep -R
// API_KEY sub" reads vault/.env through it). A name whose directory is
// itself missing now counts as well, since the line making the link may
// make that directory first.
func (in *reqInfo) keptBeneath(reached func(dir string) bool, done map[string]bool) []madeLink {
	if in.links == nil || in.links.n.Load() == 0 {
		return nil
	}
	var out []madeLink
	for _, l := range in.links.snapshot() {
		if done[l.name] {
			continue
		}
		for d := filepath.Dir(l.name); ; d = filepath.Dir(d) {
			if reached(d) {
				done[l.name] = true
				out = append(out, l)
				break
			}
			if d == "/" || d == "." {
				break
			}
		}
	}
	return out
}

// keptRel returns name's path relative to the walk's top, its nearest
// directory in reached being the top's relative path of that directory.
func keptRel(reached map[string]string, name string) string {
	for d := filepath.Dir(name); ; d = filepath.Dir(d) {
		if rel, ok := reached[d]; ok {
			r := strings.TrimPrefix(name, d+"/")
			if rel != "" {
				r = rel + "/" + r
			}
			return r
		}
		if d == "/" || d == "." {
			return filepath.Base(name)
		}
	}
}

// symlink reports whether l is a symbolic link (what a reader that does
// not follow links beneath the directory it reads leaves unread), not a
// hard link, a copied tree, whose content a reader reads all the same, or
// a link whose target is known only when its line runs.
func (l madeLink) symlink() bool {
	return !l.hard && l.op != ""
}

// keptEntry is the directory entry a walk meets at a kept link's name
// (keptBeneath): a symlink, not there yet.
type keptEntry string

// Name returns the link's name.
func (k keptEntry) Name() string { return string(k) }

// IsDir reports false: the entry is the link, not where it leads.
func (k keptEntry) IsDir() bool { return false }

// Type returns fs.ModeSymlink.
func (k keptEntry) Type() fs.FileMode { return fs.ModeSymlink }

// Info reports the link as not there, which it is not yet.
func (k keptEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrNotExist }
