package governance

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// The agent chooses the id of a session the IDE opens with session/new or
// session/fork. An id the IDE already has open (another thread, maybe in
// another project) would make the two one session here: the later
// session's directories would replace the earlier's roots, and the audit
// log would hold both threads' prompts and calls under one id, with
// nothing to tell them apart. Such an answer is refused: the IDE gets an
// error in the agent's place, and the session it asked for is not opened.

// takenRule is the rule a refused session id is recorded under.
const takenRule = "a session the agent opens has an id no open session uses"

// refuseTakenSession refuses m, the agent's answer to the IDE's
// session/new or session/fork, when the session id it names is one the IDE
// already has open; it reports whether it refused.
func (x *Enforcer) refuseTakenSession(ctx context.Context, m *acpwire.Message, next acpwire.Handler) (bool, error) {
	if m.Dir != acpwire.AgentToClient || m.Error != nil || m.Request == nil ||
		!(m.IsResponseTo("session/new") || m.IsResponseTo("session/fork")) {
		return false, nil
	}
	rid, _ := m.GetString("result", "sessionId")
	if rid == "" {
		return false, nil
	}
	x.mu.Lock()
	taken := x.opened.has(rid)
	x.mu.Unlock()
	if !taken {
		return false, nil
	}
	d := Decision{Value: Deny, Ref: "session-id-taken", Rule: takenRule,
		Reason: fmt.Sprintf("the agent answered %s with session %q, which a session the IDE opened already uses", m.Request.Method, rid)}
	// Recorded with no session: the refused one never opened, and the
	// open one did nothing.
	ev := audit.Event{Actor: x.agent, Action: "session.refused", Subject: audit.Subject{Kind: "session", Ref: rid},
		Input: map[string]any{"method": m.Request.Method}, Policy: policyOf(d),
		Metadata: decisionMeta(d, "", map[string]any{"sessionId": rid})}
	if err := x.record(ev); err != nil {
		x.log.Warn("cannot record a session refused for its id", "err", err)
	}
	x.log.Warn("refused a session the agent opened under the id of one already open", "session", rid, "method", m.Request.Method)
	x.settleOpen(m.Request, true, "", nil)
	e := acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: the agent answered %s with session %q, which another open session already uses; the session was not opened",
		m.Request.Method, rid)
	raw, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *acpwire.Error  `json:"error"`
	}{"2.0", m.ID, e})
	if err != nil {
		return true, fmt.Errorf("governance: refusing session %q: %w", rid, err)
	}
	out, err := m.WithRaw(raw)
	if err != nil {
		return true, fmt.Errorf("governance: refusing session %q: %w", rid, err)
	}
	return true, next.Handle(ctx, out)
}
