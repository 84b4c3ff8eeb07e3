package main

import (
	"context"
	"flag"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// agentInfoFeature records, in the audit log, what the agent says about
// itself in its initialize response (ACP agentInfo: name, title,
// version), so that reviews name the agent as it named itself instead of
// by the command that started it. It has no flags and does nothing
// without an audit log.
func agentInfoFeature() feature {
	return feature{
		name:  "agentinfo",
		flags: func(*flag.FlagSet) {},
		setup: func(_ context.Context, s *bridgeSetup) error {
			if s.Governance == nil || s.Governance.Audit == nil {
				return nil
			}
			s.Bridge.Use(recordAgentInfo(s.Governance.Audit))
			return nil
		},
	}
}

// recordAgentInfo returns middleware that appends an agent.info record for
// each initialize response from the agent, and passes every message on
// untouched. The strings are the agent's own claims, recorded as such.
func recordAgentInfo(l *audit.Log) acpwire.Middleware {
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
