package governance

import (
	"strings"
	"sync"
)

// Which of the policy's path rules match a path is a question about
// strings: the path's form (as written, or as resolved), the workspace
// roots' forms and the rules' patterns. The file system has answered already by
// the time it is asked (pathForms looks every path up again in each
// decision), so the answer for a form can be kept across decisions
// without keeping anything the file system can change. A session asks
// about the same few files again and again; each is matched against every
// path rule once, not once per decision.

// Bounds of what one set of roots keeps: forms longer than
// maxMatchedForm are matched every time, and past maxMatchedForms kept
// forms the cache starts again empty.
const (
	maxMatchedForm  = 1024
	maxMatchedForms = 4096
)

// rootsEntry is what the engine keeps for one set of workspace roots (a
// session's, or the configured ones).
type rootsEntry struct {
	forms []string // rootForms: the roots as written and resolved
	lower []string // forms in lower case

	mu      sync.Mutex          // guards matches
	matches map[string][]uint64 // form -> ruleBits of the path rules matching it
}

// rootsOf returns the entry for the absolute roots abs, joined by NUL as
// key, making it once: the roots' forms are what they resolved to when
// first decided on (the directories the person chose), and a root the
// agent later turns into a link does not move the workspace there.
//
// Which root forms are free of links is not kept: every walk that would
// start below one looks it up again first (startWalk, rootIsPlain), since
// a root the agent can reach (one inside another, or below a directory it
// may write) may be a directory at one decision and a link out of the
// workspace at the next, and a path beneath it must then be walked
// through the link.
func (e *Engine) rootsOf(key string, abs []string) *rootsEntry {
	if v, ok := e.rootCache.Load(key); ok {
		return v.(*rootsEntry)
	}
	forms := rootForms(abs)
	v, _ := e.rootCache.LoadOrStore(key, &rootsEntry{forms: forms, lower: lowerAll(forms)})
	return v.(*rootsEntry)
}

// ruleBits holds one bit per rule of a list, by index.
type ruleBits []uint64

func (b ruleBits) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }

// pathRuleMatches returns, for each rule of e.rulesFor(catPath) by index,
// whether its path pattern matches the subject s (one form of a request
// path) under the roots of re: r.path.matchSubject(s, re.forms, re.lower,
// r.fold()), false for a rule without a pattern. It is computed once per
// form and kept (see above).
func (e *Engine) pathRuleMatches(re *rootsEntry, s *pathSubject) ruleBits {
	cache := len(s.path) <= maxMatchedForm
	if cache {
		re.mu.Lock()
		b, ok := re.matches[s.path]
		re.mu.Unlock()
		if ok {
			return b
		}
	}
	b := e.matchPathRules(re.forms, re.lower, s)
	if cache {
		re.mu.Lock()
		if re.matches == nil || len(re.matches) >= maxMatchedForms {
			re.matches = make(map[string][]uint64)
		}
		// A copy of the key: s.path may be a slice of a larger string (a
		// message's bytes) that the cache must not keep alive.
		re.matches[strings.Clone(s.path)] = b
		re.mu.Unlock()
	}
	return b
}

// matchPathRules computes what pathRuleMatches keeps.
func (e *Engine) matchPathRules(roots, lowerRoots []string, s *pathSubject) ruleBits {
	rules := e.rulesFor(catPath)
	b := make(ruleBits, (len(rules)+63)/64)
	for i, r := range rules {
		if r.path != nil && r.path.matchSubject(s, roots, lowerRoots, r.fold()) {
			b[i>>6] |= 1 << (i & 63)
		}
	}
	return b
}
