package governance

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Without --workspace-root a session's workspace is the cwd (and
// additionalDirectories) the IDE sends when it opens the session. On
// session/new and session/fork the IDE names the directories the person
// opened; on session/load and session/resume of a session picked from the
// IDE's history it may name the directories the agent itself listed for that
// session in its session/list answer (Zed keeps each listed session's cwd and
// additionalDirectories as the thread's folders and loads the thread in
// them). An agent listing a session in "/" or the person's home would then
// choose the workspace the bridge confines it to, once the person clicks the
// entry.
//
// So the directories of the agent's session/list answer are judged as a
// session opened in them would be, against the directories the person chose:
// the --workspace-root directories, or else those the IDE itself named in
// this run (session/new, session/fork, a session/list request's cwd, and the
// session/load and session/resume the bridge let through). An entry naming a
// directory outside them is taken out of the answer (the rest byte for
// byte), recorded (session.listed) and logged; a later session/load,
// session/resume or session/fork naming a directory taken out that way, and
// outside the chosen ones, is refused.

// maxChosen bounds each list of directories kept for this check; past it
// the oldest are dropped (chosen) or every directory counts as listed.
const maxChosen = 1024

// listedSession is what the bridge reads of one entry of a session/list
// answer, with case-exact names.
type listedSession struct {
	SessionID             string   `json:"sessionId"`
	Cwd                   string   `json:"cwd"`
	AdditionalDirectories []string `json:"additionalDirectories"`
}

// chooseLocked adds dirs, named by the IDE, to the directories the person
// chose. x.mu held.
func (x *Enforcer) chooseLocked(dirs ...string) {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		d = filepath.Clean(d)
		seen := false
		for _, c := range x.chosen {
			if c == d {
				seen = true
				break
			}
		}
		if !seen {
			x.chosen = append(x.chosen, d)
		}
	}
	if n := len(x.chosen); n > maxChosen {
		x.chosen = append([]string(nil), x.chosen[n-maxChosen:]...)
	}
}

// chosenRoots returns the directories a session the agent lists must lie
// in: the configured workspace roots, or the directories the IDE named.
func (x *Enforcer) chosenRoots() []string {
	if r := x.roots(); len(r) > 0 {
		return r
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]string(nil), x.chosen...)
}

// onListRequest notes the cwd the IDE asks the agent to list sessions of:
// the IDE named it.
func (x *Enforcer) onListRequest(m *acpwire.Message) {
	if cwd, ok := m.GetString("params", "cwd"); ok {
		x.mu.Lock()
		x.chooseLocked(cwd)
		x.mu.Unlock()
	}
}

// onListed judges the sessions of the agent's session/list answer before
// the IDE sees them.
func (x *Enforcer) onListed(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	if x.engine == nil || m.Error != nil {
		return next.Handle(ctx, m)
	}
	list, ok := m.Get("result", "sessions")
	if !ok {
		return next.Handle(ctx, m)
	}
	var entries []json.RawMessage
	if err := strictlyRead(m); err != nil || unmarshalStrict(list, &entries) != nil {
		x.log.Warn("the agent's session list cannot be read one way only; the IDE gets none of its sessions")
		return x.forwardKept(ctx, m, next, "sessions", "session list", nil, true)
	}
	roots := x.chosenRoots()
	kept := make([]json.RawMessage, 0, len(entries))
	var removed []string
	for i, raw := range entries {
		var s listedSession
		var d Decision
		dirs := []string(nil)
		if err := unmarshalStrict(raw, &s); err != nil {
			d = Decision{Value: Deny, Ref: "strict-json", Rule: "judged messages are read as the IDE reads them",
				Reason: fmt.Sprintf("session %d of the agent's list cannot be read one way only: %v", i, err)}
		} else {
			d, dirs = x.decideListed(s, roots)
		}
		ev := audit.Event{Actor: x.agent, Action: "session.listed", Subject: audit.Subject{Kind: "session", Ref: s.SessionID, Path: s.Cwd},
			Input:  map[string]any{"cwd": s.Cwd, "additionalDirectories": s.AdditionalDirectories},
			Policy: policyOf(d), Metadata: decisionMeta(d, s.SessionID, map[string]any{"removed": d.Value != Allow})}
		if d.Value == Allow {
			// Kept sessions are recorded only in the log's own terms:
			// a list can be long and is asked for often.
			kept = append(kept, raw)
			continue
		}
		if err := x.record(ev); err != nil {
			x.log.Warn("cannot record a session taken out of the agent's list", "err", err)
		}
		removed = append(removed, dirs...)
		x.log.Warn("a session the agent listed in directories the person did not open was taken out of its session/list answer",
			"session", s.SessionID, "cwd", s.Cwd, "reason", d.Reason)
	}
	if len(removed) > 0 {
		x.mu.Lock()
		for _, d := range removed {
			if len(x.listed) >= maxChosen {
				x.listedFull = true
				break
			}
			x.listed[filepath.Clean(d)] = true
		}
		x.mu.Unlock()
	}
	return x.forwardKept(ctx, m, next, "sessions", "session list", kept, len(kept) != len(entries))
}

// decideListed decides the directories of s, a session the agent listed,
// as a session opened in them would be decided within roots; with no roots
// (the IDE has named none yet) none is inside. It returns the decision and
// the directories it covers.
func (x *Enforcer) decideListed(s listedSession, roots []string) (Decision, []string) {
	dirs := append([]string{s.Cwd}, s.AdditionalDirectories...)
	if s.Cwd == "" {
		dirs = s.AdditionalDirectories
	}
	if len(dirs) == 0 {
		return Decision{Value: Allow, Ref: "default", Rule: "no directories to check", Reason: "the session names no directories"}, nil
	}
	if len(roots) == 0 {
		return Decision{Value: Deny, Ref: "listed-directories", Rule: listedRule,
			Reason: fmt.Sprintf("the agent listed session %q in %q, and the IDE has opened no directory in this run", s.SessionID, dirs[0])}, dirs
	}
	d := x.decide(Request{Action: ActionSessionNew, Paths: dirs, Cwd: s.Cwd, Roots: roots})
	if d.Value != Allow {
		d = Decision{Value: Deny, Ref: "listed-directories", Rule: listedRule,
			Reason: fmt.Sprintf("the agent listed session %q in directories the person did not open: %s", s.SessionID, d.Reason)}
	}
	return d, dirs
}

// listedRule is the rule a session the agent listed is decided by.
const listedRule = "a session the agent lists opens only in directories the person opened (--workspace-root, or those the IDE named in this run)"

// checkListedOpen refuses a session/load, session/resume or session/fork
// (no --workspace-root) naming a directory the bridge took out of the
// agent's session list and that lies outside the directories the IDE
// named; it returns the refusal, or the zero Decision. A session/new is
// the person opening a directory of their own.
func (x *Enforcer) checkListedOpen(method, sid string, dirs []string) Decision {
	if x.engine == nil || len(x.roots()) > 0 || method == "session/new" {
		return Decision{}
	}
	x.mu.Lock()
	var suspect []string
	for _, d := range dirs {
		if d != "" && (x.listedFull || x.listed[filepath.Clean(d)]) {
			suspect = append(suspect, d)
		}
	}
	chosen := append([]string(nil), x.chosen...)
	x.mu.Unlock()
	if len(suspect) == 0 {
		return Decision{}
	}
	if len(chosen) > 0 {
		d := x.decide(Request{Action: ActionSessionNew, Paths: suspect, Cwd: suspect[0], Roots: chosen})
		if d.Value == Allow {
			return Decision{}
		}
	}
	return Decision{Value: Deny, Ref: "listed-directories", Rule: listedRule,
		Reason: fmt.Sprintf("session %q would open in %q, a directory only the agent named (in its session list), never the IDE in this run; open a new session there first, or start acp-bridge with --workspace-root", sid, suspect[0])}
}
