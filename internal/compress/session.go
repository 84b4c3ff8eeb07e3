package compress

import (
	"container/list"
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// session is the pipeline's view of one IDE session.
type session struct {
	// used is the session's place in Pipeline.recency; guarded by the
	// Pipeline's mu.
	used *list.Element

	mu        sync.Mutex // guards every field below
	ide, down string
	newParams json.RawMessage // session/new params, reused for rollover
	meter     *Meter
	rec       *Recorder
	warm      *warmState
	agentCmds [][]byte // the agent's own available commands, raw
	// mode is the agent's permission mode in the session as last seen:
	// the modes.currentModeId of the result that opened it, a
	// session/set_mode the agent answered without an error, the agent's
	// current_mode_update. A rollover restores it in the fresh session.
	mode string
	// settings are the model and configuration options the person chose
	// in the session; a rollover restores them too.
	settings settings

	sentLevel    Level
	checkpointed bool   // a tier-3 checkpoint covers the current RED episode
	failedAt     Level  // level at which the last automatic checkpoint failed (0: none)
	summary      string // last verified summary (Markdown)
	archive      string
	pendingRoll  bool
	compacted    bool // the agent's compaction ran in this RED episode
	cancelSetup  context.CancelFunc
	terminals    map[string]string // terminalId -> command
	permissions  map[string]string // request id -> tool title
	watch        *driftWatch
	offloads     offloadSet // what offload wrote for this session
	// unconfirmed: the IDE's session/load or session/resume that created
	// the session has not been answered yet; an error answer forgets it.
	unconfirmed bool
}

// driftWatch collects the first turn after a compression.
type driftWatch struct {
	reason string
	obs    TurnObservation
}

// lookup returns the session the IDE knows as id, or nil.
func (p *Pipeline) lookup(id string) *session {
	p.lockChanging()
	defer p.mu.Unlock()
	s := p.sessions[id]
	if s != nil {
		p.recency.MoveToFront(s.used)
	}
	return s
}

// sessionFor returns the session the IDE knows as id, creating it.
func (p *Pipeline) sessionFor(id, cwd string) *session {
	s, _ := p.sessionCreating(id, cwd)
	return s
}

// sessionCreating is sessionFor, also reporting whether it created the
// session.
func (p *Pipeline) sessionCreating(id, cwd string) (*session, bool) {
	p.lockChanging()
	defer p.mu.Unlock()
	_, had := p.sessions[id]
	return p.sessionForLocked(id, cwd), !had
}

// updateSession returns, in one hold of p.mu, what a session/update from
// the agent needs: the IDE's id for the downstream session down (ideID),
// its session (lookup; nil when the IDE never opened it, see
// sessionForLocked) and whether the IDE is loading it. Most updates name
// the session the one before named, and nothing changed in between: then
// it returns what it returned then (p.hit) without taking p.mu. The
// session is the most recently used already (nothing moved another to the
// front since: that clears p.hit), so the answer is the one the locked
// path gives (TestUpdateSessionHit).
func (p *Pipeline) updateSession(down string) (ide string, s *session, loading bool) {
	if h := p.hit.Load(); h != nil && h.down == down {
		return h.ide, h.s, h.loading
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ide = down
	if id, ok := p.downToIDE[down]; ok {
		ide = id
	}
	s, loading = p.sessions[ide], p.loading[ide]
	if s != nil {
		p.recency.MoveToFront(s.used)
	}
	p.hit.Store(&sessionHit{down: down, ide: ide, s: s, loading: loading})
	return ide, s, loading
}

// sessionHit is what updateSession returned for down.
type sessionHit struct {
	down, ide string
	s         *session
	loading   bool
}

// lockChanging takes p.mu to change what it guards: updateSession's last
// answer may no longer hold.
func (p *Pipeline) lockChanging() {
	p.mu.Lock()
	p.hit.Store(nil)
}

// sessionForLocked is sessionFor with p.mu held. Sessions are created only
// from what the IDE does (its session/new answered, its load, resume or
// prompt, its answer to a request of the agent's), never from a session
// the agent names in its own messages: the pipeline speaks to the IDE on
// its own (estimates, notes, command lists) in the name of each session it
// keeps, bypassing governance, and the agent could otherwise have it speak
// in a session the IDE never opened, or crowd out the IDE's sessions.
func (p *Pipeline) sessionForLocked(id, cwd string) *session {
	s := p.sessions[id]
	if s == nil {
		rec := NewRecorder(id, cwd)
		rec.SpoolTo(p.store.spoolBase(id))
		s = &session{
			ide: id, down: id,
			meter:       NewMeter(p.cfg.ContextSize),
			rec:         rec,
			warm:        newWarmState(id, p.accp, p.cfg.Clock),
			terminals:   map[string]string{},
			permissions: map[string]string{},
		}
		p.sessions[id] = s
		s.used = p.recency.PushFront(s)
		p.forgetOverLocked()
	} else {
		p.recency.MoveToFront(s.used)
	}
	if cwd != "" {
		// Lock order: p.mu, then s.mu; nothing takes them the other way.
		s.mu.Lock()
		if s.rec.Cwd == "" {
			s.rec.Cwd = cwd
		}
		s.mu.Unlock()
	}
	return s
}

// forgetOverLocked forgets the least recently used sessions beyond
// Config.MaxSessions: their state, their ACCP state and their spooled
// conversation (the id translation of a rolled-over session stays, so its
// messages still reach the agent's session). p.mu is held; taking the
// forgotten session's mu after it keeps the lock order.
func (p *Pipeline) forgetOverLocked() {
	for len(p.sessions) > p.cfg.MaxSessions {
		e := p.recency.Back()
		old := e.Value.(*session)
		p.recency.Remove(e)
		delete(p.sessions, old.ide)
		p.accp.Forget(old.ide)
		p.logger.Info("compress: session forgotten, over the bound of sessions kept", "session", old.ide, "bound", p.cfg.MaxSessions)
		old.forget()
	}
}

// forget ends what a forgotten session still holds: a rollover or
// compaction it was setting up, and its spooled conversation.
func (s *session) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancelSetup != nil {
		s.cancelSetup()
	}
	_ = s.rec.removeSpool()
	// A turn still under way writes to memory from now on (bounded by
	// maxArchiveBytes), not to a spool nothing would remove.
	s.rec.spool = nil
}

// sessionCreated registers the session the agent opened for the IDE's
// session/new or session/fork, with the request's params as they reached
// the agent (a fork's without the source's sessionId, as session/new takes
// them) for a rollover (see sessionReopened), and offers the bridge's
// commands. A result without a session id opens nothing.
func (p *Pipeline) sessionCreated(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	id, _ := rawjson.GetString(m.Result, "sessionId")
	if id == "" {
		return next.Handle(ctx, m)
	}
	p.mu.Lock()
	taken := p.sessionIDTaken(id)
	p.mu.Unlock()
	if taken {
		// The agent chose an id the bridge already has a session for (an
		// open one, or the agent session one continues in since a
		// rollover): kept, the two would share it, and the new one's
		// messages would reach the IDE as the other's. The IDE is told
		// the session did not open.
		p.logger.Warn("refused a session the agent opened under an id already in use", "session", id)
		out, err := m.WithRaw(refusedOpen(m, id))
		if err != nil {
			return err
		}
		return next.Handle(ctx, out)
	}
	cwd, _ := rawjson.GetString(m.Request.Params, "cwd")
	params := append(json.RawMessage(nil), m.Request.Params...)
	if m.IsResponseTo("session/fork") {
		params = paramsWithout(m.Request.Params, "sessionId")
	}
	s := p.sessionFor(id, cwd)
	mode, _ := freshModeOf(m.Result) // modes, or the mode option of an agent showing no modes
	s.mu.Lock()
	s.newParams = params
	s.mode = mode
	s.mu.Unlock()
	if err := next.Handle(ctx, m); err != nil {
		return err
	}
	p.offerCommands(s)
	return nil
}

// refusedOpen returns an error response to the request m answers, whose
// result named session id, which another session already uses.
func refusedOpen(m *acpwire.Message, id string) []byte {
	e := acpwire.Errorf(acpwire.CodeInternalError,
		"acp-bridge: the agent answered %s with session %q, which another session already uses; the session was not opened", m.Request.Method, id)
	out, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *acpwire.Error  `json:"error"`
	}{"2.0", m.ID, e})
	return out
}

// sessionReopened keeps, for a rollover, the params of the IDE's
// session/load or session/resume the agent answered without an error, as
// they reached the agent (m.Request), less the session id: what the
// middleware between the pipeline and the agent added (the agent
// adapter's settings, its policy hook among them) belongs to the session,
// and the pipeline's own session/new reaches the agent past that
// middleware. The params of a session/new or fork already open are kept.
func (p *Pipeline) sessionReopened(m *acpwire.Message) {
	id, _ := rawjson.GetString(m.Request.Params, "sessionId")
	s := p.lookup(p.ideID(id))
	if s == nil {
		return
	}
	params := paramsWithout(m.Request.Params, "sessionId")
	mode, _ := freshModeOf(m.Result) // modes, or the mode option of an agent showing no modes
	s.mu.Lock()
	if s.newParams == nil {
		s.newParams = params
	}
	s.mode = mode
	s.unconfirmed = false
	s.mu.Unlock()
}

// loadSettled forgets that the IDE's session/load req is in progress once
// it is answered, by the agent or by the bridge in the agent's place; req
// of another method changes nothing.
func (p *Pipeline) loadSettled(req *acpwire.Message) {
	if req.Method != "session/load" {
		return
	}
	id, _ := rawjson.GetString(req.Params, "sessionId")
	ide := p.ideID(id)
	p.lockChanging()
	delete(p.loading, ide)
	p.mu.Unlock()
}

// reopenFailed forgets the session an IDE's session/load or
// session/resume req created when the agent answers it with an error (or
// the bridge does in its place): the IDE never opened it, and governance
// forgets it too.
func (p *Pipeline) reopenFailed(req *acpwire.Message) {
	id, _ := rawjson.GetString(req.Params, "sessionId")
	ide := p.ideID(id)
	s := p.lookup(ide)
	if s == nil {
		return
	}
	s.mu.Lock()
	failed := s.unconfirmed
	s.mu.Unlock()
	if failed {
		p.closeSession(ide)
	}
}

// closeSession forgets the session the IDE closes or deletes (its
// session/close or session/delete): from then on the pipeline keeps
// nothing for it and never speaks to the IDE in its name, as governance
// refuses the agent's messages naming it. A later load or resume opens
// it afresh.
func (p *Pipeline) closeSession(id string) {
	p.lockChanging()
	defer p.mu.Unlock()
	s := p.sessions[id]
	if s == nil {
		return
	}
	p.recency.Remove(s.used)
	delete(p.sessions, id)
	delete(p.loading, id)
	p.accp.Forget(id)
	// Lock order: p.mu, then s.mu.
	s.forget()
}

// paramsWithout returns params with key removed.
func paramsWithout(params []byte, key string) json.RawMessage {
	out, err := rawjson.Delete(params, key)
	if err != nil {
		return append(json.RawMessage(nil), params...)
	}
	return out
}

func (p *Pipeline) agentError(m *acpwire.Message) {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(m.Error, &e)
	id, _ := rawjson.GetString(m.Request.Params, "sessionId")
	if s := p.lookup(p.ideID(id)); s != nil {
		s.mu.Lock()
		s.rec.Error(m.Request.Method, e.Code, e.Message)
		s.mu.Unlock()
	}
}

// agentRequest notes what the agent asks the IDE for: terminals (to name
// their output later), permissions (for decisions), reads (drift checks).
// The note is made as the request goes out to the IDE: one the middleware
// past the pipeline refuses (governance) never ran, and is neither in the
// session's record (the archive) nor counted as work for the drift watch.
func (p *Pipeline) agentRequest(m *acpwire.Message) {
	down, _ := rawjson.GetString(m.Params, "sessionId")
	s := p.lookup(p.ideID(down))
	if s == nil {
		return
	}
	switch m.Method {
	case "terminal/create":
		cmd, _ := rawjson.GetString(m.Params, "command")
		var args []string
		if raw, ok := rawjson.Get(m.Params, "args"); ok {
			_ = json.Unmarshal(raw, &args)
		}
		note, at := "terminal/create "+strings.Join(append([]string{cmd}, args...), " "), m.Received
		m.WhenPassed(func() {
			s.mu.Lock()
			s.rec.Note(at, "Tool", note)
			s.mu.Unlock()
		})
	case "fs/read_text_file", "fs/write_text_file":
		path, _ := rawjson.GetString(m.Params, "path")
		if p.store.Contains(path) {
			return // recovery reads are neither work nor drift
		}
		write := m.Method == "fs/write_text_file"
		m.WhenPassed(func() {
			s.mu.Lock()
			if s.watch != nil {
				s.watch.obs.Touched = append(s.watch.obs.Touched, path)
				s.watch.obs.ToolCalls++
				if write {
					s.watch.obs.Edits++
				}
			}
			s.mu.Unlock()
		})
	}
}
