package governance

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// An agent's elicitation/create asks the person, through the IDE, for
// input: a form, or (mode "url") a page the IDE directs the person to. The
// person's browser fetches that URL, which may carry what the agent knows
// to a host the policy refuses to fetch from, and a URL of another scheme
// (file:, javascript:, an IDE's own zed: or vscode:) opens a local file or
// runs an action of the IDE rather than a page. Every elicitation is
// recorded; one with a URL is decided as fetching it, a scheme other than
// http and https is refused, and a deny refuses the request. The person
// is asked by the IDE itself before it opens a URL, so a decision that
// needs approval lets the request through.

type elicitationParams struct {
	SessionID     string `json:"sessionId"`
	ToolCallID    string `json:"toolCallId"`
	Mode          string `json:"mode"`
	Message       string `json:"message"`
	URL           string `json:"url"`
	ElicitationID string `json:"elicitationId"`
}

func (x *Enforcer) onElicitation(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p elicitationParams
	if err := decodeStrict(m, &p); err != nil {
		return x.refuseUnreadable(m, err)
	}
	input := map[string]any{"mode": p.Mode, "message": p.Message}
	if p.ToolCallID != "" {
		input["toolCallId"] = p.ToolCallID
	}
	d := Decision{Value: Allow, Ref: "default", Rule: "elicitations without a URL are the person's to answer", Reason: "a form the person answers in the IDE"}
	_, hasURL := m.Get("params", "url")
	if hasURL || p.Mode == "url" {
		input["url"] = p.URL
		d = x.decideElicitedURL(p)
	}
	subj := audit.Subject{Kind: "elicitation", Ref: p.ElicitationID, Path: p.URL}
	ev := audit.Event{Actor: x.agent, Action: "elicitation.create", Subject: subj, Input: input, Policy: policyOf(d), Metadata: decisionMeta(d, p.SessionID, nil)}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	if d.Value == Deny {
		x.tell(p.SessionID, fmt.Sprintf("acp-bridge blocked the agent's request to direct you to a page: %s (rule: %s).", d.Reason, d.Rule))
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge policy: %s", d.Reason).WithData(denialData(d)))
	}
	return next.Handle(ctx, m)
}

// decideElicitedURL decides the URL of a url-mode elicitation as fetching
// it, after its scheme: only http and https name a page.
func (x *Enforcer) decideElicitedURL(p elicitationParams) Decision {
	u, err := url.Parse(p.URL)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
		return Decision{Value: Deny, Ref: "elicitation-url", Rule: "deny elicitations directing the person to anything but an http or https page (built-in)",
			Reason: fmt.Sprintf("the IDE would direct the person to %q, which is not an http or https page: it may open a local file or run an action of the IDE", p.URL)}
	}
	cwd, roots := x.sessionContext(p.SessionID)
	return x.decide(Request{Action: ActionToolCall, Kind: "fetch", URL: p.URL, Cwd: cwd, Roots: roots, Session: p.SessionID})
}
