package governance

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// anchor says what a path pattern is relative to.
type anchor uint8

const (
	// anchorAny: a pattern without a slash (".env", "*.pem") or starting
	// with "**/" matches at any depth of any path, as in .gitignore.
	anchorAny anchor = iota
	// anchorRoot: "./src/**" or "src/*.go" is relative to each workspace
	// root.
	anchorRoot
	// anchorAbs: "//etc/**" (absolute), "~/x" (home) and "/x" (relative to
	// the policy file's directory) name fixed directories.
	anchorAbs
)

// pathPattern is a compiled gitignore-style path glob. Segments match one
// path element each ("*", "?", "[a-z]" as in path.Match); "**" matches any
// number of elements. A pattern that matches a directory matches everything
// beneath it.
type pathPattern struct {
	text   string
	anchor anchor
	dirs   []string // for anchorAbs: the directory, literal and symlink-resolved
	segs   []string
	all    bool // "*" or "**": every path

	// The compiled form (glob_compiled.go), when ready.
	compiled  compiledSegs
	lowerDirs []string // dirs in lower case
	ready     bool
}

// compilePathPattern compiles pattern; base is the policy file's directory
// (for "/x" patterns) and home the user's home directory (for "~/x").
func compilePathPattern(pattern, base, home string) (*pathPattern, error) {
	p := &pathPattern{text: pattern}
	if pattern == "" {
		return nil, fmt.Errorf("empty path pattern")
	}
	if pattern == "*" || pattern == "**" {
		p.all = true
		return p, nil
	}
	if err := checkPathGlob(pattern); err != nil {
		return nil, err
	}
	rest := pattern
	switch {
	case strings.HasPrefix(rest, "//"):
		p.anchor = anchorAbs
		p.dirs = []string{"/"}
		rest = rest[2:]
	case rest == "~" || strings.HasPrefix(rest, "~/"):
		if home == "" {
			return nil, fmt.Errorf("pattern %q: no home directory known", pattern)
		}
		p.anchor = anchorAbs
		p.dirs = []string{home}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "~"), "/")
	case strings.HasPrefix(rest, "/"):
		p.anchor = anchorAbs
		abs, err := filepath.Abs(base)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", pattern, err)
		}
		p.dirs = []string{abs}
		rest = rest[1:]
	case strings.HasPrefix(rest, "./"):
		p.anchor = anchorRoot
		rest = rest[2:]
	case strings.HasPrefix(rest, "**/"):
		p.anchor = anchorAny
		rest = rest[3:]
	case strings.Contains(strings.TrimSuffix(rest, "/"), "/"):
		p.anchor = anchorRoot
	default:
		p.anchor = anchorAny
	}
	rest = strings.TrimSuffix(rest, "/")
	for _, s := range strings.Split(rest, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return nil, fmt.Errorf("pattern %q: \"..\" is not allowed in patterns", pattern)
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("pattern %q: bad glob segment %q", pattern, s)
		}
		p.segs = append(p.segs, s)
	}
	if len(p.segs) == 0 && p.anchor != anchorAbs {
		return nil, fmt.Errorf("pattern %q matches nothing", pattern)
	}
	if p.anchor == anchorAbs {
		// Match the directory as written and as its symlinks resolve, so
		// "/tmp/x" works where /tmp is a link.
		if r := resolveDir(p.dirs[0]); r != p.dirs[0] && !strings.Contains(r, "\x00") {
			p.dirs = append(p.dirs, r)
		}
	}
	p.compile()
	return p, nil
}

// match reports whether the absolute, cleaned path abs matches p, given
// the workspace roots. fold compares without regard to case.
func (p *pathPattern) match(abs string, roots []string, fold bool) bool {
	if p.all {
		return true
	}
	segs := append([]string{}, p.segs...)
	switch p.anchor {
	case anchorAny:
		return matchSegments(append(append([]string{"**"}, segs...), "**"), splitPath(abs), fold)
	case anchorAbs:
		for _, d := range p.dirs {
			if rel, ok := within(d, abs, fold); ok {
				if matchSegments(append(segs, "**"), splitPath(rel), fold) {
					return true
				}
			}
		}
	case anchorRoot:
		for _, r := range roots {
			if rel, ok := within(r, abs, fold); ok {
				if matchSegments(append(segs, "**"), splitPath(rel), fold) {
					return true
				}
			}
		}
	}
	return false
}

// within returns p relative to dir if p is dir or beneath it.
func within(dir, p string, fold bool) (string, bool) {
	d, q := dir, p
	if fold {
		d, q = strings.ToLower(d), strings.ToLower(q)
	}
	if d == q {
		return "", true
	}
	prefix := strings.TrimSuffix(d, "/") + "/"
	if !strings.HasPrefix(q, prefix) {
		return "", false
	}
	return p[len(prefix):], true
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(filepath.ToSlash(p), "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// matchSegments matches path elements against pattern segments, where "**"
// matches zero or more elements. It runs in O(len(pat)*len(elems)).
func matchSegments(pat, elems []string, fold bool) bool {
	// ok[j] reports whether pat[:i] matches elems[:j], row by row.
	ok := make([]bool, len(elems)+1)
	ok[0] = true
	for _, ps := range pat {
		next := make([]bool, len(elems)+1)
		if ps == "**" {
			seen := false
			for j := 0; j <= len(elems); j++ {
				seen = seen || ok[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(elems); j++ {
				next[j] = ok[j-1] && matchSegment(ps, elems[j-1], fold)
			}
		}
		ok = next
	}
	return ok[len(elems)]
}

func matchSegment(pattern, name string, fold bool) bool {
	if fold {
		pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	}
	m, err := path.Match(pattern, name)
	return err == nil && m
}
