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

type permState struct {
	msg      *acpwire.Message
	session  string
	call     *callState
	decision Decision
	options  []acpparams.PermissionOption
	judged   string // the call's fingerprint when the person was asked
	title    string // the call's title (as the agent gave it) when the person was asked
	// reshown says the IDE was asked under another title than the agent's
	// (the bridge put what it judged in the title); retitled, that an
	// update of the call carried a title since: the IDE takes it as the
	// call's title, so the card the person answers shows the agent's words
	// again, even the very title the bridge replaced.
	reshown, retitled bool
	// alwaysHidden says the IDE was shown the request without its
	// allow_always options (shownOptions): an answer naming one approves
	// this call only.
	alwaysHidden bool
}

func (x *Enforcer) onPermission(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p acpparams.PermissionRequest
	if err := decodeStrict(m, &p); err != nil {
		return x.refuseUnreadable(m, err)
	}
	tc, err := acpparams.ReadToolCall(p.ToolCall)
	if err == nil && tc.Bad != "" {
		err = errors.New(tc.Bad)
	}
	if err == nil {
		err = acpparams.GoSDKProblem(m.Method, m.Params, tc.Items)
	}
	if err != nil {
		return x.refuseUnreadable(m, fmt.Errorf("%w: the permission request's toolCall: %v", errUnreadable, err))
	}
	if len(p.Options) > maxOptions {
		return x.refuseUnreadable(m, fmt.Errorf("%w: the permission request offers %d options", errUnreadable, len(p.Options)))
	}
	if id, ok := repeatedOption(p.Options); ok {
		// Which button the person pressed could not be told from the
		// answer: a "Reject" could be taken for an "Allow".
		return x.refuseUnreadable(m, fmt.Errorf("%w: two options have the optionId %q", errUnreadable, id))
	}
	if tc.ID == "" || len(tc.ID) > maxCallID {
		return x.refuseUnreadable(m, fmt.Errorf("%w: the permission request's toolCall has no toolCallId, or one over 1 KiB", errUnreadable))
	}
	if d, bad := x.toolCallRefusal(p.SessionID, tc.ID, tc.TerminalIDs()); bad {
		x.refuseMessage(m, p.SessionID, d)
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	x.mu.Lock()
	c := x.callLocked(p.SessionID, tc.ID)
	if c == nil {
		// The bridge stopped this call and it ended: a stand-in to refuse.
		c = &callState{session: p.SessionID, id: tc.ID, blocked: true}
	}
	cutBefore := c.cut
	full, carried, _ := c.merge(&tc)
	if x.calls[callKey(c.session, c.id)] == c {
		x.accountLocked(c)
	}
	blocked := c.blocked
	x.mu.Unlock()
	d, fp, cv := x.judgeMerged(c, full, cutBefore, carried)
	if x.engine == nil {
		d = Decision{Value: RequireApproval, Ref: noPolicy.Ref, Rule: noPolicy.Rule, Reason: "no policy is loaded: the person decides"}
	}
	if blocked {
		d = Decision{Value: Deny, Ref: d.Ref, Rule: d.Rule, Reason: "the bridge already stopped this tool call: " + d.Reason}
	}
	if err := x.auditDown(); err != nil {
		d = auditDenied(err)
	}
	x.mu.Lock()
	waiting := len(x.perms)
	x.mu.Unlock()
	if d.Value.NeedsApproval() && waiting >= maxWaitingPermissions {
		d = Decision{Value: Deny, Ref: "too-many-waiting", Rule: "at most 1,024 permission requests wait for the person at once",
			Reason: fmt.Sprintf("%d permission requests are already waiting for the person", waiting)}
	}
	if d.Value == Allow {
		if why, ok := x.personAnswers(p.SessionID, full); ok {
			d.Value, d.Ref, d.Reason = RequireApproval, "mode-person-answers", d.Reason+"; "+why
		}
	}
	allowOpt := findOption(p.Options, "allow_once")
	if d.Value == Allow && allowOpt == "" {
		// Only allow_always is offered: choosing it would let the agent
		// skip asking next time, so a person decides.
		d.Value, d.Reason = RequireApproval, d.Reason+"; the agent offers no allow_once option"
	}
	x.mu.Lock()
	if fp != c.judged {
		// An approval of what the call said before covers nothing now.
		c.approval, c.approvedBy = "", ""
	}
	// A new request is answered anew: a refusal of an earlier one does
	// not say how this one ends.
	c.refusal = nil
	c.decision, c.judged, c.covers = &d, fp, cv
	if x.calls[callKey(c.session, c.id)] == c {
		x.accountLocked(c)
	}
	if d.Value == Allow {
		c.approval = "auto"
	}
	mir := x.mirror(c)
	x.mu.Unlock()
	meta := map[string]any{"toolCall": mir, "stage": "permission"}
	shown, reshow := "", false
	var options []byte
	relabel := false
	hideAlways := d.Value.NeedsApproval() && x.engine != nil && !switchesMode(full) &&
		findOption(p.Options, "allow_once") != "" && findOption(p.Options, "allow_always") != ""
	if d.Value.NeedsApproval() && x.engine != nil { // with no policy the bridge only records
		if shown, reshow = x.judgedTitle(p.SessionID, full); reshow {
			meta["shownTitle"] = shown
		} else if !tc.HasTitle && full.Title != "" {
			// The request carries no title, so the IDE would show the
			// title the updates it took in left on the card. An IDE
			// drops an update its types refuse (Zed one whose location
			// has no path, acp-go-sdk one whose _meta is no object)
			// where the bridge read it: the title the bridge judged
			// goes into the request, so that it is what the person
			// answers, whatever the IDE dropped before.
			shown, reshow = full.Title, true
		}
		if options, relabel, err = shownOptions(m, p.Options, hideAlways); err != nil {
			return x.refuseUnreadable(m, fmt.Errorf("%w: the permission request's options: %v", errUnreadable, err))
		}
		if relabel {
			meta["shownOptions"] = json.RawMessage(options)
		}
	}
	ev := audit.Event{Actor: actorBridge, Action: "tool.call", Subject: toolSubject(c), Input: inputRecord(c),
		Policy: policyOf(d), Metadata: decisionMeta(d, p.SessionID, meta)}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	switch {
	case d.Value == Allow:
		return x.send.Reply(m, acpparams.Selected(allowOpt))
	case d.Value == Deny:
		x.mu.Lock()
		c.denied = true
		x.mu.Unlock()
		x.tell(p.SessionID, fmt.Sprintf("acp-bridge refused permission for %s: %s (rule: %s).", describeCall(c), d.Reason, d.Rule))
		if opt := findOption(p.Options, "reject_once"); opt != "" {
			return x.send.Reply(m, acpparams.Selected(opt))
		}
		return x.send.Reply(m, acpparams.Cancelled())
	}
	out := m
	err = nil
	if reshow {
		out, err = showJudged(out, shown)
	}
	if err == nil && relabel {
		out, err = out.Patch(options, "params", "options")
	}
	if err != nil {
		// The person would not see what they approve: nobody is asked.
		x.mu.Lock()
		c.denied = true
		x.mu.Unlock()
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: the permission request cannot show what it asks about: %v", err))
	}
	x.mu.Lock()
	x.perms[string(bytes.TrimSpace(m.ID))] = &permState{msg: heldRequest(m), session: p.SessionID, call: c, decision: d, options: p.Options, judged: fp, title: c.tc.Title,
		reshown: reshow, alwaysHidden: hideAlways}
	x.mu.Unlock()
	x.transition(p.SessionID, "suspended", "waiting for approval of "+c.id)
	return next.Handle(ctx, out)
}

func findOption(opts []acpparams.PermissionOption, kind string) string {
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
	unanswerable := false
	if p.alwaysHidden && outcome == "selected" && optKind == "allow_always" {
		// Not shown (shownOptions): this call is approved, not the next.
		once := findOption(p.options, "allow_once")
		b, _ := json.Marshal(once)
		if answered, err := m.Patch(b, "result", "outcome", "optionId"); err == nil {
			out["answeredAs"] = once
			m, optionID, optKind = answered, once, "allow_once"
		} else {
			unanswerable, out["unanswerable"] = true, err.Error()
		}
	}
	if m.Error != nil {
		out["error"] = json.RawMessage(bytes.Clone(m.Error))
	}
	approved := outcome == "selected" && strings.HasPrefix(optKind, "allow") && !unanswerable
	stale := false
	x.mu.Lock()
	if approved && (p.call.judged != p.judged || p.call.tc.Title != p.title || p.retitled) {
		stale = true
		// The call changed while the person was looking at it: the answer
		// is about what they saw, which is no longer what the call does.
		approved = false
		out["stale"] = "the tool call changed after the person was asked"
	}
	if approved {
		// The option's kind and id are the agent's: quoted unless plain
		// tokens, so that "allow) approved by user:lead (x" cannot read
		// as another approver in the views.
		p.call.approval = fmt.Sprintf("%s (%s %s)", actorUser.ID, audit.Quoted(optKind), audit.Quoted(optionID))
		p.call.approvedBy = key
	} else {
		// An approval the person gave an earlier request about this call
		// does not stand once they refuse it: the records from here on
		// must not name it (nor does it cover anything, see denied).
		p.call.approval, p.call.approvedBy, p.call.denied = "", "", true
	}
	mir := x.mirror(p.call)
	x.mu.Unlock()
	ev := audit.Event{Actor: actorUser, Action: "approval.recorded", Subject: toolSubject(p.call), Output: out,
		Policy: policyOf(p.decision), Metadata: decisionMeta(p.decision, p.session, map[string]any{"toolCall": mir, "approved": approved})}
	seq, err := x.recordSeq(ev)
	if !approved || err != nil {
		by := actorUser.ID
		switch {
		case stale:
			by = actorBridge.ID + " (the call changed after the person approved it)"
		case approved:
			// The agent is refused below: the approval must not stand for
			// the call, nor cover what carries it out.
			by = actorBridge.ID + " (the person's answer could not be recorded)"
		}
		x.mu.Lock()
		if approved {
			p.call.approval, p.call.approvedBy, p.call.denied = "", "", true
		}
		x.noteRefusalLocked(p.call, key, by, strings.TrimSpace(outcome+" "+optKind+" "+optionID), seq)
		x.mu.Unlock()
	}
	if err != nil || stale || unanswerable {
		// The person's answer cannot be recorded, or it is about another
		// call than this one has become, or it cannot be given for this
		// call alone: it must not take effect. The agent gets a refusal
		// instead.
		x.transition(p.session, "running", "approval refused")
		if opt := findOption(p.options, "reject_once"); opt != "" {
			return x.send.Reply(p.msg, acpparams.Selected(opt))
		}
		return x.send.Reply(p.msg, acpparams.Cancelled())
	}
	x.transition(p.session, "running", "permission answered")
	return next.Handle(ctx, m)
}

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
	x.endApprovalsLocked(sid)
	x.mu.Unlock()
	for _, p := range held {
		ev := audit.Event{Actor: actorBridge, Action: "approval.recorded", Subject: toolSubject(p.call),
			Output: map[string]any{"outcome": "cancelled"}, Policy: policyOf(p.decision),
			Metadata: decisionMeta(p.decision, sid, map[string]any{"cause": "session/cancel"})}
		seq, _ := x.recordSeq(ev)
		x.mu.Lock()
		x.noteRefusalLocked(p.call, string(bytes.TrimSpace(p.msg.ID)), actorUser.ID+" (cancelled the turn)", "cancelled", seq)
		x.mu.Unlock()
		if err := x.send.Reply(p.msg, acpparams.Cancelled()); err != nil {
			x.log.Debug("answering a held permission request on cancel", "err", err)
		}
	}
	x.transition(sid, "interrupted", "session/cancel")
}

// retitledLocked marks the permission requests waiting about call c that
// the IDE was asked under the judged title: an update of c has just
// carried a title, which the IDE now shows on their card. x.mu held.
func (x *Enforcer) retitledLocked(c *callState) {
	for _, p := range x.perms {
		if p.call == c && p.reshown {
			p.retitled = true
		}
	}
}

// repeatedOption returns an optionId that more than one option has.
func repeatedOption(opts []acpparams.PermissionOption) (string, bool) {
	seen := make(map[string]bool, len(opts))
	for _, o := range opts {
		if seen[o.OptionID] {
			return o.OptionID, true
		}
		seen[o.OptionID] = true
	}
	return "", false
}

// maxOptions bounds the options of a permission request the bridge holds.
const maxOptions = 64

// maxWaitingPermissions bounds the permission requests waiting for the
// person at once; past it, more are refused.
const maxWaitingPermissions = 1024

// heldRequest is a copy of request m that keeps only what answering it
// later needs (its id and the bridge's bookkeeping), not its bytes: a
// permission request may be megabytes and wait on a person for long.
func heldRequest(m *acpwire.Message) *acpwire.Message {
	c := *m
	c.Raw, c.Params, c.Result, c.Error, c.Batch, c.Request = nil, nil, nil, nil, nil, nil
	c.ID = bytes.Clone(m.ID)
	if m.Original != nil {
		c.Original = heldRequest(m.Original)
	}
	return &c
}
