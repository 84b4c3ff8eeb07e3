package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// The bridge reads ACP protocol version 1: its methods, and the members it
// judges in them. The IDE asks for a version in initialize and the agent
// answers with the one the two speak from then on, and a later version
// reads the same methods by another schema: version 2 (the TypeScript
// SDK's experimental v2 API) shows a permission request by a title and a
// subject of its own and drops its toolCall, so the person would answer a
// question the bridge never read, under the title the agent chose, while
// the bridge judged, retitled and recorded the toolCall. So the IDE's
// request for a later version asks the agent for version 1 (an IDE that
// speaks 1 too goes on in it; one that does not closes the connection, as
// ACP says it does when the agent answers a version it lacks), and an
// answer naming any version but 1 is refused: the IDE gets an error in the
// agent's place.

// protocolVersion is the ACP protocol version whose messages the bridge
// reads.
const protocolVersion = 1

// protocolRule is the rule a refused protocol version is recorded under.
const protocolRule = "the IDE and the agent speak the ACP protocol version the bridge reads (1)"

// onInitialize takes in the IDE's initialize request m before the agent
// sees it: it notes the IDE's capabilities, and a request for a protocol
// version later than the bridge's asks for the bridge's instead.
func (x *Enforcer) onInitialize(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	x.noteClientCapabilities(m)
	raw, ok := m.Get("params", "protocolVersion")
	if !ok {
		return next.Handle(ctx, m)
	}
	v, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil || v <= protocolVersion {
		// An earlier version, or none the agent can read: the agent
		// answers with its own, which onInitialized holds to 1.
		return next.Handle(ctx, m)
	}
	out, err := m.Patch([]byte(strconv.Itoa(protocolVersion)), "params", "protocolVersion")
	if err != nil {
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: the IDE's protocol version %s could not be set to %d: %v",
			bytes.TrimSpace(raw), protocolVersion, err))
	}
	x.log.Info("the IDE asked for a later ACP protocol version than the bridge reads; the agent is asked for the bridge's",
		"asked", string(bytes.TrimSpace(raw)), "version", protocolVersion)
	return next.Handle(ctx, out)
}

// refuseProtocolVersion refuses m, the agent's answer to the IDE's
// initialize, when it names a protocol version other than the bridge's;
// it reports whether it refused. An answer without a version, or an
// error, passes: no IDE takes either for a version it speaks.
func (x *Enforcer) refuseProtocolVersion(ctx context.Context, m *acpwire.Message, next acpwire.Handler) (bool, error) {
	if m.Error != nil || m.Request == nil {
		return false, nil
	}
	raw, ok := m.Get("result", "protocolVersion")
	if !ok || readsAsVersion(raw, protocolVersion) {
		return false, nil
	}
	shown := string(bytes.TrimSpace(raw))
	d := Decision{Value: Deny, Ref: "protocol-version", Rule: protocolRule,
		Reason: fmt.Sprintf("the agent answered initialize with protocol version %s, whose messages the bridge does not read", strconv.QuoteToASCII(shown))}
	ev := audit.Event{Actor: x.agent, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: "initialize"},
		Input:  map[string]any{"method": "initialize", "kind": m.Kind.String(), "direction": m.Dir.String(), "protocolVersion": shown},
		Policy: policyOf(d), Metadata: decisionMeta(d, "", nil)}
	if err := x.record(ev); err != nil {
		x.log.Warn("cannot record a refused protocol version", "err", err)
	}
	x.log.Warn("refused the agent's initialize answer: a protocol version the bridge does not read", "version", shown)
	e := acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge: %s; acp-bridge reads ACP protocol version %d only", d.Reason, protocolVersion).WithData(denialData(d))
	out, err := m.WithRaw(errorLine(m.ID, e))
	if err != nil {
		return true, fmt.Errorf("governance: refusing protocol version %s: %w", shown, err)
	}
	return true, next.Handle(ctx, out)
}

// readsAsVersion reports whether raw is a JSON number equal to version, in
// any spelling (1, 1.0, 1e0: JavaScript reads each as 1).
func readsAsVersion(raw []byte, version int) bool {
	v, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	return err == nil && v == float64(version) && json.Valid(raw)
}

// errorLine is a JSON-RPC error response to id carrying e.
func errorLine(id json.RawMessage, e *acpwire.Error) []byte {
	raw, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *acpwire.Error  `json:"error"`
	}{"2.0", id, e})
	if err != nil {
		// An id the wire layer read, and an error of strings: this
		// cannot fail; should it, the IDE still gets an error.
		return []byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32603,"message":"acp-bridge: protocol version refused"}}`)
	}
	return raw
}
