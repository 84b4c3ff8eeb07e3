package compress

import (
	"container/list"
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Defaults for Config's zero values.
const (
	DefaultContextSize    = 200000
	DefaultOffloadTokens  = 15000
	DefaultCompactTimeout = 5 * time.Minute
	DefaultSessionTimeout = 2 * time.Minute
	DefaultMaxSessions    = 1024
)

// Config configures a Pipeline.
type Config struct {
	// CacheDir is where offloaded content and archives go; required.
	CacheDir string
	// ContextSize is the context window assumed for agents that send no
	// usage_update; optional, defaults to DefaultContextSize.
	ContextSize int64
	// OffloadTokens is the tier-1 threshold in o200k tokens; optional,
	// defaults to DefaultOffloadTokens.
	OffloadTokens int
	// EventLog receives the compression events as JSONL; optional.
	EventLog io.Writer
	// Audit, if set, receives every compression event too (the audit log
	// when governance is on). It must not block for long.
	Audit func(Event) error
	// KeepReads turns tier 1 off for fs/read_text_file results; optional,
	// default false (whole-file reads over the threshold are offloaded).
	// Agents that read a file through the client to edit it (Gemini CLI's
	// edit tools) cannot edit files over the threshold while reads are
	// offloaded: the edit finds a reference, not the text.
	KeepReads bool
	// AgentCompact lets the bridge trigger the agent's own compaction
	// command (e.g. Claude's /compact) at RED; optional, default false.
	AgentCompact bool
	// CompactTimeout bounds an agent compaction turn; optional, defaults to
	// DefaultCompactTimeout.
	CompactTimeout time.Duration
	// MaxOffloadBytes bounds the content tier 1 writes to the cache in one
	// run, whatever the direction; past it larger content passes as is.
	// Optional, defaults to DefaultMaxOffloadBytes.
	MaxOffloadBytes int64
	// MaxSessions bounds the sessions the pipeline keeps state for (meter,
	// recorder, spooled conversation, ACCP state); the least recently used
	// is forgotten beyond it, and a later message in a forgotten session
	// starts its state afresh. Optional, defaults to DefaultMaxSessions.
	MaxSessions int
	// OnModeRestored, if set, hears that the agent took mode in the fresh
	// session a rollover of the IDE's session ide opened: the pipeline
	// sends that session the mode the session had (session/set_mode)
	// when the fresh one starts in another, past the middleware between
	// it and the IDE. It must not block.
	OnModeRestored func(ide, mode string)
	// OnRollover, if set, hears the agent's result for each session/new
	// the pipeline sends to continue the IDE's session ide in a fresh
	// agent session, before any later message of the agent is handled:
	// the middleware between the pipeline and the IDE (governance) never
	// sees that exchange, and the fresh session's modes are in it. It must
	// not block.
	OnRollover func(ide string, result []byte)
	// Logger receives diagnostics; optional, nil discards.
	Logger *slog.Logger
	// Clock returns the current time; optional, nil means time.Now.
	Clock func() time.Time
}

// Pipeline is the compression middleware's state: one per bridge. It keeps
// a meter, a recorder and ACCP warm state per session, offloads large
// content in both directions, checkpoints and rolls sessions over, and
// answers the bridge's quick commands. It is safe for concurrent use: the
// bridge calls it from both directions' handlers. It keeps copies of what
// it records, never a message or a slice of its bytes, so it may be added
// with acpwire.Bridge.UseNonRetaining (its tests poison reused blocks).
type Pipeline struct {
	cfg    Config
	s      acpwire.Sender
	store  *Store
	events *EventLog
	accp   *accp.Store
	logger *slog.Logger
	ids    acpparams.SessionIDs // the session id of the chunks read last

	mu        sync.Mutex                 // guards sessions, recency, downToIDE, ideToDown, loading; taken before any session's mu (lockChanging to change them)
	hit       atomic.Pointer[sessionHit] // updateSession's last answer; nil once any of mu's fields changes
	sessions  map[string]*session
	recency   *list.List // of *session, the most recently used first
	downToIDE map[string]string
	ideToDown map[string]string
	loading   map[string]bool

	settler settler

	offloaded   atomic.Int64 // bytes of content offloaded in this run (reserveOffload)
	budgetSpent atomic.Bool  // an offload was refused for the budget: warned once

	closeLog func() error // closes the event log file Open opened; nil otherwise
}

// New returns a pipeline speaking through s.
func New(cfg Config, s acpwire.Sender) (*Pipeline, error) {
	if cfg.CacheDir == "" {
		return nil, fmt.Errorf("compress: no cache directory")
	}
	if cfg.ContextSize <= 0 {
		cfg.ContextSize = DefaultContextSize
	}
	if cfg.OffloadTokens <= 0 {
		cfg.OffloadTokens = DefaultOffloadTokens
	}
	if cfg.CompactTimeout <= 0 {
		cfg.CompactTimeout = DefaultCompactTimeout
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxOffloadBytes <= 0 {
		cfg.MaxOffloadBytes = DefaultMaxOffloadBytes
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Pipeline{
		cfg:       cfg,
		s:         s,
		store:     NewStore(cfg.CacheDir, cfg.Clock),
		events:    NewEventLog(cfg.EventLog, cfg.Audit),
		accp:      accp.NewStore(),
		logger:    logger,
		sessions:  map[string]*session{},
		recency:   list.New(),
		downToIDE: map[string]string{},
		ideToDown: map[string]string{},
		loading:   map[string]bool{},
	}, nil
}

// Close deletes the sessions' spooled conversations (archives written at
// checkpoints stay) and closes the event log file Open opened. Call it when the bridge stops; the pipeline must not
// be used afterwards.
func (p *Pipeline) Close() error {
	p.lockChanging()
	sessions := make([]*session, 0, len(p.sessions))
	for _, s := range p.sessions {
		sessions = append(sessions, s)
	}
	p.mu.Unlock()
	var first error
	for _, s := range sessions {
		s.mu.Lock()
		if err := s.rec.removeSpool(); err != nil && first == nil {
			first = fmt.Errorf("removing the spooled conversation of session %s: %v", s.ide, err)
		}
		s.mu.Unlock()
	}
	if p.closeLog != nil {
		// A failed write shows in Events().Err(); closing adds nothing.
		_ = p.closeLog()
	}
	return first
}

// Store returns the pipeline's cache.
func (p *Pipeline) Store() *Store { return p.store }

// OffloadTokens returns the tier-1 threshold in o200k tokens.
func (p *Pipeline) OffloadTokens() int { return p.cfg.OffloadTokens }

// Events returns the pipeline's compression event log.
func (p *Pipeline) Events() *EventLog { return p.events }

// Wrap implements acpwire.Wrapper: a Pipeline added with Bridge.Use
// compresses, and is registered for cancellations as an acpwire.Preempter
// (see Preempt).
func (p *Pipeline) Wrap(next acpwire.Handler) acpwire.Handler { return p.Middleware()(next) }

// Middleware returns the compression middleware.
func (p *Pipeline) Middleware() acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			if m.Dir == acpwire.ClientToAgent {
				return p.fromClient(ctx, m, next)
			}
			return p.fromAgent(ctx, m, next)
		})
	}
}

// Refused hears of a message the wire layer refused (set it as, or call
// it from, acpwire.Options.OnRefused): a session/load or session/resume
// whose answer the bridge refused, answering the IDE with an error in the
// agent's place, failed, and the session it would have opened is
// forgotten as after the agent's own error. Otherwise the pipeline would
// keep speaking to the IDE (its estimates, notes) in the name of a session
// the IDE never opened. Refused is safe for concurrent use.
func (p *Pipeline) Refused(r acpwire.Refusal) {
	m := r.Msg
	if !r.Answered || m == nil || m.Request == nil || m.Dir != acpwire.AgentToClient {
		return
	}
	switch m.Request.Method {
	case "session/load", "session/resume":
		p.loadSettled(m.Request)
		p.reopenFailed(m.Request)
	}
}

// Answered hears of the IDE's request req, which the bridge answered in
// the agent's place with resp (set it as, or call it from,
// acpwire.Options.OnAnswered): a session/load or session/resume that a
// feature nearer the agent refused (the Claude adapter, for a session it
// cannot apply the policy to) failed, and the session it would have
// opened is forgotten, as after the agent's own error. The pipeline's own
// refusal of a load naming the agent session a rollover opened opened
// nothing, and is passed over. Answered is safe for concurrent use and
// keeps neither req nor resp.
func (p *Pipeline) Answered(req *acpwire.Message, resp []byte) {
	if req == nil || req.Dir != acpwire.ClientToAgent {
		return
	}
	if _, failed := rawjson.Get(resp, "error"); !failed {
		return
	}
	switch req.Method {
	case "session/load", "session/resume":
		id, _ := rawjson.GetString(req.Params, "sessionId")
		p.mu.Lock()
		ide, continued := p.downToIDE[id]
		p.mu.Unlock()
		if continued && ide != id {
			return
		}
		p.loadSettled(req)
		p.reopenFailed(req)
	}
}

// Preempt hears session/cancel before it waits its turn: a compaction or
// rollover the bridge is running for that session is abandoned. Bridge.Use
// registers it. It does not block.
func (p *Pipeline) Preempt(m *acpwire.Message) {
	if !m.IsNotification("session/cancel") {
		return
	}
	id, _ := m.GetString("params", "sessionId")
	if s := p.lookup(id); s != nil {
		s.mu.Lock()
		cancel := s.cancelSetup
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

func (p *Pipeline) now() time.Time { return p.cfg.Clock() }

func (p *Pipeline) fromClient(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	switch m.Kind {
	case acpwire.KindRequest:
		if refused, err := p.refuseContinuation(m); refused {
			return err
		}
		switch m.Method {
		case "session/prompt":
			return p.prompt(ctx, m, next)
		case "session/load", "session/resume":
			id, _ := rawjson.GetString(m.Params, "sessionId")
			cwd, _ := rawjson.GetString(m.Params, "cwd")
			// The session's params for a rollover are taken from the
			// request as it reaches the agent (sessionReopened). One the
			// request opens lasts only if the agent opens it.
			if s, created := p.sessionCreating(id, cwd); created {
				s.mu.Lock()
				s.unconfirmed = true
				s.mu.Unlock()
			}
			if m.Method == "session/load" {
				p.lockChanging()
				p.loading[id] = true
				p.mu.Unlock()
			}
		case "session/close", "session/delete":
			id, _ := rawjson.GetString(m.Params, "sessionId")
			p.closeSession(id)
		}
	case acpwire.KindResponse:
		if m.Request != nil {
			if forwarded, err := p.clientResult(ctx, m, next); forwarded || err != nil {
				return err
			}
		}
	}
	out, err := p.translate(m, true)
	if err != nil {
		return err
	}
	return next.Handle(ctx, out)
}

func (p *Pipeline) fromAgent(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var settle settleJob
	switch m.Kind {
	case acpwire.KindNotification:
		if m.Method == "session/update" {
			return p.update(ctx, m, next)
		}
	case acpwire.KindRequest:
		if refused, err := p.guardWrite(m); refused {
			return err
		}
		p.agentRequest(m)
	case acpwire.KindResponse:
		if m.Request != nil {
			p.loadSettled(m.Request)
			switch {
			case m.Error != nil:
				p.agentError(m)
				if m.IsResponseTo("session/load") || m.IsResponseTo("session/resume") {
					p.reopenFailed(m.Request)
				}
			case m.IsResponseTo("session/new"), m.IsResponseTo("session/fork"):
				return p.sessionCreated(ctx, m, next)
			case m.IsResponseTo("session/load"), m.IsResponseTo("session/resume"):
				p.sessionReopened(m)
			case m.IsResponseTo("session/prompt"):
				settle = p.turnEnd(m)
			case m.IsResponseTo("session/set_mode"):
				p.modeSet(m)
			case m.IsResponseTo("session/set_model"), m.IsResponseTo("session/set_config_option"):
				p.settingChosen(m)
			}
		}
	}
	if settle.s != nil {
		// Queued once the response is out, so that the settled estimate's
		// usage_update follows it; reserved now, so that nothing waiting
		// on the settler misses it.
		p.settler.reserve()
		defer p.settler.add(p, settle.s, settle.p)
	}
	out, err := p.translate(m, false)
	if err != nil {
		return err
	}
	return next.Handle(ctx, out)
}
