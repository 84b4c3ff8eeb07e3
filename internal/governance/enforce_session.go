package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

type sessionState struct {
	cwd     string
	roots   []string
	state   string // operator lifecycle: invoked, running, suspended, completed, interrupted
	loading int
	mode    string // the agent's permission mode, as the wire showed it (enforce_mode.go)
	// carried counts the file writes and terminals the bridge let through
	// in the session (enforce_refusal.go).
	carried int
	// prompt is the content blocks of the person's prompt while its turn
	// runs, which the agent may echo as the person's words, and toldWords
	// whether the person was told in that turn of words the agent sent as
	// theirs (enforce_userwords.go).
	prompt    []byte
	toldWords bool
}

type openState struct {
	method, cwd string
	// session is the session the request opens when it names it
	// (session/load, session/resume); a session/new or session/fork
	// opens the one its response names. A fork's sessionId is the
	// session it copies, which keeps its own workspace and mode.
	session    string
	roots      []string
	named      bool // the request named session, which was not open before
	mcpServers []mcpServerDecl
}

type openParams struct {
	SessionID             string          `json:"sessionId"`
	Cwd                   string          `json:"cwd"`
	AdditionalDirectories []string        `json:"additionalDirectories"`
	MCPServers            []mcpServerDecl `json:"mcpServers"`
}

func (x *Enforcer) onOpen(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p openParams
	if err := decodeStrict(m, &p); err != nil {
		return x.refuseUnreadable(m, err)
	}
	roots := x.roots()
	if len(roots) == 0 && p.Cwd != "" {
		roots = []string{p.Cwd}
	}
	dirs := append([]string{p.Cwd}, p.AdditionalDirectories...)
	req := Request{Action: ActionSessionNew, Paths: dirs, Cwd: p.Cwd, Roots: roots}
	if p.Cwd == "" {
		req.Paths = p.AdditionalDirectories
	}
	d := x.decide(req)
	if len(req.Paths) == 0 {
		d = Decision{Value: Allow, Ref: "default", Rule: "no directories to check", Reason: "the session names no directories"}
	}
	if l := x.checkListedOpen(m.Method, p.SessionID, req.Paths); l.Value == Deny {
		d = l
	}
	ev := audit.Event{Actor: actorBridge, Action: "session.new", Subject: audit.Subject{Kind: "session", Ref: p.SessionID, Path: p.Cwd},
		Input:  map[string]any{"method": m.Method, "cwd": p.Cwd, "additionalDirectories": p.AdditionalDirectories},
		Policy: policyOf(d), Metadata: decisionMeta(d, p.SessionID, nil)}
	if err := x.record(ev); err != nil {
		return acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: cannot open a session: the audit log cannot be written: %v", err)
	}
	// Opening a session is the person's own act in the IDE: only deny
	// refuses it; there is no session yet to ask for approval in.
	if d.Value == Deny {
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	x.mu.Lock()
	x.chooseLocked(req.Paths...)
	op := &openState{method: m.Method, cwd: p.Cwd, roots: append(roots, p.AdditionalDirectories...), mcpServers: p.MCPServers}
	if m.Method == "session/load" || m.Method == "session/resume" {
		op.session = p.SessionID
	}
	if r := x.roots(); len(r) > 0 {
		op.roots = r
	}
	x.opens[string(bytes.TrimSpace(m.ID))] = op
	if m.Method == "session/load" || m.Method == "session/resume" {
		op.named = x.openSessionLocked(p.SessionID)
		if s := x.sessions[p.SessionID]; p.SessionID != "" && (s == nil || s.cwd == "" && len(s.roots) == 0) {
			s = x.sessionLocked(p.SessionID)
			// The agent replays the session, and may ask the IDE for
			// files and terminals in it, before it answers: in the
			// directories the IDE named, not in a cwd it gives.
			s.cwd, s.roots = op.cwd, op.roots
		}
	}
	if m.Method == "session/load" && p.SessionID != "" {
		s := x.sessionLocked(p.SessionID)
		s.loading++
		x.loadingN.Add(1)
	}
	x.mu.Unlock()
	x.reportEvictions()
	return next.Handle(ctx, m)
}

// sessionLocked returns the state of session id, creating it. x.mu held.
func (x *Enforcer) sessionLocked(id string) *sessionState {
	s := x.sessions[id]
	if s == nil {
		s = &sessionState{}
		x.sessions[id] = s
	}
	return s
}

func (x *Enforcer) onOpened(m *acpwire.Message) {
	rid, _ := m.GetString("result", "sessionId")
	x.settleOpen(m.Request, m.Error != nil, rid, m.Result)
}

// settleOpen applies the answer to the IDE's session/new, load, resume or
// fork req: failed, or a success whose result gives the session id rid
// (session/new, fork), which then has the workspace and mode the request
// and the result give it.
func (x *Enforcer) settleOpen(req *acpwire.Message, failed bool, rid string, result json.RawMessage) {
	key := string(bytes.TrimSpace(req.ID))
	x.mu.Lock()
	op := x.opens[key]
	delete(x.opens, key)
	if op == nil {
		x.mu.Unlock()
		return
	}
	sid := op.session
	if sid == "" {
		sid = rid
	}
	if op.method == "session/load" && op.session != "" {
		if s := x.sessions[op.session]; s != nil && s.loading > 0 {
			s.loading--
			x.loadingN.Add(-1)
		}
	}
	if failed && op.named {
		// The session was not open before the IDE named it: nothing
		// kept for it outlives the failure.
		x.dropSessionLocked(op.session)
	}
	if !failed && (op.method == "session/new" || op.method == "session/fork") {
		x.openSessionLocked(rid)
	}
	if failed || sid == "" || !x.opened.has(sid) {
		x.mu.Unlock()
		x.reportEvictions()
		return
	}
	s := x.sessionLocked(sid)
	s.cwd, s.roots = op.cwd, op.roots
	s.mode = openedMode(result)
	mode := s.mode
	x.offerMCPServersLocked(sid, op.mcpServers)
	from := s.state
	s.state = "invoked"
	x.mu.Unlock()
	x.reportEvictions()
	input := map[string]any{"method": op.method}
	if mode != "" {
		input["mode"] = mode
	}
	x.append(audit.Event{Actor: x.agent, Action: "session.start", Subject: audit.Subject{Kind: "session", Ref: sid, Path: op.cwd},
		Input: input, Metadata: map[string]any{"session": sid}})
	x.lifecycle(sid, from, "invoked", op.method+" answered")
}

// lifecycle records an operator lifecycle transition (AIP-9 states).
func (x *Enforcer) lifecycle(sid, from, to, why string) {
	if from == to {
		return
	}
	in := map[string]any{"to": to, "cause": why}
	if from != "" {
		in["from"] = from
	}
	x.append(audit.Event{Actor: x.agent, Action: "operator.lifecycle", Subject: audit.Subject{Kind: "operator", Ref: sid},
		Input: in, Metadata: map[string]any{"session": sid, "operator": x.agent.ID}})
}

// transition moves session sid to state to and records it. A session the
// bridge does not keep (never opened, closed or forgotten) gets no state:
// what an agent names does not make the bridge keep anything.
func (x *Enforcer) transition(sid, to, why string) {
	if sid == "" {
		return
	}
	x.mu.Lock()
	from := ""
	if s := x.sessions[sid]; s != nil {
		from = s.state
		s.state = to
	}
	x.mu.Unlock()
	x.lifecycle(sid, from, to, why)
}

// onPrompt records the IDE's prompt and makes its session the most
// recently used. A prompt in a session the bridge forgot as the least
// recently used is answered with an error: the agent could not act in it
// until the IDE loads or resumes it.
func (x *Enforcer) onPrompt(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	sid, _ := m.GetString("params", "sessionId")
	prompt, _ := m.Get("params", "prompt")
	x.mu.Lock()
	forgotten := x.forgotten.has(sid)
	if !forgotten {
		x.opened.touch(sid)
		if s := x.sessions[sid]; s != nil {
			s.prompt, s.toldWords = bytes.Clone(prompt), false
		}
		x.prompts[string(bytes.TrimSpace(m.ID))] = sid
		// A session runs one turn at a time: the IDE prompts again only
		// once it read the last turn as ended, whether or not the bridge
		// saw its end (an answer over the size limit), so what that
		// turn's approvals covered ends here at the latest.
		x.endApprovalsLocked(sid)
	}
	x.mu.Unlock()
	if forgotten {
		d := Decision{Value: Deny, Ref: "session-scope", Rule: "the agent acts only in sessions the IDE opened (session/new, fork, load, resume) and has not closed",
			Reason: fmt.Sprintf("acp-bridge forgot session %q because more than %d sessions were open; load or resume it first", sid, x.maxSessions())}
		x.append(audit.Event{Actor: actorUser, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
			Input: map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String()}, Policy: policyOf(d), Metadata: decisionMeta(d, sid, nil)})
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeResourceNotFound, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	x.append(audit.Event{Actor: actorUser, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: sid},
		Input: map[string]any{"prompt": json.RawMessage(bytes.Clone(prompt))}, Metadata: map[string]any{"session": sid}})
	x.transition(sid, "running", "session/prompt")
	return next.Handle(ctx, m)
}

func (x *Enforcer) onPromptDone(m *acpwire.Message) {
	stop, _ := m.GetString("result", "stopReason")
	x.endTurn(m.Request, m.Error != nil, stop)
}

// endTurn ends the turn of the IDE's session/prompt req, answered with
// stopReason stop or (failed) with an error: what the approvals given in
// it cover ends with it.
func (x *Enforcer) endTurn(req *acpwire.Message, failed bool, stop string) {
	key := string(bytes.TrimSpace(req.ID))
	x.mu.Lock()
	sid := x.prompts[key]
	delete(x.prompts, key)
	if s := x.sessions[sid]; s != nil {
		s.prompt = nil
	}
	delete(x.setModes, rolloverKey(sid)) // a restore the agent refused
	x.endApprovalsLocked(sid)
	x.mu.Unlock()
	switch {
	case failed:
		x.transition(sid, "interrupted", "session/prompt failed")
	case stop == "cancelled":
		x.transition(sid, "interrupted", "turn cancelled")
	default:
		x.transition(sid, "completed", "turn ended: "+stop)
	}
}

// endApprovalsLocked ends what the approvals of session sid's tool calls
// cover: a call does not outlive its turn. x.mu held.
func (x *Enforcer) endApprovalsLocked(sid string) {
	for _, c := range x.calls {
		if c.session == sid {
			c.approvedBy = ""
		}
	}
}

func (x *Enforcer) onClose(m *acpwire.Message) {
	sid, _ := m.GetString("params", "sessionId")
	x.mu.Lock()
	x.dropSessionLocked(sid)
	x.mu.Unlock()
	x.append(audit.Event{Actor: actorUser, Action: "session.end", Subject: audit.Subject{Kind: "session", Ref: sid},
		Input: map[string]any{"method": m.Method}, Metadata: map[string]any{"session": sid}})
}

// Close records session.end for every session still open, with why as
// the cause; the bridge calls it on shutdown.
func (x *Enforcer) Close(why string) {
	x.mu.Lock()
	var ids []string
	for id := range x.sessions {
		ids = append(ids, id)
	}
	x.sessions = map[string]*sessionState{}
	x.opened, x.forgotten = newOpenSessions(), newOpenSessions()
	x.terminals, x.terminalOrder = map[string]bool{}, nil
	x.calls, x.stopped = map[string]*callState{}, map[string]bool{}
	x.order, x.keptTotal = nil, 0
	x.mu.Unlock()
	for _, id := range ids {
		x.append(audit.Event{Actor: actorBridge, Action: "session.end", Subject: audit.Subject{Kind: "session", Ref: id},
			Input: map[string]any{"cause": why}, Metadata: map[string]any{"session": id}})
	}
}

// sessionContext returns the cwd and workspace roots of session sid as the
// IDE opened it. A session whose workspace the bridge does not know has
// the root noWorkspace: never the cwd a request gives (a terminal's, a
// tool's), which the engine would otherwise take for the workspace, so
// that a terminal the agent starts in / would have the whole disk inside
// it.
func (x *Enforcer) sessionContext(sid string) (string, []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s := x.sessions[sid]; s != nil && (s.cwd != "" || len(s.roots) > 0) {
		return s.cwd, sessionRoots(s)
	}
	return "", []string{noWorkspace}
}

// Roots returns the workspace roots of session sid as the IDE opened it
// (its cwd and additional directories). For a session the bridge does not
// know it returns those of the one open session when exactly one is open,
// nil when none is, and noWorkspace when several are: a caller naming no
// session the bridge knows (Claude's hook after a rollover it did not see)
// must not gain the workspaces of sessions other than its own, and with
// several open the bridge cannot tell which is its own, so nothing is
// inside the workspace. The engine's own roots, when it has any, take
// precedence over these. It is safe for concurrent use.
func (x *Enforcer) Roots(sid string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s := x.sessions[sid]; s != nil && (s.cwd != "" || len(s.roots) > 0) {
		return sessionRoots(s)
	}
	var only *sessionState
	for _, s := range x.sessions {
		if s.cwd == "" && len(s.roots) == 0 {
			continue
		}
		if only != nil {
			return []string{noWorkspace}
		}
		only = s
	}
	if only == nil {
		return nil
	}
	return sessionRoots(only)
}

// noWorkspace is a root no file can be inside (/dev/null is no
// directory): the roots of a session the bridge cannot attribute, so
// every path it names is outside the workspace.
const noWorkspace = "/dev/null/acp-bridge-no-workspace"

// Mode returns the mode of session sid as the wire last showed it (see
// enforce_mode.go): "" when the bridge does not know the session or saw
// no mode for it, ModeUnreadable when the mode was set in a message it
// could not read. It is safe for concurrent use.
func (x *Enforcer) Mode(sid string) string {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s := x.sessions[sid]; s != nil {
		return s.mode
	}
	return ""
}

func sessionRoots(s *sessionState) []string {
	if len(s.roots) > 0 {
		return append([]string(nil), s.roots...)
	}
	if s.cwd != "" {
		return []string{s.cwd}
	}
	return nil
}
