package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

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

// toolName is the name a call's record gives its tool: ACP's name when
// the call has one, else the agent's name from _meta, its kind or title.
func (x *Enforcer) toolName(c *callState) string {
	switch {
	case c.tc.Name != "":
		return c.tc.Name
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
		Tool: x.toolName(c), Arguments: inputRecord(c), Approval: c.approval}
}

// inputRecord is a call's input for the audit record: as received, or,
// when the bridge kept only part of it, that part with the whole input's
// size and SHA-256. It is the call's own copy (keepInput), not a new one:
// a call's kept input is replaced when the agent sends another, never
// written to, so a record that holds it sees what it saw.
func inputRecord(c *callState) any {
	kept := keptInput(c.tc.RawInput)
	if c.inputSum == "" {
		return kept
	}
	return map[string]any{"kept": kept, "size": c.inputSize, "sha256": c.inputSum}
}

// keptInput is a kept input as a record's value, nil when there is none.
func keptInput(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	return r
}

func rawOrNil(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	// A copy: the event waits in the audit queue after the message is
	// gone, and r is a slice of the 64 KiB read block the message came in.
	return append(json.RawMessage(nil), r...)
}

// toolCallMark is in every tool_call and tool_call_update, unless the
// sender escaped characters of it (then the message holds a backslash-u).
var (
	toolCallMark = []byte(`"tool_call`)
	escapeMark   = []byte(`\u`)
)

func (x *Enforcer) onUpdate(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	if m.TextChunk() {
		// The common case: message chunks. A text chunk's variant is
		// spelled out, one reading only; one the wire read in its chunk
		// form gives it without a pass over the text.
		if _, _, variant, _, ok := m.ChunkLine(); ok {
			if variant == "user_message_chunk" {
				return x.onUserWords(ctx, m, next)
			}
			return next.Handle(ctx, m)
		}
		if bytes.Contains(m.Raw, userChunkMark) {
			if v, _ := m.GetString("params", "update", "sessionUpdate"); v == "user_message_chunk" {
				return x.onUserWords(ctx, m, next)
			}
		}
		return next.Handle(ctx, m)
	}
	if !bytes.Contains(m.Raw, toolCallMark) && !bytes.Contains(m.Raw, escapeMark) && !bytes.Contains(m.Raw, modeMark) && !bytes.Contains(m.Raw, configMark) {
		return x.passNoToolCall(ctx, m, next) // plans, usage, other chunks
	}
	// What could be a tool call or a mode is read strictly: with no
	// duplicate names there is no "last member wins" for a reader to
	// disagree about.
	if err := strictlyRead(m); err != nil {
		x.onUnreadableModeUpdate(m.Params)
		if !mayBeToolCall(m.Params) {
			// Not a tool call under the bridge's readings (a message
			// chunk with a broken surrogate, say): not judged, so not
			// refused here, unless acp-go-sdk reads a tool call.
			return x.passNoToolCall(ctx, m, next)
		}
		return x.refuseUnreadable(m, err)
	}
	p, err := acpparams.UpdateOf(m, m.Params) // read once for every feature that reads it
	if err != nil {
		x.onUnreadableModeUpdate(m.Params)
		if errors.Is(err, acpparams.ErrNotUpdate) || !mayBeToolCall(m.Params) {
			return x.passNoToolCall(ctx, m, next)
		}
		return x.refuseUnreadable(m, fmt.Errorf("%w: %v", errUnreadable, err))
	}
	kind := p.SessionUpdate
	switch kind {
	case "current_mode_update":
		x.onModeUpdate(&p)
	case "config_option_update":
		x.onConfigUpdate(&p)
	}
	if !p.IsToolCall() {
		return x.passNoToolCall(ctx, m, next)
	}
	u := &p.ToolCall
	if u.Bad != "" {
		return x.refuseUnreadable(m, fmt.Errorf("%w: %s", errUnreadable, u.Bad))
	}
	if err := goSDKProblem(m, u); err != nil {
		return x.refuseUnreadable(m, fmt.Errorf("%w: %v", errUnreadable, err))
	}
	if u.ID == "" {
		return x.refuseUpdate(m, p.SessionID, Decision{Value: Deny, Ref: "no-tool-call-id", Rule: "every tool call names its toolCallId",
			Reason: "a " + kind + " without a toolCallId cannot be followed or judged"})
	}
	if len(u.ID) > maxCallID {
		return x.refuseUpdate(m, p.SessionID, Decision{Value: Deny, Ref: "tool-call-id-too-long", Rule: "a toolCallId is at most 1 KiB",
			Reason: fmt.Sprintf("a %s with a toolCallId of %d bytes", kind, len(u.ID))})
	}
	if kind == "tool_call" {
		x.noteDisplayTerminal(p.SessionID, u.Meta)
	}
	if d, bad := x.toolCallRefusal(p.SessionID, u.ID, u.TerminalIDs()); bad {
		return x.refuseUpdate(m, p.SessionID, d)
	}
	x.mu.Lock()
	s := x.sessions[p.SessionID]
	if s != nil && s.loading > 0 {
		x.mu.Unlock()
		x.append(audit.Event{Actor: x.agent, Action: "tool.call", Subject: audit.Subject{Kind: "tool-call", Ref: u.ID},
			Input: rawOrNil(u.RawInput), Output: x.toolOutput(u.RawOutput),
			Metadata: map[string]any{"session": p.SessionID, "replay": true, "sessionUpdate": kind, "status": u.Status}})
		return next.Handle(ctx, m)
	}
	c := x.callLocked(p.SessionID, u.ID)
	if c == nil {
		overflow := !x.stopped[callKey(p.SessionID, u.ID)]
		x.mu.Unlock()
		if overflow {
			return x.refuseUpdate(m, p.SessionID, Decision{Value: Deny, Ref: "too-many-stopped", Rule: "an agent with 16,384 stopped tool calls gets no more",
				Reason: "the bridge has stopped so many of this agent's tool calls that it takes on no new ones"})
		}
		return nil // the bridge stopped this call: the IDE sees nothing more of it
	}
	cutBefore := c.cut
	full, carried, touched := c.merge(u)
	if u.HasTitle && len(x.perms) > 0 {
		// The IDE shows this title in place of the judged one it was
		// asked about: an answer given now is about the agent's words.
		x.retitledLocked(c)
	}
	x.accountLocked(c)
	if u.Status != "" {
		c.status = u.Status
	}
	noteRanLocked(c, u, false)
	refusedRan := ranRefusedLocked(c, u)
	blocked, deferred, seen := c.blocked, c.deferred, c.forwarded
	// A call left to the agent's hook that runs or completes was not
	// refused: the hook, or the permission rules the bridge gave the
	// agent, refuse a call before it runs, and the agent reports it failed.
	ranAnyway := deferred && (u.Status == "completed" || u.Status == "in_progress")
	if ranAnyway {
		c.deferred = false
	}
	x.mu.Unlock()
	if ranAnyway {
		// The agent's hook did not refuse it: stop the turn after all.
		err := x.block(ctx, c, *c.decision, false, violationDenied)
		x.endIfOver(c)
		return err
	}
	if refusedRan {
		// Its permission was refused and the agent runs it anyway: the
		// IDE hears it failed, the turn stops.
		err := x.block(ctx, c, *c.decision, seen, violationRefused)
		x.endIfOver(c)
		return err
	}
	if blocked {
		x.endIfOver(c)
		return nil // the IDE must not see more of a call the bridge stopped
	}
	if kind == "tool_call" || touched {
		d, fp, cv := x.judgeMerged(c, full, cutBefore, carried)
		x.mu.Lock()
		changed := fp != c.judged
		var withdrawn string
		if changed {
			if c.judged != "" && c.approval != "" {
				// What the person (or the policy) approved is not what the
				// call now says it does.
				withdrawn, c.approval, c.approvedBy = c.approval, "", ""
			}
			c.judged, c.decision, c.covers = fp, &d, cv
			noteRanLocked(c, u, true)
			if x.calls[callKey(c.session, c.id)] == c {
				x.accountLocked(c)
			}
		}
		x.mu.Unlock()
		if changed {
			if err := x.onDecided(ctx, c, d, seen, hasValue(full.RawInput), withdrawn, u.Status); err != nil || d.Value == Deny {
				x.endIfOver(c)
				return err
			}
		}
	}
	x.mu.Lock()
	c.forwarded = true
	x.mu.Unlock()
	if u.Status == "completed" || u.Status == "failed" {
		x.finish(c, u)
	}
	return next.Handle(ctx, m)
}

// onDecided applies a new decision on a tool call the agent reported
// running: a denied call is blocked (or left to the agent's hook); an
// allowed one is recorded once its input is known. seen says the IDE has
// seen the call; withdrawn is an approval the change made void.
func (x *Enforcer) onDecided(ctx context.Context, c *callState, d Decision, seen, knowsInput bool, withdrawn, status string) error {
	if d.Value == Deny && x.opts.AgentHook != nil && x.opts.AgentHook() {
		return x.hide(c, d, seen)
	}
	if d.Value == Deny {
		return x.block(ctx, c, d, seen, violationDenied)
	}
	// An allowed call's decision is recorded once it was made with the
	// call's input: an agent often announces a call before its input
	// (Claude's first tool_call has rawInput {}), and a record that
	// allowed it then would say it was allowed before anyone knew what it
	// would do. A call whose input never comes is recorded at its end.
	if !knowsInput && withdrawn == "" {
		return nil
	}
	x.mu.Lock()
	mir := x.mirror(c)
	x.mu.Unlock()
	extra := map[string]any{"toolCall": mir, "status": status}
	if withdrawn != "" {
		extra["approvalWithdrawn"] = withdrawn
	}
	x.append(audit.Event{Actor: x.agent, Action: "tool.call", Subject: toolSubject(c), Input: inputRecord(c),
		Policy: policyOf(d), Metadata: decisionMeta(d, c.session, extra)})
	return nil
}

// endIfOver frees the state of a call the bridge stopped once the agent
// says it is over.
func (x *Enforcer) endIfOver(c *callState) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c.ended() {
		x.forgetLocked(c)
	}
}

// refuseUpdate drops a tool call update the bridge will not judge, records
// why, stops the turn and tells the user.
func (x *Enforcer) refuseUpdate(m *acpwire.Message, sid string, d Decision) error {
	ev := audit.Event{Actor: x.agent, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw)},
		Policy: policyOf(d), Metadata: decisionMeta(d, sid, nil)}
	if err := x.record(ev); err != nil {
		x.log.Error("refusal could not be recorded; refusing anyway", "err", err)
	}
	if sid != "" {
		if err := x.send.Notify(acpwire.ClientToAgent, "session/cancel", map[string]any{"sessionId": sid}); err != nil {
			x.log.Warn("cancelling the turn after a refused update", "err", err)
		}
		x.transition(sid, "interrupted", "refused tool call update")
	}
	x.tell(sid, fmt.Sprintf("acp-bridge dropped a tool call report from the agent and stopped the turn: %s.", d.Reason))
	return nil
}

// finish records the final state of a tool call and forgets it.
func (x *Enforcer) finish(c *callState, u *acpparams.ToolCall) {
	x.mu.Lock()
	x.forgetLocked(c)
	mir := x.mirror(c)
	d := c.decision
	x.mu.Unlock()
	result := x.toolOutput(u.RawOutput)
	if result == nil {
		result = x.toolOutput(u.Content)
	}
	if u.Status == "failed" {
		mir.Error = result
		if mir.Error == nil {
			mir.Error = "failed"
		}
	} else {
		mir.Result = result
	}
	// The records below share what they both hold (the mirror, boxed
	// once; the subject, input and policy); nothing writes to them.
	var toolCall any = mir
	subject, input := toolSubject(c), inputRecord(c)
	md := map[string]any{"session": c.session, "toolCall": toolCall, "status": u.Status}
	ev := audit.Event{Actor: x.agent, Action: "tool.call", Subject: subject, Input: input, Output: result, Metadata: md}
	if d != nil {
		ev.Policy = policyOf(*d)
		md["rule"] = d.Rule
	}
	x.append(ev)
	if d != nil && d.Value.NeedsApproval() && mir.Approval == "" {
		r, ran := x.refusedUnrun(c, u)
		if r != nil {
			// Refused, and the agent reports it did not run: nothing
			// the bridge saw says otherwise.
			x.recordRefused(c, r, *d, subject, input, toolCall)
			return
		}
		// The agent ran a tool the policy wants approved without asking.
		vmd := decisionMeta(*d, c.session, nil)
		vmd["toolCall"], vmd["violation"] = toolCall, "the tool ran without the approval the policy requires"
		if ran != "" {
			vmd["ranAfterRefusal"] = ran
		}
		x.append(audit.Event{Actor: x.agent, Action: "policy.violation", Subject: subject, Input: input, Policy: ev.Policy, Metadata: vmd})
	}
}

// Violations block records.
const (
	violationDenied  = "the agent ran a tool the policy denies without asking"
	violationRefused = "the agent ran a tool whose permission was refused"
)

// block stops a tool call the agent runs without asking (or after its
// permission was refused): the tool_call is not forwarded, a violation
// (violation says which) is recorded, the turn is cancelled and the
// user is told. seen says the IDE already saw the call (it arrived before
// its input), so the IDE is told it failed.
func (x *Enforcer) block(ctx context.Context, c *callState, d Decision, seen bool, violation string) error {
	x.mu.Lock()
	c.blocked = true
	mir := x.mirror(c)
	x.mu.Unlock()
	ev := audit.Event{Actor: x.agent, Action: "policy.violation", Subject: toolSubject(c), Input: inputRecord(c),
		Policy: policyOf(d), Metadata: decisionMeta(d, c.session, map[string]any{"toolCall": mir,
			"violation": violation, "enforcement": "tool call hidden, turn cancelled"})}
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
	ev := audit.Event{Actor: actorBridge, Action: "tool.call", Subject: toolSubject(c), Input: inputRecord(c),
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

// tell shows the user a short message in the session's transcript, on one
// line (oneLineNotice): what it quotes of the agent's (a path, a command
// line) cannot start a line of it and pass for the bridge's own words.
func (x *Enforcer) tell(sid, text string) {
	if sid == "" {
		return
	}
	err := x.send.Notify(acpwire.AgentToClient, "session/update", map[string]any{"sessionId": sid,
		"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "\n\n" + oneLineNotice(text) + "\n\n"}}})
	if err != nil {
		x.log.Warn("telling the user about a blocked action", "err", err)
	}
}

// oneLineNotice returns text with every line break a Markdown view or a
// terminal may break at (LF, CR, VT, FF, NEL, U+2028, U+2029) replaced by
// a space.
func oneLineNotice(text string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
			return ' '
		}
		return r
	}, text)
}

// goSDKProblem is acpparams.GoSDKProblem for a tool call update that
// shapes the call (ToolCall.ShapesCall): the others change nothing the
// bridge judges by, and most of a stream's bytes are theirs.
func goSDKProblem(m *acpwire.Message, u *acpparams.ToolCall) error {
	if !u.ShapesCall() {
		return nil
	}
	return acpparams.GoSDKProblem(m.Method, m.Params, u.Items)
}
