package governance

import (
	"path"
	"strings"
)

// The compiled form of a pathPattern, for the path every rule of a
// decision is matched against: the pattern's segments with the implied
// "**" around them and in lower case are built once when the policy
// loads, and the path is lowered once per decision (pathSubject), so a
// match allocates nothing. It decides exactly as pathPattern.match does
// (FuzzPathMatchCompiled compares them); a path with a byte outside ASCII
// takes match itself, whose within slices a path by the length of its
// lowered prefix.

// compiledSegs is a pattern's segments as matchSegments sees them.
type compiledSegs struct {
	segs  []string  // as written
	lower []string  // in lower case
	kind  []segKind // how segs[i] matches
	lowK  []segKind // how lower[i] matches
}

// segKind says how a segment matches a path element.
type segKind uint8

const (
	segGlob    segKind = iota // path.Match
	segLiteral                // no wildcard: equality
	segStar                   // one "*" and no other wildcard: prefix and suffix
)

func kindOf(s string) segKind {
	switch {
	case !strings.ContainsAny(s, `*?[\`):
		return segLiteral
	case strings.Count(s, "*") == 1 && !strings.ContainsAny(s, `?[\`):
		return segStar
	}
	return segGlob
}

func compileSegs(segs []string) compiledSegs {
	c := compiledSegs{segs: segs, lower: make([]string, len(segs)), kind: make([]segKind, len(segs)), lowK: make([]segKind, len(segs))}
	for i, s := range segs {
		c.lower[i] = strings.ToLower(s)
		c.kind[i] = kindOf(s)
		c.lowK[i] = kindOf(c.lower[i])
	}
	return c
}

// compile fills in p.compiled from p.segs and p.anchor.
func (p *pathPattern) compile() {
	segs := append([]string{}, p.segs...)
	if p.anchor == anchorAny {
		segs = append([]string{"**"}, segs...)
	}
	p.compiled = compileSegs(append(segs, "**"))
	p.lowerDirs = lowerAll(p.dirs)
	p.ready = true
}

// pathSubject is a cleaned absolute path as the rules of one decision
// match it.
type pathSubject struct {
	path  string
	lower string // strings.ToLower(path)
	ascii bool   // path has no byte outside ASCII
}

func newPathSubject(p string) pathSubject {
	s := pathSubject{path: p, ascii: isASCII(p)}
	if s.ascii {
		s.lower = asciiLower(p)
	}
	return s
}

// isASCII reports whether s has no byte outside ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiLower is strings.ToLower for a string of ASCII bytes.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// matchSubject is match(s.path, roots, fold); lowerRoots are roots in
// lower case.
func (p *pathPattern) matchSubject(s *pathSubject, roots, lowerRoots []string, fold bool) bool {
	if p.all {
		return true
	}
	if !s.ascii || !p.ready {
		return p.match(s.path, roots, fold)
	}
	q, dirs := s.path, p.dirs
	if fold {
		q = s.lower
		dirs = p.lowerDirs
	}
	switch p.anchor {
	case anchorAny:
		return p.compiled.matchPath(q, fold)
	case anchorAbs:
	case anchorRoot:
		dirs = roots
		if fold {
			dirs = lowerRoots
		}
	default:
		return false
	}
	for _, d := range dirs {
		if rel, ok := cutDir(d, q); ok && p.compiled.matchPath(rel, fold) {
			return true
		}
	}
	return false
}

// cutDir is within(dir, q, false).
func cutDir(dir, q string) (string, bool) {
	if dir == q {
		return "", true
	}
	d := strings.TrimSuffix(dir, "/")
	if len(q) > len(d) && q[len(d)] == '/' && q[:len(d)] == d {
		return q[len(d)+1:], true
	}
	return "", false
}

// matchPath is matchSegments(c.segs, splitPath(rel), fold) for a path
// already in lower case when fold is set.
func (c *compiledSegs) matchPath(rel string, fold bool) bool {
	var elemBuf [32]string
	elems := elemBuf[:0]
	for len(rel) > 0 {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			elems = append(elems, rel)
			break
		}
		if i > 0 {
			elems = append(elems, rel[:i])
		}
		rel = rel[i+1:]
	}
	segs, kinds := c.segs, c.kind
	if fold {
		segs, kinds = c.lower, c.lowK
	}
	var okBuf, nextBuf [33]bool
	ok, next := okBuf[:], nextBuf[:]
	if len(elems)+1 > len(ok) {
		ok, next = make([]bool, len(elems)+1), make([]bool, len(elems)+1)
	}
	ok, next = ok[:len(elems)+1], next[:len(elems)+1]
	clear(ok)
	ok[0] = true
	for k, ps := range segs {
		if ps == "**" {
			seen := false
			for j := range ok {
				seen = seen || ok[j]
				next[j] = seen
			}
		} else {
			next[0] = false
			for j := 1; j < len(ok); j++ {
				next[j] = ok[j-1] && segMatches(ps, kinds[k], elems[j-1])
			}
		}
		ok, next = next, ok
	}
	return ok[len(elems)]
}

// segMatches is matchSegment(ps, name, false) for a path element name
// (no "/"), name and ps already folded when the match ignores case.
func segMatches(ps string, kind segKind, name string) bool {
	switch kind {
	case segLiteral:
		return ps == name
	case segStar:
		pre, suf, _ := strings.Cut(ps, "*")
		return len(name) >= len(pre)+len(suf) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, suf)
	}
	m, err := path.Match(ps, name)
	return err == nil && m
}
