package governance

import (
	"context"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// RecordAgentInfo returns middleware that appends an agent.info record to l
// for each initialize response from the agent (ACP agentInfo: name, title,
// version), so that reviews name the agent as it named itself instead of by
// the command that started it, and passes every message on untouched. The
// strings are the agent's own claims, recorded as such. It keeps nothing of
// a message (the record holds decoded copies), so it may be added with
// Bridge.UseNonRetaining.
func RecordAgentInfo(l *audit.Log) acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			if m.Kind == acpwire.KindResponse && m.Dir == acpwire.AgentToClient && m.IsResponseTo("initialize") {
				in := map[string]any{}
				for _, k := range []string{"name", "title", "version"} {
					if v, ok := m.GetString("result", "agentInfo", k); ok && v != "" {
						in[k] = v
					}
				}
				if len(in) > 0 {
					name, _ := in["name"].(string)
					l.Append(audit.Event{Actor: audit.Actor{ID: "acp-bridge", Role: "system"}, Action: audit.AgentInfoAction,
						Subject: audit.Subject{Kind: "agent", Ref: name}, Input: in})
				}
			}
			return next.Handle(ctx, m)
		})
	}
}
