package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

type clientCallParams struct {
	SessionID string   `json:"sessionId"`
	Path      string   `json:"path"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	Env       []EnvVar `json:"env"`
	Cwd       string   `json:"cwd"`
	Line      *int     `json:"line"`
	Limit     *int     `json:"limit"`
}

func (x *Enforcer) onClientCall(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p clientCallParams
	if err := decodeStrict(m, &p); err != nil {
		return x.refuseUnreadable(m, err)
	}
	cwd, roots := x.sessionContext(p.SessionID)
	req := Request{Cwd: cwd, Roots: roots, Session: p.SessionID}
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
		input["path"], input["content"] = p.Path, json.RawMessage(bytes.Clone(content))
	default:
		action, subjKind = ActionTerminalCreate, "terminal"
		req.Command = shellJoin(append([]string{p.Command}, p.Args...))
		if len(p.Args) == 0 {
			req.Command = p.Command // a whole command line
		}
		req.Argv, req.Env = append([]string{p.Command}, p.Args...), p.Env
		if len(p.Env) > 0 {
			input["env"] = p.Env
		}
		if p.Cwd != "" {
			req.Cwd = p.Cwd
			req.Paths = []string{p.Cwd} // where it runs is a path it reaches
		}
		req.NoCwd = p.Cwd == ""
		what = "running " + req.Command
		input["command"], input["args"], input["cwd"] = p.Command, p.Args, p.Cwd
	}
	req.Action = action
	if action != ActionFSRead {
		next = x.carrying(p.SessionID, next)
	}
	id := string(bytes.TrimSpace(m.ID))
	if action == ActionFSWrite {
		// Kept from now on: a line running or reading the file, decided
		// while this write waits for approval or for the IDE, is refused
		// (inflight.go).
		content, _ := m.GetString("params", "content")
		fwd, done, ok := x.flightStart(m, false, flightTerm{}, flightWritePath(p.Path, cwd), content, describeWrite(id, p.Path), next)
		defer done()
		if !ok {
			return x.refuseFlight(m, p.SessionID, false)
		}
		next = fwd
	}
	d := x.decide(req)
	if action == ActionTerminalCreate && d.Value != Deny {
		term := flightTerm{what: fmt.Sprintf("the terminal/create request %s running %q", id, req.Command)}
		term.writes, term.anyFile = lineWrites(req)
		fwd, done, ok := x.flightStart(m, true, term, "", "", "", next)
		defer done()
		if !ok {
			return x.refuseFlight(m, p.SessionID, true)
		}
		next = fwd
	}
	if action == ActionFSWrite {
		// Text the IDE writes may import files into the model's
		// context when the agent loads it as instructions (WithImports).
		content, _ := m.GetString("params", "content")
		d = WithImports(x.decide, d, req, p.Path, content)
	}
	if action != ActionFSRead {
		if err := x.auditDown(); err != nil {
			d = auditDenied(err)
		}
	}
	subj := audit.Subject{Kind: subjKind, Path: p.Path}
	if action == ActionTerminalCreate {
		subj.Ref, subj.Path = req.Command, req.Cwd
	}
	md := decisionMeta(d, p.SessionID, nil)
	var cover *approvalCover
	// A terminal is covered only as a whole command line with no
	// environment of its own: the person approved the command they saw,
	// and clients join argv in their own ways.
	coverable := action != ActionTerminalCreate || len(p.Args) == 0 && len(p.Env) == 0
	if d.Value.NeedsApproval() && coverable {
		if cover = x.approvalCovering(p.SessionID, action, p.Path, req.Command, req.Cwd); cover != nil {
			md["approvedBy"] = cover.meta()
		}
	}
	ev := audit.Event{Actor: x.agent, Action: action, Subject: subj, Input: input, Policy: policyOf(d), Metadata: md}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	if d.Value.NeedsApproval() && cover != nil {
		// The person approved the tool call this request carries out, on
		// this very path or command: one approval per action.
		return next.Handle(ctx, m)
	}
	if d.Value.NeedsApproval() {
		title := clientAskTitle(m.Method, p, cwd, slices.Concat(x.roots(), roots), d.Value)
		return x.passIfApproved(ctx, m, next, approvalAsk{session: p.SessionID, action: action, what: what, title: title, d: d, input: input, subj: subj})
	}
	if d.Value == Deny {
		x.tell(p.SessionID, fmt.Sprintf("acp-bridge blocked %s: %s (rule: %s).", what, d.Reason, d.Rule))
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge policy: %s", d.Reason).WithData(denialData(d)))
	}
	return next.Handle(ctx, m)
}

// approvalAsk is what the bridge asks the person about a request of the
// agent's that needs approval: the request's session and action, the
// words naming it, the title the person is shown (optional; if empty,
// the words naming it and the decision), the decision and the audit
// record's input and subject.
type approvalAsk struct {
	session, action, what, title string
	d                            Decision
	input                        map[string]any
	subj                         audit.Subject
}

// passIfApproved asks the person about m (see ask), records the answer,
// and passes m on when approved; otherwise m is answered with an error
// saying why (cancelled, not approved, or not asked).
func (x *Enforcer) passIfApproved(ctx context.Context, m *acpwire.Message, next acpwire.Handler, a approvalAsk) error {
	title := a.title
	if title == "" {
		title = fmt.Sprintf("%s%s (policy: %s)", a.what, shownArguments(a.input), a.d.Value)
	}
	ok, who, err := x.ask(ctx, m, a.session, a.action, title, a.d, a.input)
	ans := map[string]any{"approved": ok, "approver": who}
	if err != nil {
		ans["error"] = err.Error()
	}
	if rerr := x.record(audit.Event{Actor: actorUser, Action: "approval.recorded", Subject: a.subj, Output: ans,
		Policy: policyOf(a.d), Metadata: decisionMeta(a.d, a.session, map[string]any{"stage": a.action, "shownTitle": title})}); rerr != nil {
		ok = false
	}
	if ok {
		return next.Handle(ctx, m)
	}
	if errors.Is(err, errRequestCancelled) {
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeRequestCancelled, "acp-bridge: %s: %v", a.what, err))
	}
	reason := "the person did not approve it"
	if err != nil {
		reason = fmt.Sprintf("approval could not be asked: %v", err)
	}
	d := Decision{Value: Deny, Ref: a.d.Ref, Rule: a.d.Rule, Reason: a.what + ": " + reason}
	return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
}

func denialData(d Decision) map[string]any {
	return map[string]any{"decision": string(d.Value), "rule": d.Rule, "ref": d.Ref}
}

// shownArguments returns " with `ARGS`", the arguments of an MCP tool
// call the bridge asks about (input["arguments"]) as compact JSON in a
// code span, or "" when input holds none. The bridge's question is of kind
// "other", whose rawInput Zed keeps behind a closed "View Raw Input", so
// the title is all the person reads: without the arguments, approving
// "the MCP tool mcp__ide__write_file" approved whichever file the call
// named.
func shownArguments(input map[string]any) string {
	var raw []byte
	switch v := input["arguments"].(type) {
	case jsontext.Value:
		raw = v
	case json.RawMessage:
		raw = v
	default:
		return ""
	}
	var b bytes.Buffer
	if len(raw) == 0 || json.Compact(&b, raw) != nil {
		return ""
	}
	return " with " + commandTitle(b.String())
}

// ask puts a permission request of the bridge's own to the IDE and waits
// for the person's answer (or session/cancel).
// Causes of an approval the bridge stops waiting for.
var (
	errSessionCancelled = errors.New("the session's turn was cancelled")
	errRequestCancelled = errors.New("the agent cancelled its request")
)

// Preempt hears session/cancel and $/cancel_request as soon as the bridge
// reads them (Bridge.Use registers it, the Enforcer being an acpwire.Preempter): an approval the bridge is
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

func (x *Enforcer) ask(ctx context.Context, req *acpwire.Message, sid, action, title string, d Decision, input map[string]any) (bool, string, error) {
	if sid == "" {
		return false, "", errors.New("no session to ask in")
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	reqKey := "request:" + string(bytes.TrimSpace(req.ID))
	x.mu.Lock()
	x.askSeq++
	id := fmt.Sprintf("acp-bridge-approval-%s-%d", approvalNonce, x.askSeq)
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
	case ActionToolCall:
		kind = "other"
	}
	params := map[string]any{
		"sessionId": sid,
		"toolCall": map[string]any{"toolCallId": id, "title": title,
			"kind": kind, "status": "pending", "rawInput": input},
		"options": []acpparams.PermissionOption{{OptionID: "allow", Name: "Allow once", Kind: "allow_once"}, {OptionID: "reject", Name: "Reject", Kind: "reject_once"}},
	}
	x.transition(sid, "suspended", "waiting for approval of "+title)
	defer x.transition(sid, "running", "approval answered")
	res, err := x.send.Call(ctx, acpwire.AgentToClient, "session/request_permission", params)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			return false, "", cause
		}
		return false, "", err
	}
	var out acpparams.PermissionResponse
	if err := unmarshalStrict(res, &out); err != nil {
		return false, "", fmt.Errorf("unreadable permission response: %v", err)
	}
	if out.Outcome.Outcome == "selected" && out.Outcome.OptionID == "allow" {
		return true, actorUser.ID + " (allow_once allow)", nil
	}
	return false, actorUser.ID + " (" + out.Outcome.Outcome + " " + out.Outcome.OptionID + ")", nil
}

// approvalCover names the person's approval of a tool call that covers a
// client request.
type approvalCover struct {
	toolCallID, permissionRequest, approval string
}

func (a *approvalCover) meta() map[string]any {
	return map[string]any{"toolCallId": a.toolCallID, "permissionRequest": a.permissionRequest, "approval": a.approval}
}

// approvalCovering returns the approval a person gave for a tool call of
// session sid that covers a client request for action on path, or
// running command in cwd: the call is still going on (approved, not
// ended, not stopped), and the request is on a path that call was judged
// on (fs/*: a write only for a call that edits) or runs the command that
// call was judged on, in the same directory (terminal/create). Nil when
// no approval covers it.
func (x *Enforcer) approvalCovering(sid, action, path, command, cwd string) *approvalCover {
	if sid == "" {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range x.calls {
		if c.session != sid || c.approvedBy == "" || c.approval == "" || c.approval == "auto" ||
			c.ended() || c.blocked || c.denied || c.covers == nil {
			continue
		}
		if c.covers.allows(action, path, command, cwd) {
			return &approvalCover{toolCallID: c.id, permissionRequest: c.approvedBy, approval: c.approval}
		}
	}
	return nil
}
