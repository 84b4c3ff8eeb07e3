package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

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
	// A copy: the event waits in the audit queue after the message is
	// gone, and r is a slice of the 64 KiB read block the message came in.
	return append(json.RawMessage(nil), r...)
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
