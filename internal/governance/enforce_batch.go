package governance

import (
	"context"
	"encoding/json"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// governedMethods are the methods a batch must not carry past the policy.
var governedMethods = map[string]bool{
	"session/request_permission": true, "fs/read_text_file": true, "fs/write_text_file": true,
	"terminal/create": true, "session/new": true, "session/load": true, "session/resume": true,
	"session/fork": true, "session/update": true, "session/prompt": true, "session/cancel": true,
	"mcp/message": true,
}

type rawSender interface {
	Send(dir acpwire.Direction, raw []byte) error
}

func (x *Enforcer) onBatch(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	governed := false
	for _, e := range m.Batch {
		if governedMethods[e.Method] {
			governed = true
		}
	}
	if !governed {
		return next.Handle(ctx, m)
	}
	x.append(audit.Event{Actor: actorBridge, Action: "policy.violation", Subject: audit.Subject{Kind: "batch"},
		Policy:   &audit.Policy{Ref: "no-batches", Decision: string(Deny)},
		Metadata: map[string]any{"violation": "a JSON-RPC batch carried governed ACP methods", "direction": m.Dir.String()}})
	var resps []json.RawMessage
	for _, e := range m.Batch {
		if e.Kind != acpwire.KindRequest {
			continue
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": e.ID, "error": acpwire.Errorf(acpwire.CodeInvalidRequest,
			"acp-bridge: batches carrying %s are refused while a governance policy is active", e.Method)})
		resps = append(resps, b)
	}
	if len(resps) == 0 {
		return nil
	}
	rs, ok := x.send.(rawSender)
	if !ok {
		x.log.Error("refused a batch but cannot answer its requests")
		return nil
	}
	b, _ := json.Marshal(resps)
	return rs.Send(m.Dir.Reverse(), b)
}
