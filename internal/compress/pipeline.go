package compress

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/accp"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Defaults for Config's zero values.
const (
	DefaultContextSize    = 200000
	DefaultOffloadTokens  = 15000
	DefaultCompactTimeout = 5 * time.Minute
	DefaultSessionTimeout = 2 * time.Minute
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
	// Logger receives diagnostics; optional, nil discards.
	Logger *slog.Logger
	// Clock returns the current time; optional, nil means time.Now.
	Clock func() time.Time
}

// Pipeline is the compression middleware's state: one per bridge. It keeps
// a meter, a recorder and ACCP warm state per session, offloads large
// content in both directions, checkpoints and rolls sessions over, and
// answers the bridge's quick commands. It is safe for concurrent use: the
// bridge calls it from both directions' handlers.
type Pipeline struct {
	cfg    Config
	s      acpwire.Sender
	store  *Store
	events *EventLog
	accp   *accp.Store
	logger *slog.Logger

	mu        sync.Mutex // guards sessions, downToIDE, ideToDown, loading; taken before any session's mu
	sessions  map[string]*session
	downToIDE map[string]string
	ideToDown map[string]string
	loading   map[string]bool

	settler settler
}

// session is the pipeline's view of one IDE session.
type session struct {
	mu        sync.Mutex // guards every field below
	ide, down string
	newParams json.RawMessage // session/new params, reused for rollover
	meter     *Meter
	rec       *Recorder
	warm      *warmState
	agentCmds [][]byte // the agent's own available commands, raw

	sentLevel    Level
	sentEstimate bool
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
}

// driftWatch collects the first turn after a compression.
type driftWatch struct {
	reason string
	obs    TurnObservation
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
		downToIDE: map[string]string{},
		ideToDown: map[string]string{},
		loading:   map[string]bool{},
	}, nil
}

// Close deletes the sessions' spooled conversations (archives written at
// checkpoints stay). Call it when the bridge stops; the pipeline must not
// be used afterwards.
func (p *Pipeline) Close() error {
	p.mu.Lock()
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

// lookup returns the session the IDE knows as id, or nil.
func (p *Pipeline) lookup(id string) *session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sessions[id]
}

// sessionFor returns the session the IDE knows as id, creating it.
func (p *Pipeline) sessionFor(id, cwd string) *session {
	p.mu.Lock()
	defer p.mu.Unlock()
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

// ideID maps a downstream session id to the IDE's.
func (p *Pipeline) ideID(down string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id, ok := p.downToIDE[down]; ok {
		return id
	}
	return down
}

// translate rewrites params.sessionId of m through table, if present.
func (p *Pipeline) translate(m *acpwire.Message, toAgent bool) (*acpwire.Message, error) {
	if m.Kind != acpwire.KindRequest && m.Kind != acpwire.KindNotification {
		return m, nil
	}
	p.mu.Lock()
	table := p.downToIDE
	if toAgent {
		table = p.ideToDown
	}
	if len(table) == 0 {
		p.mu.Unlock()
		return m, nil
	}
	id, ok := rawjson.GetString(m.Params, "sessionId")
	to, mapped := table[id]
	p.mu.Unlock()
	if !ok || !mapped || to == id {
		return m, nil
	}
	return m.PatchJSON(to, "params", "sessionId")
}

// ---- client to agent ----

func (p *Pipeline) fromClient(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	switch m.Kind {
	case acpwire.KindRequest:
		switch m.Method {
		case "session/prompt":
			return p.prompt(ctx, m, next)
		case "session/load", "session/resume":
			id, _ := rawjson.GetString(m.Params, "sessionId")
			cwd, _ := rawjson.GetString(m.Params, "cwd")
			s := p.sessionFor(id, cwd)
			s.mu.Lock()
			if s.newParams == nil {
				s.newParams = paramsWithout(m.Params, "sessionId")
			}
			s.mu.Unlock()
			if m.Method == "session/load" {
				p.mu.Lock()
				p.loading[id] = true
				p.mu.Unlock()
			}
		}
	case acpwire.KindResponse:
		if m.Request != nil {
			if err := p.clientResult(ctx, m, next); err != errNotHandled {
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

var errNotHandled = fmt.Errorf("not handled")

// clientResult handles the IDE's answers to the agent's requests: tool
// results entering the agent's context (tier 1), write outcomes and
// permission decisions. It returns errNotHandled to let m pass as is.
func (p *Pipeline) clientResult(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	req := m.Request
	down, ok := rawjson.GetString(req.Params, "sessionId")
	if !ok {
		return errNotHandled
	}
	s := p.sessionFor(p.ideID(down), "")
	if m.Error != nil {
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(m.Error, &e)
		s.mu.Lock()
		s.rec.Error(req.Method, e.Code, e.Message)
		if req.Method == "fs/write_text_file" {
			path, _ := rawjson.GetString(req.Params, "path")
			body, _ := rawjson.Get(req.Params, "content")
			s.rec.FileWrite(m.Received, path, len(body), false)
		}
		s.mu.Unlock()
		return errNotHandled
	}
	switch req.Method {
	case "fs/read_text_file":
		path, _ := rawjson.GetString(req.Params, "path")
		// A ranged read passes untouched so the agent can page; so does a
		// read of a file the bridge offloaded: the agent asked for exactly
		// that content, and agents whose read tool pages locally (Gemini
		// CLI reads the whole file through the client, then slices it)
		// could not reach it otherwise.
		ranged := present(req.Params, "line") || present(req.Params, "limit")
		return p.toolResult(ctx, s, m, next, []string{"result", "content"}, "fs_read_text_file", "fs/read_text_file "+path, !ranged && !p.store.Contains(path) && !p.cfg.KeepReads)
	case "terminal/output":
		tid, _ := rawjson.GetString(req.Params, "terminalId")
		s.mu.Lock()
		cmd := s.terminals[tid]
		if code, ok := rawjson.Get(m.Result, "exitStatus", "exitCode"); ok {
			var c int
			_ = json.Unmarshal(code, &c)
			sig, _ := rawjson.GetString(m.Result, "exitStatus", "signal")
			s.rec.ExitStatus(cmd, c, sig)
		}
		s.mu.Unlock()
		return p.toolResult(ctx, s, m, next, []string{"result", "output"}, "terminal_output", "terminal/output "+cmd, true)
	case "terminal/wait_for_exit":
		// ACP's wait_for_exit result carries only exitCode and signal; the
		// output travels in terminal/output, handled above.
		tid, _ := rawjson.GetString(req.Params, "terminalId")
		var r struct {
			ExitCode *int   `json:"exitCode"`
			Signal   string `json:"signal"`
		}
		_ = json.Unmarshal(m.Result, &r)
		s.mu.Lock()
		if r.ExitCode != nil || r.Signal != "" {
			s.rec.ExitStatus(s.terminals[tid], deref(r.ExitCode), r.Signal)
		}
		s.mu.Unlock()
	case "terminal/create":
		tid, _ := rawjson.GetString(m.Result, "terminalId")
		cmd, _ := rawjson.GetString(req.Params, "command")
		s.mu.Lock()
		s.terminals[tid] = cmd
		s.mu.Unlock()
	case "fs/write_text_file":
		path, _ := rawjson.GetString(req.Params, "path")
		body, _ := rawjson.Get(req.Params, "content")
		s.mu.Lock()
		s.rec.FileWrite(m.Received, path, len(body), true)
		lvl := s.meter.Usage().Level()
		s.mu.Unlock()
		p.tier2(s, lvl, path, len(body))
	case "session/request_permission":
		var out struct {
			Outcome struct {
				Outcome  string `json:"outcome"`
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		}
		_ = json.Unmarshal(m.Result, &out)
		title, _ := rawjson.GetString(req.Params, "toolCall", "title")
		d := "Permission " + out.Outcome.Outcome
		if out.Outcome.OptionID != "" {
			d = "User chose " + optionLabel(req.Params, out.Outcome.OptionID)
		}
		s.mu.Lock()
		s.rec.Decision(m.Received, d+" for: "+oneLine(title, 160))
		s.mu.Unlock()
	}
	return errNotHandled
}

// present reports whether key is in obj with a value other than null.
func present(obj []byte, key string) bool {
	v, ok := rawjson.Get(obj, key)
	return ok && string(v) != "null"
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// optionLabel returns "<kind> (<name>)" for optionID in a permission request.
func optionLabel(params []byte, optionID string) string {
	raw, _ := rawjson.Get(params, "options")
	var opts []struct {
		OptionID, Name, Kind string
	}
	_ = json.Unmarshal(raw, &opts)
	for _, o := range opts {
		if o.OptionID == optionID {
			return o.Kind + " (" + o.Name + ")"
		}
	}
	return optionID
}

// toolResult applies tier 1 to the string at path in a tool result going to
// the agent, and counts what enters the agent's context.
func (p *Pipeline) toolResult(ctx context.Context, s *session, m *acpwire.Message, next acpwire.Handler, path []string, tool, source string, offloadable bool) error {
	content, ok := m.GetString(path...)
	if !ok {
		return errNotHandled
	}
	tokens, exact := -1, false
	if offloadable && len(content) > p.cfg.OffloadTokens {
		tokens, exact = measure(content)
	}
	if tokens > p.cfg.OffloadTokens {
		ref, refTokens, err := p.offload(s, tool, source, content, tokens)
		if err != nil {
			p.logger.Warn("tier 1 offload failed; content passed as is", "source", source, "err", err)
		} else {
			out, err := m.PatchJSON(ref, path...)
			if err != nil {
				return err
			}
			p.account(s, refTokens)
			return next.Handle(ctx, out)
		}
	}
	s.mu.Lock()
	if tool == "terminal_output" {
		s.rec.ToolOutput(content)
	}
	if exact {
		s.rec.Note(m.Received, "Tool", fmt.Sprintf("%s (%d tokens)", source, tokens))
		s.meter.Add(tokens)
	} else {
		// Counted off the forwarding path, from a sample (Meter).
		s.rec.Note(m.Received, "Tool", fmt.Sprintf("%s (%d bytes)", source, len(content)))
		s.meter.AddText(content)
	}
	p.noteLevel(s)
	return errNotHandled
}

// offload writes content to the cache and returns its reference and the
// reference's tokens.
func (p *Pipeline) offload(s *session, tool, source, content string, tokens int) (string, int, error) {
	o := Offloaded{Source: source, Tokens: tokens, Bytes: len(content), Lines: countLines(content)}
	path, err := p.store.WriteOffloaded(tool, content)
	if err != nil {
		return "", 0, err
	}
	o.Path = path
	files := []string{path}
	ref, after := reference(o, content)
	s.mu.Lock()
	lvl := s.meter.Usage().Level()
	s.rec.Note(p.now(), "Tool", source+"\n\n"+ref)
	s.mu.Unlock()
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventTier1, Level: lvl.String(),
		Trigger:      fmt.Sprintf("%s: %d tokens over the %d-token threshold", source, tokens, p.cfg.OffloadTokens),
		TokensBefore: tokens, TokensAfter: after, TokensSaved: tokens - after, Files: files})
	return ref, after, nil
}

// tier2 logs that a large write/edit body is kept out of everything the
// bridge injects (ORANGE and above). Bodies are never injected at any
// level; the event records the saving once the context is under pressure.
func (p *Pipeline) tier2(s *session, lvl Level, path string, bodyBytes int) {
	const minBody = 2048
	if lvl < Orange || bodyBytes < minBody {
		return
	}
	before := estimateFromBytes(bodyBytes)
	pointer := fmt.Sprintf("%s: written; content persisted to disk", path)
	after := CountTokens(pointer)
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventTier2, Level: lvl.String(),
		Trigger:      fmt.Sprintf("write/edit body of %d bytes at %s", bodyBytes, lvl),
		TokensBefore: before, TokensAfter: after, TokensSaved: max(before-after, 0), Files: []string{}})
}

// jsonText decodes a raw JSON string value; anything else is taken as is.
func jsonText(v []byte) string {
	if t, ok := rawjson.String(v); ok {
		return t
	}
	return string(v)
}

// accountLiterals adds streamed text, given as JSON string literals, to
// s's meter (see Meter.AddStreamed: a literal is decoded only if sampled)
// and reports whether the estimated level changed, with the usage to send.
func (p *Pipeline) accountLiterals(s *session, lits [][]byte) (Usage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, lit := range lits {
		s.meter.AddStreamed(max(len(lit)-2, 0), func() string { return jsonText(lit) })
	}
	u := s.meter.Usage()
	changed := u.Estimated && u.Level() != s.sentLevel
	if changed {
		s.sentLevel = u.Level()
	}
	return u, changed
}

// account adds n tokens to s's meter and tells the IDE when an estimated
// level changes.
func (p *Pipeline) account(s *session, n int) {
	s.mu.Lock()
	s.meter.Add(n)
	p.noteLevel(s)
}

// noteLevel is called with s.mu held and releases it; it tells the IDE when
// the estimated level changed.
func (p *Pipeline) noteLevel(s *session) {
	u := s.meter.Usage()
	changed := u.Estimated && u.Level() != s.sentLevel
	if changed {
		s.sentLevel = u.Level()
	}
	s.mu.Unlock()
	if changed {
		p.sendEstimate(s, u)
	}
}

// sendEstimate tells the IDE the bridge's estimate of the context fill.
func (p *Pipeline) sendEstimate(s *session, u Usage) {
	params := map[string]any{
		"sessionId": s.ide,
		"update": map[string]any{
			"sessionUpdate": "usage_update",
			"used":          u.Used,
			"size":          u.Size,
			"_meta":         map[string]any{"acp-bridge": map[string]any{"estimated": true, "level": u.Level().String(), "tokenizer": "o200k_base"}},
		},
	}
	if err := p.s.Notify(acpwire.AgentToClient, "session/update", params); err != nil {
		p.logger.Debug("sending estimated usage_update", "err", err)
	}
	s.mu.Lock()
	s.sentEstimate = true
	s.mu.Unlock()
}

// say sends the IDE a visible agent message in session s.
func (p *Pipeline) say(s *session, text string) {
	params := map[string]any{
		"sessionId": s.ide,
		"update": map[string]any{
			"sessionUpdate": "agent_message_chunk",
			"content":       map[string]any{"type": "text", "text": text},
			"_meta":         map[string]any{"acp-bridge": map[string]any{"note": true}},
		},
	}
	if err := p.s.Notify(acpwire.AgentToClient, "session/update", params); err != nil {
		p.logger.Debug("sending note", "err", err)
	}
}

// promptBlock is the part of a prompt content block the pipeline reads.
type promptBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	URI      string `json:"uri"`
	Resource *struct {
		URI      string `json:"uri"`
		Text     string `json:"text"`
		MimeType string `json:"mimeType"`
	} `json:"resource"`
}

// prompt handles session/prompt: quick commands, tier 1 on embedded
// resources, the turn's bookkeeping, and the compaction or rollover that
// was scheduled at the end of the previous turn.
func (p *Pipeline) prompt(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	id, _ := rawjson.GetString(m.Params, "sessionId")
	s := p.sessionFor(id, "")
	rawPrompt, _ := rawjson.Get(m.Params, "prompt")
	elems, err := rawjson.Elements(rawPrompt)
	if err != nil {
		return next.Handle(ctx, m)
	}
	blocks := make([]promptBlock, len(elems))
	for i, e := range elems {
		_ = json.Unmarshal(e, &blocks[i])
	}
	if len(blocks) > 0 && blocks[0].Type == "text" {
		if name, arg, ok := parseCommand(blocks[0].Text); ok {
			return p.command(ctx, s, m, name, arg)
		}
	}

	// Tier 1 on embedded resources.
	var userText strings.Builder
	changed := false
	newElems := make([][]byte, 0, len(elems)+1)
	for i, b := range blocks {
		switch {
		case b.Type == "text":
			userText.WriteString(b.Text)
			userText.WriteByte('\n')
		case b.Type == "resource_link":
			fmt.Fprintf(&userText, "[resource link: %s]\n", b.URI)
		case b.Type == "resource" && b.Resource != nil:
			fmt.Fprintf(&userText, "[embedded resource: %s]\n", b.Resource.URI)
			if len(b.Resource.Text) > p.cfg.OffloadTokens {
				if tokens, _ := measure(b.Resource.Text); tokens > p.cfg.OffloadTokens {
					repl, err := p.offloadResource(s, b.Resource.URI, b.Resource.MimeType, b.Resource.Text, tokens)
					if err != nil {
						p.logger.Warn("tier 1 offload of an embedded resource failed; passed as is", "uri", b.Resource.URI, "err", err)
					} else {
						newElems = append(newElems, repl...)
						changed = true
						continue
					}
				}
			}
		}
		newElems = append(newElems, elems[i])
	}

	s.mu.Lock()
	s.rec.UserMessage(m.Received, strings.TrimRight(userText.String(), "\n"))
	s.rec.StartTurn()
	roll := s.pendingRoll
	compact := !roll && p.cfg.AgentCompact && s.checkpointed && !s.compacted && s.rec.HasCommand("compact") && s.meter.Usage().Level() >= Red
	s.mu.Unlock()

	var summaryBlock []byte
	if roll {
		var ok bool
		summaryBlock, ok = p.rollover(ctx, s)
		if ok {
			newElems = append([][]byte{summaryBlock}, newElems...)
			changed = true
		}
	} else if compact {
		p.compact(ctx, s)
	}

	out := m
	if changed {
		arr := joinArray(newElems)
		if out, err = m.Patch(arr, "params", "prompt"); err != nil {
			return err
		}
	}
	s.mu.Lock()
	for _, e := range newElems {
		if t, ok := rawjson.GetString(e, "text"); ok {
			s.meter.AddText(t)
		}
	}
	p.noteLevel(s)
	if out, err = p.translate(out, true); err != nil {
		return err
	}
	return next.Handle(ctx, out)
}

// offloadResource replaces an embedded resource by a resource_link to the
// offloaded copy and a text block with its reference.
func (p *Pipeline) offloadResource(s *session, uri, mime, text string, tokens int) ([][]byte, error) {
	ref, _, err := p.offload(s, "prompt_resource_"+filepath.Base(uri), "embedded resource "+uri, text, tokens)
	if err != nil {
		return nil, err
	}
	path := refPath(ref)
	link := map[string]any{"type": "resource_link", "uri": (&url.URL{Scheme: "file", Path: path}).String(), "name": filepath.Base(path), "size": len(text),
		"description": "offloaded by acp-bridge: byte-identical copy of " + uri}
	if mime != "" {
		link["mimeType"] = mime
	}
	lb, err := json.Marshal(link)
	if err != nil {
		return nil, err
	}
	tb, err := json.Marshal(map[string]any{"type": "text", "text": ref})
	if err != nil {
		return nil, err
	}
	return [][]byte{lb, tb}, nil
}

// refPath extracts the file path from a Reference.
func refPath(ref string) string {
	const k = "**File:** "
	i := strings.Index(ref, k)
	if i < 0 {
		return ""
	}
	rest := ref[i+len(k):]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

func joinArray(elems [][]byte) []byte {
	n := 2
	for _, e := range elems {
		n += len(e) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, e := range elems {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e...)
	}
	return append(out, ']')
}

// paramsWithout returns params with key removed.
func paramsWithout(params []byte, key string) json.RawMessage {
	out, err := rawjson.Delete(params, key)
	if err != nil {
		return append(json.RawMessage(nil), params...)
	}
	return out
}

// ---- agent to client ----

func (p *Pipeline) fromAgent(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
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
			if m.IsResponseTo("session/load") {
				id, _ := rawjson.GetString(m.Request.Params, "sessionId")
				ide := p.ideID(id)
				p.mu.Lock()
				delete(p.loading, ide)
				p.mu.Unlock()
			}
			switch {
			case m.Error != nil:
				p.agentError(m)
			case m.IsResponseTo("session/new"):
				return p.sessionCreated(ctx, m, next)
			case m.IsResponseTo("session/prompt"):
				p.turnEnd(m)
			}
		}
	}
	out, err := p.translate(m, false)
	if err != nil {
		return err
	}
	return next.Handle(ctx, out)
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

// guardWrite refuses an fs/write_text_file whose content carries one of
// the bridge's offload references: the agent would be writing the
// reference over the real file (an edit tool that read the file through
// the client got the reference and applied its change to it).
func (p *Pipeline) guardWrite(m *acpwire.Message) (bool, error) {
	if m.Method != "fs/write_text_file" {
		return false, nil
	}
	content, _ := rawjson.GetString(m.Params, "content")
	marker := "**File:** " + p.store.OffloadedDir()
	if !strings.Contains(content, "## Offloaded Content Reference") || !strings.Contains(content, marker) {
		return false, nil
	}
	path, _ := rawjson.GetString(m.Params, "path")
	down, _ := rawjson.GetString(m.Params, "sessionId")
	p.logger.Warn("refused a write carrying an offload reference", "path", path)
	p.events.Add(Event{Time: p.now(), Session: p.ideID(down), Type: EventWriteRefused, Trigger: "fs/write_text_file " + path,
		Files: []string{}, IntentPreserved: IntentPreserved, Detail: "content contains an acp-bridge offload reference"})
	return true, p.s.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams,
		"acp-bridge refused to write %s: the content contains an acp-bridge offload reference, not the file's text. Read the file in ranges (fs/read_text_file with line and limit) and edit from the real content", path))
}

// agentRequest notes what the agent asks the IDE for: terminals (to name
// their output later), permissions (for decisions), reads (drift checks).
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
		s.mu.Lock()
		s.rec.Note(m.Received, "Tool", "terminal/create "+strings.Join(append([]string{cmd}, args...), " "))
		s.mu.Unlock()
	case "fs/read_text_file", "fs/write_text_file":
		path, _ := rawjson.GetString(m.Params, "path")
		if p.store.Contains(path) {
			return // recovery reads are neither work nor drift
		}
		s.mu.Lock()
		if s.watch != nil {
			s.watch.obs.Touched = append(s.watch.obs.Touched, path)
			s.watch.obs.ToolCalls++
			if m.Method == "fs/write_text_file" {
				s.watch.obs.Edits++
			}
		}
		s.mu.Unlock()
	}
}

// sessionCreated registers a new session and offers the bridge's commands.
func (p *Pipeline) sessionCreated(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	id, _ := rawjson.GetString(m.Result, "sessionId")
	cwd, _ := rawjson.GetString(m.Request.Params, "cwd")
	s := p.sessionFor(id, cwd)
	s.mu.Lock()
	s.newParams = append(json.RawMessage(nil), m.Request.Params...)
	s.mu.Unlock()
	if err := next.Handle(ctx, m); err != nil {
		return err
	}
	p.offerCommands(s)
	return nil
}

// update handles session/update from the agent.
func (p *Pipeline) update(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var downID, update []byte
	eachMember(m.Params, func(k, v []byte) bool {
		switch string(k) {
		case "sessionId":
			downID = v
		case "update":
			update = v
		}
		return true
	})
	if update == nil {
		return next.Handle(ctx, m)
	}
	down, _ := rawjson.String(downID)
	ide := p.ideID(down)
	s := p.sessionFor(ide, "")
	f := parseUpdate(update)
	kind, content := f.kind, f.content
	out := m
	var grew [][]byte // text entering the agent's context, as JSON string literals
	switch kind {
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		text, _ := member(content, "text")
		p.mu.Lock()
		loading := p.loading[ide]
		p.mu.Unlock()
		if loading && len(text) > p.cfg.OffloadTokens*bytesPerToken {
			if o, err := p.offloadIDEText(s, m, text, "session_load_replay", []string{"params", "update", "content", "text"}); err == nil {
				out = o
			}
		}
		role := "Agent"
		switch kind {
		case "agent_thought_chunk":
			role = "Thought"
		case "user_message_chunk":
			role = "User"
		}
		s.mu.Lock()
		s.rec.AgentChunk(m.Received, role, text)
		s.mu.Unlock()
		if kind != "user_message_chunk" && text != nil {
			grew = [][]byte{text}
		}
	case "tool_call", "tool_call_update":
		var err error
		if out, grew, err = p.toolCallUpdate(s, m, update, f); err != nil {
			return err
		}
	case "plan":
		s.mu.Lock()
		s.rec.Plan(update)
		s.mu.Unlock()
	case "usage_update":
		var u struct{ Used, Size int64 }
		if json.Unmarshal(update, &u) == nil {
			s.mu.Lock()
			s.meter.Report(u.Used, u.Size)
			s.mu.Unlock()
		}
	case "available_commands_update":
		var err error
		if out, err = p.mergeCommands(s, m, update); err != nil {
			return err
		}
	case "current_mode_update":
		mode, _ := rawjson.GetString(update, "currentModeId")
		s.mu.Lock()
		s.rec.Decision(m.Received, "Mode switched to "+mode)
		s.mu.Unlock()
	}
	if ide != down {
		var err error
		if out, err = out.PatchJSON(ide, "params", "sessionId"); err != nil {
			return err
		}
	}
	// The meter's bookkeeping is cheap (no tokenizing); only the notice of
	// a changed level waits until the message is forwarded.
	var u Usage
	changed := false
	if len(grew) > 0 {
		u, changed = p.accountLiterals(s, grew)
	}
	err := next.Handle(ctx, out)
	if changed {
		p.sendEstimate(s, u)
	}
	return err
}

// toolCallUpdate records a tool call and offloads oversized text content
// toward the IDE (the IDE shows the preview and the path).
func (p *Pipeline) toolCallUpdate(s *session, m *acpwire.Message, update []byte, f updateFields) (*acpwire.Message, [][]byte, error) {
	out := m
	var text [][]byte
	i := -1
	eachElement(f.content, func(e []byte) bool {
		i++
		c := parseContent(e)
		if c.text == nil {
			// A diff's new text was the agent's own output.
			if c.newText != nil {
				text = append(text, c.newText)
			}
			return true
		}
		text = append(text, c.text)
		// Toward the IDE the size is judged from bytes (four per token)
		// to keep tokenizing off the streaming path.
		if len(c.text) > p.cfg.OffloadTokens*bytesPerToken {
			title, _ := rawjson.String(f.title)
			if o, err := p.offloadIDEText(s, out, c.text, "tool_call_"+title, []string{"params", "update", "content", fmt.Sprint(i), "content", "text"}); err == nil {
				out = o
			} else {
				p.logger.Debug("no tier 1 offload toward the IDE", "err", err)
			}
		}
		return true
	})
	s.mu.Lock()
	arts := s.rec.artifactsSeen
	tc := s.rec.toolCall(m.Received, f)
	newArts := s.rec.artifactsSeen - arts
	lvl := s.meter.Usage().Level()
	var bodies []Artifact
	if st, _ := rawjson.String(f.status); st == "completed" {
		for _, path := range tc.paths {
			if a := s.rec.byPath[path]; a != nil && a.Bytes > 0 {
				bodies = append(bodies, *a)
			}
		}
	}
	if w := s.watch; w != nil {
		if f.kind == "tool_call" {
			w.obs.ToolCalls++
		}
		for _, path := range tc.paths {
			if !contains(w.obs.Touched, path) {
				w.obs.Touched = append(w.obs.Touched, path)
			}
		}
		w.obs.Edits += newArts
	}
	s.mu.Unlock()
	for _, a := range bodies {
		p.tier2(s, lvl, a.Path, a.Bytes)
	}
	return out, text, nil
}

// offloadIDEText offloads the JSON string literal lit found at path in m.
func (p *Pipeline) offloadIDEText(s *session, m *acpwire.Message, lit []byte, tool string, path []string) (*acpwire.Message, error) {
	text, ok := rawjson.String(lit)
	if !ok {
		return nil, fmt.Errorf("not a string")
	}
	tokens, _ := measure(text)
	if tokens <= p.cfg.OffloadTokens {
		return nil, fmt.Errorf("under threshold")
	}
	ref, _, err := p.offload(s, tool, "toward the IDE: "+strings.ReplaceAll(tool, "_", " "), text, tokens)
	if err != nil {
		return nil, err
	}
	return m.PatchJSON(ref, path...)
}

// ---- turn end ----

// turnEnd runs before the session/prompt response goes to the IDE: goal
// drift checks, the ACCP delta, the estimated usage_update and, at RED and
// CRITICAL, the tier-3 checkpoint.
func (p *Pipeline) turnEnd(m *acpwire.Message) {
	down, _ := rawjson.GetString(m.Request.Params, "sessionId")
	s := p.lookup(p.ideID(down))
	if s == nil {
		return
	}
	s.mu.Lock()
	w := s.watch
	s.watch = nil
	var drift []string
	turnText := s.rec.TurnText()
	if w != nil {
		w.obs.AgentText = turnText
		// Reading the archive or offloaded content is recovery, not drift.
		touched := w.obs.Touched[:0]
		for _, path := range w.obs.Touched {
			if !p.store.Contains(path) {
				touched = append(touched, path)
			}
		}
		w.obs.Touched = touched
		drift = DriftCheck(w.obs, strings.Join(s.rec.userMessages, "\n"), s.rec.Artifacts(), s.rec.Cwd)
	}
	// The turn's byte estimate of streamed text is swapped for an o200k
	// count off the forwarding path (settler).
	p.settler.add(p, s, s.meter.TakePending())
	// Error codes the agent names in its own words are facts too; its
	// output streams in pieces, so look at the turn's text at once.
	s.rec.scanFacts(turnText)
	s.rec.StartTurn()
	s.rec.Release()
	u := s.meter.Usage()
	lvl := u.Level()
	s.warm.observe(s.rec, lvl)
	intent := s.rec.Intent()
	archive := s.archive
	s.mu.Unlock()
	if _, err := s.warm.delta(); err != nil {
		p.logger.Warn("ACCP warm state", "err", err)
	}
	for _, d := range drift {
		p.logger.Warn("goal drift after compression", "session", s.ide, "indicator", d, "after", w.reason)
		p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventGoalDrift, Level: lvl.String(), Trigger: "first turn after " + w.reason,
			IntentPreserved: IntentVerify, Detail: d})
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** possible goal drift after %s: the agent %s. Session intent: %q. Full conversation: %s\n", w.reason, d, oneLine(intent, 200), archive))
	}
	if u.Estimated {
		s.mu.Lock()
		s.sentLevel = lvl
		s.mu.Unlock()
		p.sendEstimate(s, u)
	}
	if lvl < Red {
		s.mu.Lock()
		s.checkpointed, s.compacted, s.failedAt = false, false, 0
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	// Nothing to do if a checkpoint covers this level, or one failed at
	// this level already (it is retried when the level rises).
	done := s.checkpointed && (lvl < Critical || s.pendingRoll) || s.failedAt >= lvl
	s.mu.Unlock()
	if done {
		return
	}
	trigger := fmt.Sprintf("context at %.1f%% (%s)", u.Percent(), lvl)
	path, tokens, err := p.checkpoint(s, trigger)
	if err != nil {
		s.mu.Lock()
		s.failedAt = lvl
		s.mu.Unlock()
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (%s); checkpoint failed: %v\n", u.Percent(), lvl, err))
		return
	}
	s.mu.Lock()
	canCompact := p.cfg.AgentCompact && s.rec.HasCommand("compact") && !s.compacted
	if lvl == Critical {
		s.pendingRoll = true
	}
	s.mu.Unlock()
	switch {
	case lvl == Critical:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (CRITICAL). Session checkpointed: summary of %d tokens, full conversation archived at %s. Your next message continues in a fresh agent session seeded with the summary; this session id stays the same.\n", u.Percent(), tokens, path))
	case canCompact:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (RED). Session checkpointed (archive: %s); the agent's /compact will run before your next message.\n", u.Percent(), path))
	default:
		p.say(s, fmt.Sprintf("\n\n> **acp-bridge:** context at %.0f%% (RED). Session checkpointed (archive: %s). Use /bridge-compress to continue in a fresh session seeded with the summary.\n", u.Percent(), path))
	}
}

// checkpoint runs tier 3: archive the conversation, build and verify the
// Session Summary, keep it as ACCP warm state. It returns the archive path
// and the summary's tokens. A summary that fails verification is replaced
// by the previous verified one, if any.
func (p *Pipeline) checkpoint(s *session, trigger string) (string, int, error) {
	now := p.now()
	s.mu.Lock()
	u := s.meter.Usage()
	path, err := p.store.WriteArchiveFrom(s.ide, func(w io.Writer) error { return s.rec.WriteArchive(w, now) })
	s.rec.Release()
	s.mu.Unlock()
	if err != nil {
		return "", 0, err
	}
	replaced := int(u.Used)
	s.mu.Lock()
	sum := BuildSummary(s.rec, now, path, p.store.OffloadedDir(), replaced)
	md := sum.Markdown()
	intent := s.rec.Intent()
	var edited []string
	for _, a := range s.rec.artifacts {
		edited = append(edited, a.Path)
	}
	s.warm.observe(s.rec, u.Level())
	s.mu.Unlock()
	preserved := IntentPreserved
	if verr := Verify(md, replaced, intent, edited); verr != nil {
		prev, prevID := s.warm.previous()
		p.logger.Warn("session summary rejected", "session", s.ide, "err", verr, "fallback", prevID)
		p.events.Add(Event{Time: now, Session: s.ide, Type: EventRejected, Level: u.Level().String(), Trigger: trigger,
			TokensBefore: replaced, TokensAfter: CountTokens(md), Files: []string{path}, IntentPreserved: IntentVerify, Detail: verr.Error()})
		if prev == "" {
			return path, 0, fmt.Errorf("summary rejected (%v) and no earlier checkpoint to fall back to", verr)
		}
		md, preserved = prev, IntentVerify
	} else if _, err := s.warm.checkpoint(md); err != nil {
		p.logger.Warn("ACCP checkpoint", "err", err)
	}
	after := CountTokens(md)
	s.mu.Lock()
	s.summary, s.archive, s.checkpointed = md, path, true
	s.rec.Note(now, "Bridge", fmt.Sprintf("checkpoint (%s): summary of %d tokens", trigger, after))
	s.mu.Unlock()
	p.events.Add(Event{Time: now, Session: s.ide, Type: EventTier3, Level: u.Level().String(), Trigger: trigger,
		TokensBefore: replaced, TokensAfter: after, TokensSaved: max(replaced-after, 0), Files: []string{path}, IntentPreserved: preserved})
	return path, after, nil
}

// rollover opens a fresh downstream session with the original session's
// parameters and returns the prompt block carrying the summary. The IDE's
// session id stays; ids are translated from now on.
func (p *Pipeline) rollover(ctx context.Context, s *session) ([]byte, bool) {
	s.mu.Lock()
	s.pendingRoll = false
	params := s.newParams
	md, archive := s.summary, s.archive
	before := s.meter.Usage()
	oldDown := s.down
	rctx, cancel := context.WithTimeout(ctx, DefaultSessionTimeout)
	s.cancelSetup = cancel
	s.mu.Unlock()
	defer func() {
		cancel()
		s.mu.Lock()
		s.cancelSetup = nil
		s.mu.Unlock()
	}()
	if md == "" || params == nil {
		p.say(s, "> **acp-bridge:** rollover skipped: no verified summary or no session parameters.\n\n")
		return nil, false
	}
	// The agent speaks in the new session right after answering (Claude
	// sends its command list at once), so the id mapping must exist before
	// the bridge reads its next message: record it on the forwarding loop.
	var newID string
	err := p.s.CallThen(rctx, acpwire.ClientToAgent, "session/new", params, func(res json.RawMessage, err error) error {
		if err != nil {
			return err
		}
		newID, _ = rawjson.GetString(res, "sessionId")
		if newID == "" {
			return fmt.Errorf("session/new result has no sessionId")
		}
		p.mu.Lock()
		p.ideToDown[s.ide] = newID
		p.downToIDE[newID] = s.ide
		if oldDown != s.ide {
			p.downToIDE[oldDown] = s.ide
		}
		p.mu.Unlock()
		return nil
	})
	if err != nil {
		p.logger.Warn("rollover failed; staying in the current session", "session", s.ide, "err", err)
		p.say(s, fmt.Sprintf("> **acp-bridge:** could not open a fresh agent session (%v); continuing in the current one.\n\n", err))
		return nil, false
	}
	text := "[acp-bridge] This session continues earlier work whose context was checkpointed. " +
		"The summary below preserves the user's intent and instructions; the full conversation is at " + archive +
		" (read it in ranges if you need detail).\n\n" + md
	block, _ := json.Marshal(map[string]any{"type": "text", "text": text})
	after := CountTokens(text)
	s.mu.Lock()
	s.down = newID
	s.meter.Reset(after)
	s.sentLevel = Classify(int64(after), p.cfg.ContextSize)
	s.checkpointed, s.compacted = false, false
	s.watch = &driftWatch{reason: "the rollover to a fresh session"}
	s.rec.Note(p.now(), "Bridge", "rolled over to downstream session "+newID)
	s.mu.Unlock()
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventRollover, Level: before.Level().String(),
		Trigger:      fmt.Sprintf("context at %.1f%% (%s)", before.Percent(), before.Level()),
		TokensBefore: int(before.Used), TokensAfter: after, TokensSaved: max(int(before.Used)-after, 0), Files: []string{archive}})
	p.say(s, fmt.Sprintf("> **acp-bridge:** session checkpointed; continuing in a fresh agent session seeded with a %d-token summary. Full conversation: %s\n\n", after, archive))
	return block, true
}

// compact runs the agent's own /compact between turns, with instructions
// built from the summary.
func (p *Pipeline) compact(ctx context.Context, s *session) {
	s.mu.Lock()
	s.compacted = true
	down := s.down
	intent := s.rec.Intent()
	var paths []string
	for _, a := range s.rec.artifacts {
		paths = append(paths, a.Path)
	}
	facts := s.rec.Facts()
	archive := s.archive
	before := s.meter.Usage()
	cctx, cancel := context.WithTimeout(ctx, p.cfg.CompactTimeout)
	s.cancelSetup = cancel
	s.mu.Unlock()
	defer func() {
		cancel()
		s.mu.Lock()
		s.cancelSetup = nil
		s.mu.Unlock()
	}()
	instr := "/compact Preserve verbatim the session intent: " + oneLine(intent, 600)
	if len(paths) > 0 {
		instr += ". Keep every edited file path: " + strings.Join(paths, ", ")
	}
	if len(facts) > 0 {
		instr += ". Keep these facts: " + strings.Join(facts[:min(len(facts), 10)], "; ")
	}
	instr += ". Full conversation archive: " + archive
	params := map[string]any{"sessionId": down, "prompt": []map[string]any{{"type": "text", "text": instr}}}
	_, err := p.s.Call(cctx, acpwire.ClientToAgent, "session/prompt", params)
	if err != nil {
		if cctx.Err() != nil {
			_ = p.s.Notify(acpwire.ClientToAgent, "session/cancel", map[string]any{"sessionId": down})
		}
		p.logger.Warn("agent compaction failed", "session", s.ide, "err", err)
		return
	}
	s.mu.Lock()
	s.watch = &driftWatch{reason: "the agent's /compact"}
	s.mu.Unlock()
	p.events.Add(Event{Time: p.now(), Session: s.ide, Type: EventCompact, Level: before.Level().String(),
		Trigger: fmt.Sprintf("context at %.1f%% (%s); agent advertises /compact", before.Percent(), before.Level()), TokensBefore: int(before.Used),
		Files: []string{archive}, IntentPreserved: IntentVerify, Detail: "tokens after: see the agent's next usage_update"})
}
