package compress

import "path/filepath"

// maxSessionOffloads bounds the offloads a session remembers for
// Pipeline.Offloaded; past it the oldest is forgotten, and reading it is
// decided as any file outside the workspace again.
const maxSessionOffloads = 1024

// offloadSet is the files offloaded for one session, as written and with
// their symlinks resolved, at most maxSessionOffloads of each, oldest
// first in order. Guarded by its session's mu.
type offloadSet struct {
	has   map[string]int // path -> how many entries of order name it
	order []string
}

// add remembers path, the file offload wrote, and its resolved form.
func (o *offloadSet) add(path, resolved string) {
	if o.has == nil {
		o.has = map[string]int{}
	}
	forms := []string{path}
	if resolved != "" && resolved != path {
		forms = append(forms, resolved)
	}
	for _, f := range forms {
		o.order = append(o.order, f)
		o.has[f]++
	}
	for len(o.order) > 2*maxSessionOffloads {
		old := o.order[0]
		o.order = o.order[1:]
		if o.has[old]--; o.has[old] <= 0 {
			delete(o.has, old)
		}
	}
}

// remove forgets one entry of path and of its resolved form, as add
// remembered them: the offload of a message the bridge did not pass on.
func (o *offloadSet) remove(path, resolved string) {
	forms := []string{path}
	if resolved != "" && resolved != path {
		forms = append(forms, resolved)
	}
	for _, f := range forms {
		for i := len(o.order) - 1; i >= 0; i-- {
			if o.order[i] == f {
				o.order = append(o.order[:i], o.order[i+1:]...)
				if o.has[f]--; o.has[f] <= 0 {
					delete(o.has, f)
				}
				break
			}
		}
	}
}

// resolvedOffload returns path with its symlinks resolved, or "" if it
// cannot be resolved.
func resolvedOffload(path string) string {
	r, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	return r
}

// offloadSessionLocked returns the session id names, the IDE's id for it
// or the agent's after a rollover, or nil if the pipeline does not keep
// it. p.mu must be held.
func (p *Pipeline) offloadSessionLocked(id string) *session {
	if s := p.sessions[id]; s != nil {
		return s
	}
	if ide, ok := p.downToIDE[id]; ok {
		return p.sessions[ide]
	}
	return nil
}

// Offloaded reports whether path, compared exactly, is a file the
// pipeline offloaded for session (the IDE's id for it, or the agent's
// after a rollover), as written or with its symlinks resolved: what
// governance's OffloadReader asks before letting the agent read its own
// offloads. A session the pipeline no longer keeps (Options.MaxSessions)
// has none. Offloaded is safe for concurrent use and does not block on
// I/O.
func (p *Pipeline) Offloaded(session, path string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.offloadSessionLocked(session)
	if s == nil {
		return false
	}
	// Lock order: p.mu, then s.mu.
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offloads.has[path] > 0
}

// KeepCopy writes content, a copy of a file an agent's own read was
// limited to part of (the Claude Code adapter's Tier 1), to the cache as
// tool's offload and returns its path. The copy is one of session's
// offloads (Offloaded: session is the IDE's id for it or the agent's) when
// the pipeline keeps that session, so the agent may read it back by the
// path it is told, as it may any offload of its session; else it is
// written all the same and decided as any file of the cache.
func (p *Pipeline) KeepCopy(session, tool, content string) (string, error) {
	path, err := p.store.WriteOffloaded(tool, content)
	if err != nil {
		return "", err
	}
	resolved := resolvedOffload(path) // before the locks: Offloaded must not wait on I/O
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.offloadSessionLocked(session)
	if s != nil {
		// Lock order: p.mu, then s.mu.
		s.mu.Lock()
		s.offloads.add(path, resolved)
		s.mu.Unlock()
	}
	return path, nil
}
