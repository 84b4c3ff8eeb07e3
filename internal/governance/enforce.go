package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Recorder is where Enforce writes its audit records; *audit.Log is one.
// Methods are called from both directions' handlers and must be safe for
// concurrent use.
type Recorder interface {
	// Append records ev in order; it may return before ev is on disk.
	Append(ev audit.Event) error
	// AppendSync returns once ev is on stable storage. Enforce calls it
	// for every decision before the decision takes effect on the wire.
	AppendSync(ev audit.Event) error
	// Healthy returns nil while the log can be written.
	Healthy() error
}

// EnforceOptions configures Enforce.
type EnforceOptions struct {
	// Engine decides; optional. Without one the middleware only records:
	// permission requests go to the person, everything else passes, and
	// --audit-fail closed still refuses tool permissions and writes while
	// the log is down.
	Engine *Engine
	// Sender answers requests and sends the bridge's own messages;
	// required. If it also has Send(dir, raw) (as *acpwire.Bridge does),
	// refused batches get error responses.
	Sender acpwire.Sender
	// Audit receives the records; optional, nil records nothing.
	Audit Recorder
	// FailOpen keeps the policy's decisions when the audit log cannot be
	// written. By default (false) every tool permission, file write and
	// terminal is denied until the log recovers.
	FailOpen bool
	// Operator is the audit actor id of the agent; optional, defaults to
	// "agent".
	Operator string
	// Logger receives diagnostics; optional, nil discards them.
	Logger *slog.Logger
	// AgentHook reports whether the agent asks the bridge before each of
	// its own tool calls (Claude Code's PreToolUse hook deciding with the
	// same engine); optional. While it does, a denied tool_call is hidden
	// from the IDE and left to the hook to refuse, without cancelling the
	// turn; if the call completes anyway, the turn is cancelled then.
	AgentHook func() bool
}

// Actors of the records Enforce writes.
var (
	actorBridge = audit.Actor{ID: "acp-bridge", Role: "policy"}
	actorUser   = audit.Actor{ID: "user:ide", Role: "approver"}
)

// Enforce returns middleware that applies the engine's decisions at every
// point of the ACP stream where an agent acts:
//
//   - session/request_permission: allow answers with the agent's allow_once
//     option without asking; deny answers with reject_once (or cancelled);
//     require-approval and escalate go to the IDE, and the person's choice
//     is recorded as the approval.
//   - fs/read_text_file, fs/write_text_file, terminal/create: deny answers
//     with a JSON-RPC error, so the call never reaches the IDE;
//     require-approval asks the IDE with a permission request of the
//     bridge's own first.
//   - session/new, load, resume, fork: a cwd or additional directory
//     outside the workspace roots is refused.
//   - tool_call updates (tools the agent runs without asking): a denied
//     call is not forwarded; the bridge records a violation, cancels the
//     turn and tells the user why. Later updates of that call are dropped.
//   - session/cancel: permission requests still waiting for the person are
//     answered cancelled.
//
// Updates replayed by session/load are recorded as replays, never enforced
// as new executions. Batches holding a governed method are refused. Every
// decision is written to the audit log (AppendSync) before it takes effect.
func Enforce(opts EnforceOptions) acpwire.Middleware {
	return NewEnforcer(opts).Middleware()
}

// Enforcer is the state behind Enforce: what it knows of sessions, tool
// calls and permission requests in flight. Use NewEnforcer when the bridge
// must also call Close at shutdown; otherwise Enforce is enough.
type Enforcer struct {
	opts   EnforceOptions
	engine *Engine
	send   acpwire.Sender
	rec    Recorder
	log    *slog.Logger
	agent  audit.Actor

	loadingN atomic.Int32 // number of session/load requests pending

	mu       sync.Mutex // guards the maps below
	sessions map[string]*sessionState
	calls    map[string]*callState              // by session + toolCallId
	perms    map[string]*permState              // forwarded permission requests, by request id
	opens    map[string]*openState              // session/new|load|resume|fork requests, by request id
	prompts  map[string]string                  // session/prompt request id -> session id
	asks     map[string]context.CancelCauseFunc // the bridge's own permission asks, by "session:"+id and "request:"+id
	askSeq   int
}

type sessionState struct {
	cwd     string
	roots   []string
	state   string // operator lifecycle: invoked, running, suspended, completed, interrupted
	loading int
}

type callState struct {
	session, id string
	tc          ToolCall
	decision    *Decision
	decidedWith bool   // decided with the tool's input known
	blocked     bool   // denied after the agent ran it: drop its updates
	deferred    bool   // blocked, and left to the agent's pre-tool hook to refuse
	denied      bool   // a permission for it was refused
	approval    string // "auto" or who approved
}

type permState struct {
	msg      *acpwire.Message
	session  string
	call     *callState
	decision Decision
	options  []permOption
}

type openState struct {
	method, session, cwd string
	roots                []string
}

type permOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

// NewEnforcer returns an Enforcer; see Enforce for what it does.
func NewEnforcer(opts EnforceOptions) *Enforcer {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	op := opts.Operator
	if op == "" {
		op = "agent"
	}
	return &Enforcer{
		opts: opts, engine: opts.Engine, send: opts.Sender, rec: opts.Audit, log: lg,
		agent:    audit.Actor{ID: op, Role: "operator"},
		sessions: map[string]*sessionState{}, calls: map[string]*callState{},
		perms: map[string]*permState{}, opens: map[string]*openState{},
		prompts: map[string]string{}, asks: map[string]context.CancelCauseFunc{},
	}
}

// Middleware returns the enforcing middleware.
func (x *Enforcer) Middleware() acpwire.Middleware { return x.middleware }

func (x *Enforcer) middleware(next acpwire.Handler) acpwire.Handler {
	return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
		switch m.Kind {
		case acpwire.KindNotification:
			switch m.Method {
			case "session/update":
				if m.Dir == acpwire.AgentToClient {
					return x.onUpdate(ctx, m, next)
				}
			case "session/cancel":
				if m.Dir == acpwire.ClientToAgent {
					x.onCancel(m)
				}
			}
		case acpwire.KindRequest:
			if m.Dir == acpwire.AgentToClient {
				switch m.Method {
				case "session/request_permission":
					return x.onPermission(ctx, m, next)
				case "fs/read_text_file", "fs/write_text_file", "terminal/create":
					return x.onClientCall(ctx, m, next)
				}
			} else {
				switch m.Method {
				case "session/new", "session/load", "session/resume", "session/fork":
					return x.onOpen(ctx, m, next)
				case "session/prompt":
					x.onPrompt(m)
				case "session/close", "session/delete":
					x.onClose(m)
				}
			}
		case acpwire.KindResponse:
			switch {
			case m.IsResponseTo("session/request_permission"):
				return x.onPermissionResponse(ctx, m, next)
			case m.IsResponseTo("session/new"), m.IsResponseTo("session/load"),
				m.IsResponseTo("session/resume"), m.IsResponseTo("session/fork"):
				x.onOpened(m)
			case m.IsResponseTo("session/prompt"):
				x.onPromptDone(m)
			}
		case acpwire.KindBatch:
			return x.onBatch(ctx, m, next)
		}
		return next.Handle(ctx, m)
	})
}

// ---- audit helpers ----

func (x *Enforcer) append(ev audit.Event) {
	if x.rec == nil {
		return
	}
	if err := x.rec.Append(ev); err != nil {
		x.log.Warn("audit append failed", "action", ev.Action, "err", err)
	}
}

// record writes a decision synchronously. It returns an error only when
// the record could not be written and the bridge fails closed: the
// decision must then not take effect.
func (x *Enforcer) record(ev audit.Event) error {
	if x.rec == nil {
		return nil
	}
	err := x.rec.AppendSync(ev)
	if err == nil {
		return nil
	}
	x.log.Error("audit record of a decision failed", "action", ev.Action, "err", err)
	if x.opts.FailOpen || errors.Is(err, audit.ErrInvalidEvent) {
		return nil
	}
	return err
}

// auditDown reports whether decisions must be refused because the log is
// unhealthy and the bridge fails closed.
func (x *Enforcer) auditDown() error {
	if x.rec == nil || x.opts.FailOpen {
		return nil
	}
	if err := x.rec.Healthy(); err != nil {
		return err
	}
	return nil
}

func policyOf(d Decision) *audit.Policy {
	return &audit.Policy{Ref: d.Ref, Decision: string(d.Value)}
}

func decisionMeta(d Decision, session string, extra map[string]any) map[string]any {
	md := map[string]any{"rule": d.Rule, "reason": d.Reason}
	if session != "" {
		md["session"] = session
	}
	if len(d.Advisories) > 0 {
		md["advisories"] = d.Advisories
	}
	for k, v := range extra {
		md[k] = v
	}
	return md
}

// auditDenied is the decision when the audit log cannot be written.
func auditDenied(err error) Decision {
	return Decision{Value: Deny, Ref: "audit-unavailable", Rule: "deny while the audit log cannot be written (--audit-fail closed)",
		Reason: fmt.Sprintf("the audit log cannot be written: %v", err)}
}

// ---- sessions ----

type openParams struct {
	SessionID             string   `json:"sessionId"`
	Cwd                   string   `json:"cwd"`
	AdditionalDirectories []string `json:"additionalDirectories"`
}

func (x *Enforcer) onOpen(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p openParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return next.Handle(ctx, m) // the agent will reject malformed params itself
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
	op := &openState{method: m.Method, session: p.SessionID, cwd: p.Cwd, roots: append(roots, p.AdditionalDirectories...)}
	if r := x.roots(); len(r) > 0 {
		op.roots = r
	}
	x.opens[string(bytes.TrimSpace(m.ID))] = op
	if m.Method == "session/load" && p.SessionID != "" {
		s := x.sessionLocked(p.SessionID)
		s.loading++
		x.loadingN.Add(1)
	}
	x.mu.Unlock()
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
	key := string(bytes.TrimSpace(m.Request.ID))
	x.mu.Lock()
	op := x.opens[key]
	delete(x.opens, key)
	if op == nil {
		x.mu.Unlock()
		return
	}
	sid := op.session
	if sid == "" {
		sid, _ = m.GetString("result", "sessionId")
	}
	if op.method == "session/load" && op.session != "" {
		if s := x.sessions[op.session]; s != nil && s.loading > 0 {
			s.loading--
			x.loadingN.Add(-1)
		}
	}
	if m.Error != nil || sid == "" {
		x.mu.Unlock()
		return
	}
	s := x.sessionLocked(sid)
	s.cwd, s.roots = op.cwd, op.roots
	from := s.state
	s.state = "invoked"
	x.mu.Unlock()
	x.append(audit.Event{Actor: x.agent, Action: "session.start", Subject: audit.Subject{Kind: "session", Ref: sid, Path: op.cwd},
		Input: map[string]any{"method": op.method}, Metadata: map[string]any{"session": sid}})
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

// transition moves session sid to state to and records it.
func (x *Enforcer) transition(sid, to, why string) {
	if sid == "" {
		return
	}
	x.mu.Lock()
	s := x.sessionLocked(sid)
	from := s.state
	s.state = to
	x.mu.Unlock()
	x.lifecycle(sid, from, to, why)
}

func (x *Enforcer) onPrompt(m *acpwire.Message) {
	sid, _ := m.GetString("params", "sessionId")
	x.mu.Lock()
	x.prompts[string(bytes.TrimSpace(m.ID))] = sid
	x.mu.Unlock()
	prompt, _ := m.Get("params", "prompt")
	x.append(audit.Event{Actor: actorUser, Action: "session.prompt", Subject: audit.Subject{Kind: "session", Ref: sid},
		Input: map[string]any{"prompt": json.RawMessage(prompt)}, Metadata: map[string]any{"session": sid}})
	x.transition(sid, "running", "session/prompt")
}

func (x *Enforcer) onPromptDone(m *acpwire.Message) {
	key := string(bytes.TrimSpace(m.Request.ID))
	x.mu.Lock()
	sid := x.prompts[key]
	delete(x.prompts, key)
	x.mu.Unlock()
	stop, _ := m.GetString("result", "stopReason")
	switch {
	case m.Error != nil:
		x.transition(sid, "interrupted", "session/prompt failed")
	case stop == "cancelled":
		x.transition(sid, "interrupted", "turn cancelled")
	default:
		x.transition(sid, "completed", "turn ended: "+stop)
	}
}

func (x *Enforcer) onClose(m *acpwire.Message) {
	sid, _ := m.GetString("params", "sessionId")
	x.mu.Lock()
	delete(x.sessions, sid)
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
	x.mu.Unlock()
	for _, id := range ids {
		x.append(audit.Event{Actor: actorBridge, Action: "session.end", Subject: audit.Subject{Kind: "session", Ref: id},
			Input: map[string]any{"cause": why}, Metadata: map[string]any{"session": id}})
	}
}

// sessionContext returns the cwd and roots of session sid.
func (x *Enforcer) sessionContext(sid string) (string, []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if s := x.sessions[sid]; s != nil {
		return s.cwd, s.roots
	}
	return "", nil
}

// ---- cancel ----

func (x *Enforcer) onCancel(m *acpwire.Message) {
	sid, _ := m.GetString("params", "sessionId")
	x.mu.Lock()
	var held []*permState
	for k, p := range x.perms {
		if p.session == sid {
			held = append(held, p)
			delete(x.perms, k)
		}
	}
	if cancel := x.asks["session:"+sid]; cancel != nil {
		cancel(errSessionCancelled)
	}
	x.mu.Unlock()
	for _, p := range held {
		ev := audit.Event{Actor: actorBridge, Action: "approval.recorded", Subject: toolSubject(p.call),
			Output: map[string]any{"outcome": "cancelled"}, Policy: policyOf(p.decision),
			Metadata: decisionMeta(p.decision, sid, map[string]any{"cause": "session/cancel"})}
		_ = x.record(ev)
		if err := x.send.Reply(p.msg, cancelledOutcome); err != nil {
			x.log.Debug("answering a held permission request on cancel", "err", err)
		}
	}
	x.transition(sid, "interrupted", "session/cancel")
}

var cancelledOutcome = json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`)

func selectedOutcome(optionID string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": optionID}})
	return b
}

// ---- tool calls ----

// toolCallFields are the parts of a tool_call, tool_call_update or a
// permission request's toolCall the bridge reads.
type toolCallFields struct {
	ToolCallID string          `json:"toolCallId"`
	Title      *string         `json:"title"`
	Kind       *string         `json:"kind"`
	Status     string          `json:"status"`
	RawInput   json.RawMessage `json:"rawInput"`
	RawOutput  json.RawMessage `json:"rawOutput"`
	Content    json.RawMessage `json:"content"`
	Locations  []struct {
		Path string `json:"path"`
	} `json:"locations"`
	Meta json.RawMessage `json:"_meta"`
}

// callLocked returns the state of a tool call and merges what f says of
// it. x.mu held.
func (x *Enforcer) callLocked(sid string, f *toolCallFields) *callState {
	key := sid + "\x00" + f.ToolCallID
	c := x.calls[key]
	if c == nil {
		c = &callState{session: sid, id: f.ToolCallID}
		x.calls[key] = c
	}
	if f.Title != nil {
		c.tc.Title = *f.Title
	}
	if f.Kind != nil {
		c.tc.Kind = *f.Kind
	}
	if hasValue(f.RawInput) {
		c.tc.RawInput = append(json.RawMessage(nil), f.RawInput...)
	}
	if len(f.Locations) > 0 {
		c.tc.Locations = c.tc.Locations[:0]
		for _, l := range f.Locations {
			c.tc.Locations = append(c.tc.Locations, l.Path)
		}
	}
	if name := agentToolName(f.Meta); name != "" {
		c.tc.Tool = name
	}
	return c
}

func hasValue(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null")) && !bytes.Equal(t, []byte("{}"))
}

// agentToolName reads the agent's own tool name from _meta: Claude Code's
// claudeCode.toolName, or a top-level toolName.
func agentToolName(meta json.RawMessage) string {
	if len(meta) == 0 {
		return ""
	}
	var m struct {
		ClaudeCode struct {
			ToolName string `json:"toolName"`
		} `json:"claudeCode"`
		ToolName string `json:"toolName"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return ""
	}
	if m.ClaudeCode.ToolName != "" {
		return m.ClaudeCode.ToolName
	}
	return m.ToolName
}

func (x *Enforcer) decideCall(c *callState) Decision {
	cwd, roots := x.sessionContext(c.session)
	req := ToolCallRequest(c.tc, cwd)
	req.Roots = roots
	return x.decide(req)
}

// noPolicy is the decision without an engine.
var noPolicy = Decision{Value: Allow, Ref: "no-policy", Rule: "no policy loaded (audit only)", Reason: "no policy is loaded"}

// decide asks the engine, or allows when there is none.
func (x *Enforcer) decide(req Request) Decision {
	if x.engine == nil {
		return noPolicy
	}
	return x.engine.Decide(req)
}

// roots returns the engine's configured workspace roots.
func (x *Enforcer) roots() []string {
	if x.engine == nil {
		return nil
	}
	return x.engine.Roots()
}

func toolSubject(c *callState) audit.Subject {
	if c == nil {
		return audit.Subject{Kind: "tool-call"}
	}
	s := audit.Subject{Kind: "tool-call", Ref: c.id}
	if len(c.tc.Locations) > 0 {
		s.Path = c.tc.Locations[0]
	}
	return s
}

func (x *Enforcer) toolName(c *callState) string {
	switch {
	case c.tc.Tool != "":
		return c.tc.Tool
	case c.tc.Kind != "":
		return c.tc.Kind
	}
	return c.tc.Title
}

// mirror is the AIP-44 tool-call record for metadata["toolCall"].
func (x *Enforcer) mirror(c *callState) audit.ToolCall {
	return audit.ToolCall{Kind: "tool-call", Operator: x.agent.ID, Session: c.session, ToolCallID: c.id,
		Tool: x.toolName(c), Arguments: rawOrNil(c.tc.RawInput), Approval: c.approval}
}

func rawOrNil(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	return r
}

type updateParams struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string `json:"sessionUpdate"`
		toolCallFields
	} `json:"update"`
}

// toolCallMark is in every tool_call and tool_call_update, unless the
// sender escaped characters of it (then the message holds a backslash-u).
var (
	toolCallMark = []byte(`"tool_call`)
	escapeMark   = []byte(`\u`)
)

// parseToolUpdate reads the fields of a tool_call or tool_call_update
// notification the bridge uses, without decoding the large ones (content,
// rawOutput), which stay raw sub-slices of params.
func parseToolUpdate(params []byte) (*updateParams, bool) {
	top, err := rawjson.Members(params)
	if err != nil {
		return nil, false
	}
	p := &updateParams{}
	var update []byte
	for _, mem := range top {
		switch mem.Key {
		case "sessionId":
			p.SessionID, _ = rawjson.String(mem.Value)
		case "update":
			update = mem.Value
		}
	}
	fields, err := rawjson.Members(update)
	if err != nil {
		return nil, false
	}
	u := &p.Update
	for _, mem := range fields {
		v := mem.Value
		switch mem.Key {
		case "sessionUpdate":
			u.SessionUpdate, _ = rawjson.String(v)
		case "toolCallId":
			u.ToolCallID, _ = rawjson.String(v)
		case "title":
			if s, ok := rawjson.String(v); ok {
				u.Title = &s
			}
		case "kind":
			if s, ok := rawjson.String(v); ok {
				u.Kind = &s
			}
		case "status":
			u.Status, _ = rawjson.String(v)
		case "rawInput":
			u.RawInput = v
		case "rawOutput":
			u.RawOutput = v
		case "content":
			u.Content = v
		case "_meta":
			u.Meta = v
		case "locations":
			if err := json.Unmarshal(v, &u.Locations); err != nil {
				u.Locations = nil
			}
		}
	}
	return p, true
}

func (x *Enforcer) onUpdate(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	if !bytes.Contains(m.Params, toolCallMark) && !bytes.Contains(m.Params, escapeMark) {
		return next.Handle(ctx, m) // the common case: message chunks, plans, usage
	}
	// Members are read in order and later duplicates win, as in
	// JavaScript clients and encoding/json.
	p, ok := parseToolUpdate(m.Params)
	kind := ""
	if ok {
		kind = p.Update.SessionUpdate
	}
	if kind != "tool_call" && kind != "tool_call_update" || p.Update.ToolCallID == "" {
		return next.Handle(ctx, m)
	}
	u := &p.Update.toolCallFields
	x.mu.Lock()
	s := x.sessions[p.SessionID]
	replay := s != nil && s.loading > 0
	if replay {
		x.mu.Unlock()
		x.append(audit.Event{Actor: x.agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: u.ToolCallID},
			Input: rawOrNil(u.RawInput), Output: rawOrNil(u.RawOutput),
			Metadata: map[string]any{"session": p.SessionID, "replay": true, "sessionUpdate": kind, "status": u.Status}})
		return next.Handle(ctx, m)
	}
	c := x.callLocked(p.SessionID, u)
	blocked, deferred := c.blocked, c.deferred
	decide := !blocked && c.approval == "" && (kind == "tool_call" || !c.decidedWith && hasValue(u.RawInput))
	knewInput := c.decidedWith
	ranAnyway := deferred && u.Status == "completed"
	if ranAnyway {
		c.deferred = false
	}
	x.mu.Unlock()
	if ranAnyway {
		// The agent's hook did not refuse it: stop the turn after all.
		return x.block(ctx, c, *c.decision, false)
	}
	if blocked {
		return nil // the IDE must not see more of a call the bridge stopped
	}
	if decide {
		d := x.decideCall(c)
		x.mu.Lock()
		c.decision = &d
		c.decidedWith = c.decidedWith || hasValue(c.tc.RawInput)
		x.mu.Unlock()
		if d.Value == Deny && x.opts.AgentHook != nil && x.opts.AgentHook() {
			return x.hide(c, d, kind == "tool_call_update")
		}
		if d.Value == Deny {
			return x.block(ctx, c, d, kind == "tool_call_update")
		}
		// An allowed call's decision is recorded once it was made with the
		// call's input: an agent often announces a call before its input
		// (Claude's first tool_call has rawInput {}), and a record that
		// allowed it then would say it was allowed before anyone knew what it
		// would do. A call whose input never comes is recorded at its end.
		if !knewInput && hasValue(c.tc.RawInput) {
			x.append(audit.Event{Actor: x.agent, Action: "tool.call", Subject: toolSubject(c), Input: rawOrNil(c.tc.RawInput),
				Policy: policyOf(d), Metadata: decisionMeta(d, c.session, map[string]any{"toolCall": x.mirror(c), "status": u.Status})})
		}
	}
	if u.Status == "completed" || u.Status == "failed" {
		x.finish(c, u)
	}
	return next.Handle(ctx, m)
}

// finish records the final state of a tool call and forgets it.
func (x *Enforcer) finish(c *callState, u *toolCallFields) {
	x.mu.Lock()
	delete(x.calls, c.session+"\x00"+c.id)
	mir := x.mirror(c)
	d := c.decision
	x.mu.Unlock()
	result := rawOrNil(u.RawOutput)
	if result == nil {
		result = rawOrNil(u.Content)
	}
	if u.Status == "failed" {
		mir.Error = result
		if mir.Error == nil {
			mir.Error = "failed"
		}
	} else {
		mir.Result = result
	}
	md := map[string]any{"session": c.session, "toolCall": mir, "status": u.Status}
	ev := audit.Event{Actor: x.agent, Action: "tool.call", Subject: toolSubject(c), Input: rawOrNil(c.tc.RawInput), Output: result, Metadata: md}
	if d != nil {
		ev.Policy = policyOf(*d)
		md["rule"] = d.Rule
	}
	x.append(ev)
	if d != nil && d.Value.NeedsApproval() && mir.Approval == "" {
		// The agent ran a tool the policy wants approved without asking.
		x.append(audit.Event{Actor: x.agent, Action: "policy.violation", Subject: toolSubject(c), Input: rawOrNil(c.tc.RawInput),
			Policy: policyOf(*d), Metadata: decisionMeta(*d, c.session, map[string]any{
				"toolCall": mir, "violation": "the tool ran without the approval the policy requires"})})
	}
}

// block stops a tool call the agent runs without asking: the tool_call is
// not forwarded, a violation is recorded, the turn is cancelled and the
// user is told. seen says the IDE already saw the call (it arrived before
// its input), so the IDE is told it failed.
func (x *Enforcer) block(ctx context.Context, c *callState, d Decision, seen bool) error {
	x.mu.Lock()
	c.blocked = true
	mir := x.mirror(c)
	x.mu.Unlock()
	ev := audit.Event{Actor: x.agent, Action: "policy.violation", Subject: toolSubject(c), Input: rawOrNil(c.tc.RawInput),
		Policy: policyOf(d), Metadata: decisionMeta(d, c.session, map[string]any{"toolCall": mir,
			"violation": "the agent ran a tool the policy denies without asking", "enforcement": "tool call hidden, turn cancelled"})}
	if err := x.record(ev); err != nil {
		x.log.Error("violation could not be recorded; blocking anyway", "err", err)
	}
	if err := x.send.Notify(acpwire.ClientToAgent, "session/cancel", map[string]any{"sessionId": c.session}); err != nil {
		x.log.Warn("cancelling the turn after a denied tool call", "err", err)
	}
	x.transition(c.session, "interrupted", "denied tool call "+c.id)
	if seen {
		_ = x.send.Notify(acpwire.AgentToClient, "session/update", map[string]any{"sessionId": c.session,
			"update": map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": c.id, "status": "failed"}})
	}
	x.tell(c.session, fmt.Sprintf("acp-bridge blocked %s and stopped the turn: %s (rule: %s).", describeCall(c), d.Reason, d.Rule))
	return nil
}

// hide keeps a denied tool call from the IDE and leaves refusing it to
// the agent's pre-tool hook, which decides with the same engine before the
// tool runs: the turn goes on and the model hears the hook's reason.
func (x *Enforcer) hide(c *callState, d Decision, seen bool) error {
	x.mu.Lock()
	c.blocked, c.deferred = true, true
	mir := x.mirror(c)
	x.mu.Unlock()
	ev := audit.Event{Actor: actorBridge, Action: "tool.call", Subject: toolSubject(c), Input: rawOrNil(c.tc.RawInput),
		Policy: policyOf(d), Metadata: decisionMeta(d, c.session, map[string]any{"toolCall": mir,
			"enforcement": "tool call hidden from the IDE; the agent's pre-tool hook refuses it"})}
	if err := x.record(ev); err != nil {
		x.log.Error("decision could not be recorded", "err", err)
	}
	if seen {
		_ = x.send.Notify(acpwire.AgentToClient, "session/update", map[string]any{"sessionId": c.session,
			"update": map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": c.id, "status": "failed"}})
	}
	return nil
}

func describeCall(c *callState) string {
	if c.tc.Title != "" {
		return fmt.Sprintf("the tool call %q", c.tc.Title)
	}
	return "tool call " + c.id
}

// tell shows the user a short message in the session's transcript.
func (x *Enforcer) tell(sid, text string) {
	if sid == "" {
		return
	}
	err := x.send.Notify(acpwire.AgentToClient, "session/update", map[string]any{"sessionId": sid,
		"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "\n\n" + text + "\n\n"}}})
	if err != nil {
		x.log.Warn("telling the user about a blocked action", "err", err)
	}
}

// ---- permission requests ----

type permParams struct {
	SessionID string         `json:"sessionId"`
	ToolCall  toolCallFields `json:"toolCall"`
	Options   []permOption   `json:"options"`
}

func (x *Enforcer) onPermission(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p permParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		x.log.Warn("unreadable permission request; the person decides", "err", err)
		return next.Handle(ctx, m)
	}
	x.mu.Lock()
	c := x.callLocked(p.SessionID, &p.ToolCall)
	blocked := c.blocked
	x.mu.Unlock()
	d := x.decideCall(c)
	if x.engine == nil {
		d = Decision{Value: RequireApproval, Ref: noPolicy.Ref, Rule: noPolicy.Rule, Reason: "no policy is loaded: the person decides"}
	}
	if blocked {
		d = Decision{Value: Deny, Ref: d.Ref, Rule: d.Rule, Reason: "the bridge already stopped this tool call: " + d.Reason}
	}
	if err := x.auditDown(); err != nil {
		d = auditDenied(err)
	}
	allowOpt := findOption(p.Options, "allow_once")
	if d.Value == Allow && allowOpt == "" {
		// Only allow_always is offered: choosing it would let the agent
		// skip asking next time, so a person decides.
		d.Value, d.Reason = RequireApproval, d.Reason+"; the agent offers no allow_once option"
	}
	x.mu.Lock()
	c.decision = &d
	c.decidedWith = c.decidedWith || hasValue(c.tc.RawInput)
	if d.Value == Allow {
		c.approval = "auto"
	}
	mir := x.mirror(c)
	x.mu.Unlock()
	ev := audit.Event{Actor: actorBridge, Action: "tool.call", Subject: toolSubject(c), Input: rawOrNil(c.tc.RawInput),
		Policy: policyOf(d), Metadata: decisionMeta(d, p.SessionID, map[string]any{"toolCall": mir, "stage": "permission"})}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	switch {
	case d.Value == Allow:
		return x.send.Reply(m, selectedOutcome(allowOpt))
	case d.Value == Deny:
		x.mu.Lock()
		c.denied = true
		x.mu.Unlock()
		x.tell(p.SessionID, fmt.Sprintf("acp-bridge refused permission for %s: %s (rule: %s).", describeCall(c), d.Reason, d.Rule))
		if opt := findOption(p.Options, "reject_once"); opt != "" {
			return x.send.Reply(m, selectedOutcome(opt))
		}
		return x.send.Reply(m, cancelledOutcome)
	}
	x.mu.Lock()
	x.perms[string(bytes.TrimSpace(m.ID))] = &permState{msg: m, session: p.SessionID, call: c, decision: d, options: p.Options}
	x.mu.Unlock()
	x.transition(p.SessionID, "suspended", "waiting for approval of "+c.id)
	return next.Handle(ctx, m)
}

func findOption(opts []permOption, kind string) string {
	for _, o := range opts {
		if o.Kind == kind {
			return o.OptionID
		}
	}
	return ""
}

func (x *Enforcer) onPermissionResponse(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	key := string(bytes.TrimSpace(m.Request.ID))
	x.mu.Lock()
	p := x.perms[key]
	delete(x.perms, key)
	x.mu.Unlock()
	if p == nil {
		return next.Handle(ctx, m)
	}
	outcome, _ := m.GetString("result", "outcome", "outcome")
	optionID, _ := m.GetString("result", "outcome", "optionId")
	optKind := ""
	for _, o := range p.options {
		if o.OptionID == optionID {
			optKind = o.Kind
		}
	}
	out := map[string]any{"outcome": outcome}
	if optionID != "" {
		out["optionId"], out["optionKind"] = optionID, optKind
	}
	if m.Error != nil {
		out["error"] = json.RawMessage(m.Error)
	}
	approved := outcome == "selected" && strings.HasPrefix(optKind, "allow")
	x.mu.Lock()
	if approved {
		p.call.approval = fmt.Sprintf("%s (%s %s)", actorUser.ID, optKind, optionID)
	} else {
		p.call.denied = true
	}
	mir := x.mirror(p.call)
	x.mu.Unlock()
	ev := audit.Event{Actor: actorUser, Action: "approval.recorded", Subject: toolSubject(p.call), Output: out,
		Policy: policyOf(p.decision), Metadata: decisionMeta(p.decision, p.session, map[string]any{"toolCall": mir, "approved": approved})}
	if err := x.record(ev); err != nil {
		// The person's answer cannot be recorded: it must not take
		// effect. The agent gets a refusal instead.
		x.transition(p.session, "running", "approval refused: audit log down")
		if opt := findOption(p.options, "reject_once"); opt != "" {
			return x.send.Reply(p.msg, selectedOutcome(opt))
		}
		return x.send.Reply(p.msg, cancelledOutcome)
	}
	x.transition(p.session, "running", "permission answered")
	return next.Handle(ctx, m)
}

// ---- fs/* and terminal/create ----

type clientCallParams struct {
	SessionID string   `json:"sessionId"`
	Path      string   `json:"path"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	Cwd       string   `json:"cwd"`
	Line      *int     `json:"line"`
	Limit     *int     `json:"limit"`
}

func (x *Enforcer) onClientCall(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p clientCallParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams, "acp-bridge: unreadable %s params: %v", m.Method, err))
	}
	cwd, roots := x.sessionContext(p.SessionID)
	req := Request{Cwd: cwd, Roots: roots}
	var action, subjKind, what string
	input := map[string]any{}
	switch m.Method {
	case "fs/read_text_file":
		action, subjKind, what = ActionFSRead, "file", "reading "+p.Path
		req.Paths = []string{p.Path}
		input["path"] = p.Path
		if p.Line != nil {
			input["line"] = *p.Line
		}
		if p.Limit != nil {
			input["limit"] = *p.Limit
		}
	case "fs/write_text_file":
		action, subjKind, what = ActionFSWrite, "file", "writing "+p.Path
		req.Paths = []string{p.Path}
		content, _ := m.Get("params", "content")
		input["path"], input["content"] = p.Path, json.RawMessage(content)
	default:
		action, subjKind = ActionTerminalCreate, "terminal"
		req.Command = shellJoin(append([]string{p.Command}, p.Args...))
		if len(p.Args) == 0 {
			req.Command = p.Command // a whole command line
		}
		if p.Cwd != "" {
			req.Cwd = p.Cwd
		}
		what = "running " + req.Command
		input["command"], input["args"], input["cwd"] = p.Command, p.Args, p.Cwd
	}
	req.Action = action
	d := x.decide(req)
	if action != ActionFSRead {
		if err := x.auditDown(); err != nil {
			d = auditDenied(err)
		}
	}
	subj := audit.Subject{Kind: subjKind, Path: p.Path}
	if action == ActionTerminalCreate {
		subj.Ref, subj.Path = req.Command, req.Cwd
	}
	ev := audit.Event{Actor: x.agent, Action: action, Subject: subj, Input: input, Policy: policyOf(d), Metadata: decisionMeta(d, p.SessionID, nil)}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	if d.Value.NeedsApproval() {
		ok, who, err := x.ask(ctx, m, p.SessionID, action, what, d, input)
		ans := map[string]any{"approved": ok, "approver": who}
		if err != nil {
			ans["error"] = err.Error()
		}
		if rerr := x.record(audit.Event{Actor: actorUser, Action: "approval.recorded", Subject: subj, Output: ans,
			Policy: policyOf(d), Metadata: decisionMeta(d, p.SessionID, map[string]any{"stage": action})}); rerr != nil {
			ok = false
		}
		if ok {
			return next.Handle(ctx, m)
		}
		reason := "the person did not approve it"
		if errors.Is(err, errRequestCancelled) {
			return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeRequestCancelled, "acp-bridge: %s: %v", what, err))
		}
		if err != nil {
			reason = fmt.Sprintf("approval could not be asked: %v", err)
		}
		d = Decision{Value: Deny, Ref: d.Ref, Rule: d.Rule, Reason: what + ": " + reason}
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	if d.Value == Deny {
		x.tell(p.SessionID, fmt.Sprintf("acp-bridge blocked %s: %s (rule: %s).", what, d.Reason, d.Rule))
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge policy: %s", d.Reason).WithData(denialData(d)))
	}
	return next.Handle(ctx, m)
}

func denialData(d Decision) map[string]any {
	return map[string]any{"decision": string(d.Value), "rule": d.Rule, "ref": d.Ref}
}

// ask puts a permission request of the bridge's own to the IDE and waits
// for the person's answer (or session/cancel).
// Causes of an approval the bridge stops waiting for.
var (
	errSessionCancelled = errors.New("the session's turn was cancelled")
	errRequestCancelled = errors.New("the agent cancelled its request")
)

// Preempt hears session/cancel and $/cancel_request as soon as the bridge
// reads them (register it with Bridge.OnPreempt): an approval the bridge is
// waiting for on behalf of a cancelled request or turn is abandoned at
// once, instead of after the person answers. It does not block.
func (x *Enforcer) Preempt(m *acpwire.Message) {
	var key string
	switch {
	case m.Dir == acpwire.AgentToClient && m.IsNotification("$/cancel_request"):
		id, ok := m.Get("params", "requestId")
		if !ok {
			return
		}
		key = "request:" + string(bytes.TrimSpace(id))
	case m.Dir == acpwire.ClientToAgent && m.IsNotification("session/cancel"):
		sid, _ := m.GetString("params", "sessionId")
		key = "session:" + sid
	default:
		return
	}
	x.mu.Lock()
	cancel := x.asks[key]
	x.mu.Unlock()
	if cancel != nil {
		if strings.HasPrefix(key, "request:") {
			cancel(errRequestCancelled)
		} else {
			cancel(errSessionCancelled)
		}
	}
}

func (x *Enforcer) ask(ctx context.Context, req *acpwire.Message, sid, action, what string, d Decision, input map[string]any) (bool, string, error) {
	if sid == "" {
		return false, "", errors.New("no session to ask in")
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	reqKey := "request:" + string(bytes.TrimSpace(req.ID))
	x.mu.Lock()
	x.askSeq++
	id := fmt.Sprintf("acp-bridge-approval-%d", x.askSeq)
	x.asks["session:"+sid] = cancel
	x.asks[reqKey] = cancel
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		delete(x.asks, "session:"+sid)
		delete(x.asks, reqKey)
		x.mu.Unlock()
	}()
	kind := "read"
	switch action {
	case ActionFSWrite:
		kind = "edit"
	case ActionTerminalCreate:
		kind = "execute"
	}
	params := map[string]any{
		"sessionId": sid,
		"toolCall": map[string]any{"toolCallId": id, "title": fmt.Sprintf("%s (policy: %s)", what, d.Value),
			"kind": kind, "status": "pending", "rawInput": input},
		"options": []permOption{{OptionID: "allow", Name: "Allow once", Kind: "allow_once"}, {OptionID: "reject", Name: "Reject", Kind: "reject_once"}},
	}
	x.transition(sid, "suspended", "waiting for approval of "+what)
	defer x.transition(sid, "running", "approval answered")
	res, err := x.send.Call(ctx, acpwire.AgentToClient, "session/request_permission", params)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			return false, "", cause
		}
		return false, "", err
	}
	var out struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return false, "", fmt.Errorf("unreadable permission response: %v", err)
	}
	if out.Outcome.Outcome == "selected" && out.Outcome.OptionID == "allow" {
		return true, actorUser.ID + " (allow_once allow)", nil
	}
	return false, actorUser.ID + " (" + out.Outcome.Outcome + " " + out.Outcome.OptionID + ")", nil
}

// ---- batches ----

// governedMethods are the methods a batch must not carry past the policy.
var governedMethods = map[string]bool{
	"session/request_permission": true, "fs/read_text_file": true, "fs/write_text_file": true,
	"terminal/create": true, "session/new": true, "session/load": true, "session/resume": true,
	"session/fork": true, "session/update": true, "session/prompt": true, "session/cancel": true,
}

type rawSender interface {
	Send(dir acpwire.Direction, raw []byte) error
}

func (x *Enforcer) onBatch(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	governed := false
	for _, e := range m.Batch {
		if governedMethods[e.Method] {
			governed = true
		}
	}
	if !governed {
		return next.Handle(ctx, m)
	}
	x.append(audit.Event{Actor: actorBridge, Action: "policy.violation", Subject: audit.Subject{Kind: "batch"},
		Policy:   &audit.Policy{Ref: "no-batches", Decision: string(Deny)},
		Metadata: map[string]any{"violation": "a JSON-RPC batch carried governed ACP methods", "direction": m.Dir.String()}})
	var resps []json.RawMessage
	for _, e := range m.Batch {
		if e.Kind != acpwire.KindRequest {
			continue
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": e.ID, "error": acpwire.Errorf(acpwire.CodeInvalidRequest,
			"acp-bridge: batches carrying %s are refused while a governance policy is active", e.Method)})
		resps = append(resps, b)
	}
	if len(resps) == 0 {
		return nil
	}
	rs, ok := x.send.(rawSender)
	if !ok {
		x.log.Error("refused a batch but cannot answer its requests")
		return nil
	}
	b, _ := json.Marshal(resps)
	return rs.Send(m.Dir.Reverse(), b)
}
