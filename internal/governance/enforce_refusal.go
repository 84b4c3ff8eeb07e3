package governance

import (
	"context"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// A tool call the policy wants approved that ends without an approval is
// a violation (the agent ran it unasked), unless the person refused it
// and nothing shows it ran: Claude reports a refused call "failed". Such
// a call is recorded as tool.refused, naming the record of the refusal,
// and not as a violation. What shows a call ran after its refusal: the
// agent reporting it in progress or completed, a terminal or a diff in
// its updates, a change of what it asks (the refusal was about another
// request), or a file write or terminal the bridge let through in its
// session since the refusal (a write cannot be tied to one call, so any
// one in the session counts).

// refusal is the refused answer to a permission request for a call.
type refusal struct {
	seq     int64  // the approval.recorded record's seq; -1 when the recorder does not tell it
	request string // the permission request's JSON-RPC id
	by      string // who refused: the person (user:ide) or the bridge
	outcome string // the answer's outcome and option, as recorded
	carried int    // the session's carried count when refused
	// ran says what showed the call ran after the refusal; "" while
	// nothing did.
	ran string
}

// meta is the refusal as a record names it.
func (r *refusal) meta() map[string]any {
	m := map[string]any{"permissionRequest": r.request, "by": r.by, "outcome": r.outcome}
	if r.seq >= 0 {
		m["seq"] = r.seq
	}
	return m
}

// noteRefusalLocked remembers that the permission request with id key
// for call c was refused, by who, with outcome, in the record at seq.
// x.mu held.
func (x *Enforcer) noteRefusalLocked(c *callState, key, by, outcome string, seq int64) {
	carried := 0
	if s := x.sessions[c.session]; s != nil {
		carried = s.carried
	}
	c.refusal = &refusal{seq: seq, request: key, by: by, outcome: outcome, carried: carried}
}

// noteRanLocked marks c's refusal as overtaken when update u (whose
// merge changed what the call asks when changed) shows the call ran.
// x.mu held.
func noteRanLocked(c *callState, u *acpparams.ToolCall, changed bool) {
	r := c.refusal
	if r == nil || r.ran != "" {
		return
	}
	switch {
	case u.Status == "in_progress" || u.Status == "completed":
		r.ran = "the agent reported it " + u.Status + " after the refusal"
	case len(u.TerminalIDs()) > 0:
		r.ran = "an update after the refusal shows a terminal"
	case len(u.DiffPaths()) > 0:
		r.ran = "an update after the refusal shows a diff"
	case changed:
		r.ran = "the call asked for something else after the refusal"
	}
}

// ranRefusedLocked reports whether update u, of call c, reports running
// or completed a call whose permission was refused (by the person or by
// the bridge) and that no later answer approved. x.mu held.
func ranRefusedLocked(c *callState, u *acpparams.ToolCall) bool {
	return (c.denied || c.refusal != nil) && c.approval == "" && !c.blocked && c.decision != nil &&
		(u.Status == "in_progress" || u.Status == "completed")
}

// refusedUnrun returns c's refusal when the call, ending with update u,
// was refused and nothing shows it ran; otherwise nil and, when it was
// refused, what shows it ran.
func (x *Enforcer) refusedUnrun(c *callState, u *acpparams.ToolCall) (*refusal, string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	r := c.refusal
	if r == nil {
		return nil, ""
	}
	noteRanLocked(c, u, false)
	if r.ran == "" && u.Status != "failed" {
		r.ran = "the agent reported it " + u.Status
	}
	if s := x.sessions[c.session]; r.ran == "" && (s == nil || s.carried != r.carried) {
		r.ran = "the bridge let a file write or a terminal through in the session after the refusal"
	}
	if r.ran != "" {
		return nil, r.ran
	}
	return r, ""
}

// carrying wraps next, the handler an agent's fs/write_text_file or
// terminal/create of session sid goes on to the IDE by: passing it on
// counts it in the session, so a call refused before it does not count
// as refused and not run.
func (x *Enforcer) carrying(sid string, next acpwire.Handler) acpwire.Handler {
	return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
		x.mu.Lock()
		if s := x.sessions[sid]; s != nil {
			s.carried++
		}
		x.mu.Unlock()
		return next.Handle(ctx, m)
	})
}

// recordRefused records that call c, which the policy wants approved,
// was refused and that the agent reports it failed with nothing showing
// it ran: the facts, not a violation. Its reason (the views' DETAIL) says
// so; the policy's reason for asking is kept as policyReason.
func (x *Enforcer) recordRefused(c *callState, r *refusal, d Decision, subject audit.Subject, input, toolCall any) {
	why := "refused by " + r.by
	if r.seq >= 0 {
		why += fmt.Sprintf(" (approval.recorded seq %d)", r.seq)
	}
	md := decisionMeta(d, c.session, map[string]any{"toolCall": toolCall, "refusal": r.meta(), "policyReason": d.Reason,
		"reason": why + "; the agent reports the tool did not run, and the bridge carried nothing for it since"})
	x.append(audit.Event{Actor: x.agent, Action: "tool.refused", Subject: subject, Input: input, Policy: policyOf(d), Metadata: md})
}
