package governance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The bridge judges a message by what it says, and the IDE acts on what
// it reads: the two must read the same bytes the same way. JSON readers
// disagree about exactly three things: whether "PATH" is "path" (Go's
// encoding/json says yes; JavaScript and serde say no), which of two
// members with one name counts (the last in JavaScript, an error in
// serde), and what invalid UTF-8 in a string means. Every judged message
// is therefore read case-exactly, and one with a duplicate name or
// invalid UTF-8 anywhere in it is refused rather than guessed at.

// errUnreadable is the cause of every strict reading failure.
var errUnreadable = errors.New("the message can be read more than one way")

// checkStrict reports whether raw, a whole message, is one JSON value
// with no duplicate member names (after unescaping) in any object and only
// valid UTF-8 in its strings, that every common JSON reader reads
// (rawjson.Portable: Zed's serde_json drops a message nested past its
// limit or holding a number past a double's range, which Go and
// JavaScript read).
func checkStrict(raw []byte) error {
	if jsontext.Value(raw).IsValid() {
		if err := rawjson.Portable(raw); err != nil {
			return fmt.Errorf("%w: %v", errUnreadable, err)
		}
		return nil
	}
	// Only a failing message pays for the decoder that says why.
	err := jsontext.NewDecoder(bytes.NewReader(raw)).SkipValue()
	if err == nil {
		err = errors.New("trailing data")
	}
	return fmt.Errorf("%w: %v", errUnreadable, err)
}

// strictlyRead returns why m, a message governance judges, cannot be read
// strictly, or nil. Each judged message is read strictly once: by the wire
// layer, before any middleware saw it (m.CheckedStrictly: the methods of
// acpwire.DefaultStrictMethods and DefaultStrictResponses, unless the
// bridge was told otherwise), or else here.
func strictlyRead(m *acpwire.Message) error {
	if m.CheckedStrictly() {
		return nil
	}
	return checkStrict(m.Raw)
}

// decodeStrict reads the whole message m strictly (strictlyRead) and
// decodes its params into v with case-exact member names, as the IDE reads
// them.
func decodeStrict(m *acpwire.Message, v any) error {
	if err := strictlyRead(m); err != nil {
		return err
	}
	if len(bytes.TrimSpace(m.Params)) == 0 {
		return fmt.Errorf("%w: no params", errUnreadable)
	}
	if err := json.Unmarshal(m.Params, v); err != nil {
		return fmt.Errorf("%w: %v", errUnreadable, err)
	}
	return nil
}

// unmarshalStrict decodes a judged value (a tool's input, _meta) with
// case-exact names, refusing duplicates and invalid UTF-8.
func unmarshalStrict(raw []byte, v any) error { return json.Unmarshal(raw, v) }

// refuseUnreadable refuses a judged message the bridge cannot read the way
// the IDE would: a request is answered -32600 with the reason and never
// reaches the other peer; a notification is dropped, and a session/update
// also stops the turn, as a denied tool call does. The refusal is recorded
// and the user is told.
func (x *Enforcer) refuseUnreadable(m *acpwire.Message, why error) error {
	sid, _ := m.GetString("params", "sessionId") // only to say so in the right session
	sum := sha256.Sum256(m.Raw)
	actor := x.agent
	if m.Dir == acpwire.ClientToAgent {
		actor = actorUser
	}
	d := Decision{Value: Deny, Ref: "strict-json", Rule: "judged messages are read as the IDE reads them: exact-case names, no duplicate names, valid UTF-8, within every reader's limits",
		Reason: fmt.Sprintf("a %s message could be read more than one way (%v)", m.Method, unwrapUnreadable(why))}
	ev := audit.Event{Actor: actor, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw), "sha256": hex.EncodeToString(sum[:])},
		Policy: policyOf(d), Metadata: decisionMeta(d, sid, nil)}
	if err := x.record(ev); err != nil {
		x.log.Error("refusal could not be recorded; refusing anyway", "method", m.Method, "err", err)
	}
	if m.Dir == acpwire.AgentToClient {
		x.tell(sid, fmt.Sprintf("acp-bridge refused a %s message from the agent: %s, so the IDE and the bridge might not agree on what it asks.",
			m.Method, d.Reason))
	}
	switch m.Kind {
	case acpwire.KindRequest:
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	case acpwire.KindNotification:
		if m.Method == "session/update" && sid != "" {
			if err := x.send.Notify(acpwire.ClientToAgent, "session/cancel", map[string]any{"sessionId": sid}); err != nil {
				x.log.Warn("cancelling the turn after an unreadable update", "err", err)
			}
			x.transition(sid, "interrupted", "unreadable session/update")
		}
	}
	return nil
}

// unwrapUnreadable drops the errUnreadable prefix for the user's message.
func unwrapUnreadable(err error) string {
	s := err.Error()
	if p := errUnreadable.Error() + ": "; len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// Refused records a message the wire layer refused before any middleware
// saw it (register it as acpwire.Options.OnRefused): a line some peer
// could read differently from the bridge, or not as JSON-RPC at all. The
// wire layer has already answered or dropped it; this is its audit record.
// It does not wait for the record to reach the disk. An agent's message in
// a session the IDE opened is also told to the person there.
func (x *Enforcer) Refused(r acpwire.Refusal) {
	m := r.Msg
	if m == nil {
		return
	}
	sid, _ := m.GetString("params", "sessionId")
	sum := sha256.Sum256(m.Raw)
	actor := x.agent
	if m.Dir == acpwire.ClientToAgent {
		actor = actorUser
	}
	d := Decision{Value: Deny, Ref: "wire-refused", Rule: "messages are forwarded only when every peer reads them alike", Reason: r.Reason}
	input := map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw),
		"sha256": hex.EncodeToString(sum[:]), "answered": r.Answered}
	if r.Size > 0 {
		// Over the size limit: the bridge kept none of its bytes.
		input["size"] = r.Size
		delete(input, "sha256")
	}
	x.append(audit.Event{Actor: actor, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  input,
		Policy: policyOf(d), Metadata: decisionMeta(d, sid, map[string]any{"stage": "wire"})})
	if r.Answered && m.Request != nil && m.Dir == acpwire.AgentToClient {
		x.answeredInPlace(m.Request)
	}
	if m.Dir == acpwire.AgentToClient {
		params := m.Params
		if len(params) == 0 {
			params, _ = m.Get("params")
		}
		x.onUnreadableModeUpdate(params)
	}
	if m.Dir != acpwire.AgentToClient || sid == "" || !mayCarryToolCall(m.Raw) {
		return
	}
	// The refused line may have reported a tool call the agent already ran
	// (a session/update read one way by the bridge and another by the
	// IDE): the person hears of it in the session, if the IDE opened it.
	x.mu.Lock()
	open := x.opened.has(sid)
	x.mu.Unlock()
	if open {
		what := m.Method
		if what == "" {
			what = "unreadable"
		}
		x.tell(sid, fmt.Sprintf("acp-bridge refused a %s message from the agent: %s. If it reported a tool call, the agent may already have run it.",
			what, r.Reason))
	}
}

// answeredInPlace hears of the IDE's request req, which the bridge
// answered with an error in the agent's place (it refused the agent's
// answer): the IDE reads req as failed, and so does the bridge. A turn is
// over, and a session the IDE loaded, resumed, opened or forked is not
// open, so the agent reaches the IDE in its name no more than in any
// other session's; a mode the IDE asked for is not the person's when the
// agent shows it later.
func (x *Enforcer) answeredInPlace(req *acpwire.Message) {
	switch req.Method {
	case "session/prompt":
		x.endTurn(req, true, "")
	case "session/new", "session/load", "session/resume", "session/fork":
		x.settleOpen(req, true, "", nil)
	case "session/set_mode", "session/set_config_option":
		// Not the agent's mode: a later update to it is the agent's
		// own change, not the person's (setModeBy).
		x.mu.Lock()
		delete(x.setModes, string(bytes.TrimSpace(req.ID)))
		x.mu.Unlock()
	}
}

// mayCarryToolCall reports whether some reading of a refused line could
// report or ask about a tool call: it names session/update,
// session/request_permission or a tool call variant, in any case.
func mayCarryToolCall(raw []byte) bool {
	l := bytes.ToLower(raw)
	for _, s := range []string{"session/update", "session/request_permission", "tool_call", "toolcall"} {
		if bytes.Contains(l, []byte(s)) {
			return true
		}
	}
	return false
}
