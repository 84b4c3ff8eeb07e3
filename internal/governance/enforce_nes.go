package governance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Next edit suggestions (NES, ACP's unstable nes/* and document/*
// methods) run the other way round from the agent's requests the bridge
// judges: an agent whose initialize answer asks for them
// (agentCapabilities.nes) is told by the IDE of every document the person
// opens, edits, saves or focuses, with its full text (document/didOpen,
// didChange), is sent the text of recent and open files with each
// nes/suggest the IDE asks, and answers with edits, renames and
// replacements the IDE applies to the files they name when the person
// accepts one with a keystroke. A .env the policy refuses the agent would
// reach it because the person opened it, and a suggested edit of the
// policy would be applied by the person's Tab. None of it is a request of
// the agent's a rule decides, so the bridge carries no NES: the agent's
// "nes" capability reaches the IDE as null (recorded, rule nes-not-carried),
// and an IDE's nes/* request is answered with an error and its nes/* and
// document/* notifications are dropped, each recorded as refused.

// nesRule is the rule NES is refused under.
const nesRule = "next edit suggestions hand the agent documents and apply its edits without a request the policy decides"

// nesDecision is the decision refusing NES, saying why in reason.
func nesDecision(reason string) Decision {
	return Decision{Value: Deny, Ref: "nes-not-carried", Rule: nesRule, Reason: reason}
}

// isNESMethod reports whether method is one of next edit suggestions'
// IDE-to-agent methods (nes/start, nes/suggest, nes/accept, ...,
// document/didOpen, document/didChange, ...), matched case-exactly as the
// SDKs dispatch them.
func isNESMethod(method string) bool {
	return strings.HasPrefix(method, "nes/") || strings.HasPrefix(method, "document/")
}

// refuseNESMessage refuses m, an IDE's nes/* or document/* request or
// notification: a request is answered with an error, a notification is
// dropped, and both are recorded.
func (x *Enforcer) refuseNESMessage(m *acpwire.Message) error {
	d := nesDecision(fmt.Sprintf("the IDE's %s was not passed to the agent: acp-bridge does not carry next edit suggestions", m.Method))
	sum := sha256.Sum256(m.Raw)
	ev := audit.Event{Actor: actorUser, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw), "sha256": hex.EncodeToString(sum[:])},
		Policy: policyOf(d), Metadata: decisionMeta(d, "", nil)}
	if err := x.record(ev); err != nil {
		x.log.Error("refusal could not be recorded; refusing anyway", "method", m.Method, "err", err)
	}
	if m.Kind != acpwire.KindRequest {
		return nil
	}
	return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeMethodNotFound, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
}

// withoutNES returns m, the agent's answer to initialize, with every
// member of result.agentCapabilities named "nes" in any case (a Go IDE's
// encoding/json reads "Nes" as it) set to null, recording the removal;
// m itself when it asks for no NES.
func (x *Enforcer) withoutNES(m *acpwire.Message) (*acpwire.Message, error) {
	caps, ok := m.Get("result", "agentCapabilities")
	if !ok || m.Error != nil {
		return m, nil
	}
	members, err := rawjson.Members(caps)
	if err != nil {
		return m, nil // no object: no capability an IDE reads
	}
	out := m
	for _, mem := range members {
		if !strings.EqualFold(mem.Key, "nes") || bytes.Equal(bytes.TrimSpace(mem.Value), []byte("null")) {
			continue
		}
		if out, err = out.Patch([]byte("null"), "result", "agentCapabilities", mem.Key); err != nil {
			return nil, fmt.Errorf("governance: taking next edit suggestions out of the agent's capabilities: %w", err)
		}
		d := nesDecision("the agent asked the IDE for next edit suggestions, which acp-bridge does not carry: the IDE is told it has none")
		ev := audit.Event{Actor: x.agent, Action: "agent.capability", Subject: audit.Subject{Kind: "capability", Ref: "agentCapabilities." + mem.Key},
			Input: map[string]any{"capability": rawOrNil(mem.Value)}, Policy: policyOf(d), Metadata: decisionMeta(d, "", map[string]any{"removed": true})}
		if err := x.record(ev); err != nil {
			x.log.Warn("cannot record the removal of the agent's next edit suggestions", "err", err)
		}
		x.log.Warn("the agent's next edit suggestions capability was taken out of its initialize answer", "member", mem.Key)
	}
	return out, nil
}

// onInitializedAnswer handles the agent's answer to initialize m before
// the IDE sees it: it takes next edit suggestions out (withoutNES), then
// judges the login methods (onInitialized).
func (x *Enforcer) onInitializedAnswer(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	out, err := x.withoutNES(m)
	if err != nil {
		return x.send.ReplyError(m.Request, acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: the agent's capabilities could not be judged: %v", err))
	}
	return x.onInitialized(ctx, out, next)
}
