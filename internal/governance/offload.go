package governance

import (
	"fmt"
	"sync/atomic"
)

// OffloadReader knows which files the bridge's context compression wrote
// for which session: the offloaded copies whose references (a path and a
// line range) the agent was given in place of content. Offloaded reports
// whether path, absolute and compared exactly, is one of session's. An
// OffloadReader is safe for concurrent use and must not block.
type OffloadReader interface {
	Offloaded(session, path string) bool
}

// offloadBox holds an OffloadReader for atomic.Pointer.
type offloadBox struct{ r OffloadReader }

// offloadAllowance is the engine's OffloadReader, nil until
// SetOffloadReader.
type offloadAllowance struct{ p atomic.Pointer[offloadBox] }

// SetOffloadReader lets the agent read the files the compression pipeline
// offloaded for its own session, wherever the cache lies: a read (never a
// write, a command or a fetch) of a path whose forms and resolved form are
// one of the session's offloads (OffloadReader.Offloaded) is allowed where
// the built-in outside-roots deny, the policy's default or the cache's
// read protection (ProtectedPath.OwnOffloads) would decide otherwise. A
// policy rule stricter than allow that names the file still decides it,
// and the cache stays protected from changes. A nil r removes the
// allowance.
func (e *Engine) SetOffloadReader(r OffloadReader) {
	if r == nil {
		e.offloads.p.Store(nil)
		return
	}
	e.offloads.p.Store(&offloadBox{r: r})
}

// ownOffload reports whether form, a form of a path of in's request, and
// resolved, the path's form with every symlink resolved, both name a file
// the bridge offloaded for the request's session, and in reads it and does
// nothing else. A path that resolves to the offload through a link is no
// offload itself: its other forms are decided as any other path.
func (e *Engine) ownOffload(in *reqInfo, form, resolved string) bool {
	b := e.offloads.p.Load()
	if b == nil || in.req.Session == "" {
		return false
	}
	if !in.read || in.write || in.command || in.fetch || in.opaque || in.req.Command != "" || in.req.URL != "" {
		return false
	}
	return b.r.Offloaded(in.req.Session, form) && (resolved == form || b.r.Offloaded(in.req.Session, resolved))
}

// offloadVerdict allows reading form, one of the session's offloads.
func offloadVerdict(action, form string) verdict {
	return verdict{value: Allow, ref: "session-offload", ruleTx: "allow reading the requesting ACP session's own offloads (built-in)",
		reason: fmt.Sprintf("%s %s: the bridge's offload of this session", action, form)}
}

// ownOffloadForms reports whether every one of forms, a request path's
// forms (pathForms, the resolved one last), names one of the session's
// offloads (ownOffload): the path names it exactly, through no link.
func (e *Engine) ownOffloadForms(in *reqInfo, forms []string) bool {
	if len(forms) == 0 {
		return false
	}
	for _, f := range forms {
		if !e.ownOffload(in, f, forms[len(forms)-1]) {
			return false
		}
	}
	return true
}

// withoutOffloadCaches returns list without the locations that keep the
// sessions' offloads (ProtectedPath.OwnOffloads).
func withoutOffloadCaches(list []protected) []protected {
	out := make([]protected, 0, len(list))
	for _, pr := range list {
		if !pr.OwnOffloads {
			out = append(out, pr)
		}
	}
	return out
}
