package governance

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// The agent speaks to the IDE only in the name of a session the IDE
// opened: one whose id a session/new or session/fork response carried, or
// that the IDE itself named in session/load or session/resume, and that it
// has not closed or deleted since. Governance is outermost toward the IDE,
// so the ids it sees are the IDE's. A session/load names its id before the
// agent replays a single update, and a session/new response passes here
// before the agent's first update for it (one direction is one ordered
// stream), so a well-behaved agent is never refused.

// sessionScoped lists the agent-to-IDE methods that act in a session.
var sessionScoped = map[string]bool{
	"session/update": true, "session/request_permission": true,
	"fs/read_text_file": true, "fs/write_text_file": true,
	"terminal/create": true, "terminal/output": true, "terminal/wait_for_exit": true,
	"terminal/kill": true, "terminal/release": true,
}

// isSessionScoped reports sessionScoped[method], asking the map only for
// methods other than session/update, which nearly every message the agent
// sends has, and which both checks below ask about.
func isSessionScoped(method string) bool {
	return method == "session/update" || sessionScoped[method]
}

// checkOpened refuses m, an agent-to-IDE request or notification of a
// session-scoped method, unless its sessionId names a session the IDE
// opened; it reports whether it refused.
func (x *Enforcer) checkOpened(m *acpwire.Message) (bool, error) {
	if m.Dir != acpwire.AgentToClient || !isSessionScoped(m.Method) ||
		(m.Kind != acpwire.KindRequest && m.Kind != acpwire.KindNotification) {
		return false, nil
	}
	// The wire layer refuses every message of a session-scoped method
	// whose names repeat (a text chunk is one fixed form with a single
	// sessionId), so the first sessionId in params is the only one; the
	// lookup stops there instead of reading a tool's whole output.
	// TestSessionScopedDuplicatesRefusedByWire holds the wire to that.
	v, ok := rawjson.FirstMember(m.Params, "sessionId")
	if ok && x.openedPlain(v) {
		return false, nil
	}
	var sid string
	if ok {
		sid, ok = rawjson.String(v)
	}
	if !ok {
		return true, x.refuseUnopened(m, "it carries no sessionId string")
	}
	if why := x.unopened(sid); why != "" {
		return true, x.refuseUnopened(m, why)
	}
	return false, nil
}

// checkNamedSession refuses m, an agent-to-IDE request or notification of
// a method outside sessionScoped (elicitation/create, an extension method,
// one ACP adds later), when its params name a session the IDE did not open:
// the IDE may act on any method in the session it names. Such methods are
// not read strictly by the wire layer, so every sessionId member counts,
// and so does every member whose name differs from it only in case: a Go
// client (encoding/json matches names case-insensitively, with Unicode
// folding, the last match winning) reads "SessionId" as the session. A
// message whose params name no session passes.
func (x *Enforcer) checkNamedSession(m *acpwire.Message) (bool, error) {
	if m.Dir != acpwire.AgentToClient || isSessionScoped(m.Method) || len(m.Params) == 0 ||
		(m.Kind != acpwire.KindRequest && m.Kind != acpwire.KindNotification) {
		return false, nil
	}
	members, err := rawjson.Members(m.Params)
	if err != nil {
		return false, nil // params that are not an object name no session
	}
	for _, mem := range members {
		if mem.Key != "sessionId" && !strings.EqualFold(mem.Key, "sessionId") {
			continue
		}
		sid, ok := rawjson.String(mem.Value)
		if !ok {
			return true, x.refuseUnopened(m, "its sessionId is not a string")
		}
		if why := x.unopened(sid); why != "" {
			return true, x.refuseUnopened(m, why)
		}
	}
	return false, nil
}

// openedPlain reports whether v, a JSON value, is a string of printable
// ASCII without escapes (which reads as its bytes between the quotes)
// naming a session the IDE opened: what checkOpened finds of nearly every
// message, decided without making a string of it. Any other value takes
// the general path (rawjson.String, unopened).
func (x *Enforcer) openedPlain(v []byte) bool {
	if len(v) < 3 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	id := v[1 : len(v)-1]
	for _, c := range id {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	x.mu.Lock()
	open := x.opened.at[string(id)] != nil
	x.mu.Unlock()
	return open
}

// Opened reports whether sid names a session the IDE opened (session/new,
// fork, load, resume) and has not closed: one the agent may act in. It is
// safe for concurrent use.
func (x *Enforcer) Opened(sid string) bool { return x.unopened(sid) == "" }

// unopened says why the session sid names is not one the agent may act
// in (empty, or not opened by the IDE), or returns "" when it is.
func (x *Enforcer) unopened(sid string) string {
	if sid == "" {
		return "its sessionId is empty"
	}
	x.mu.Lock()
	open := x.opened.has(sid)
	x.mu.Unlock()
	if open {
		return ""
	}
	return fmt.Sprintf("its sessionId %q names no session the IDE opened", sid)
}

// refuseUnopened records m as refused by the session-scope rule for why,
// and answers it with -32600 when it is a request.
func (x *Enforcer) refuseUnopened(m *acpwire.Message, why string) error {
	d := Decision{Value: Deny, Ref: "session-scope", Rule: "the agent acts only in sessions the IDE opened (session/new, fork, load, resume) and has not closed",
		Reason: fmt.Sprintf("a %s from the agent was refused: %s", m.Method, why)}
	sum := sha256.Sum256(m.Raw)
	ev := audit.Event{Actor: x.agent, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw), "sha256": hex.EncodeToString(sum[:])},
		Policy: policyOf(d), Metadata: decisionMeta(d, "", nil)}
	if err := x.record(ev); err != nil {
		x.log.Error("refusal could not be recorded; refusing anyway", "method", m.Method, "err", err)
	}
	if m.Kind == acpwire.KindRequest {
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	return nil
}
