package main

import (
	"context"
	"flag"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// agentInfoFeature records, in the audit log, what the agent says about
// itself in its initialize response (governance.RecordAgentInfo). It has no
// flags and does nothing without an audit log.
func agentInfoFeature() feature {
	return feature{
		name:  "agentinfo",
		flags: func(*flag.FlagSet) {},
		setup: func(_ context.Context, s *bridgeSetup) error {
			if s.Governance == nil || s.Governance.Audit == nil {
				return nil
			}
			s.Bridge.UseNonRetaining(governance.RecordAgentInfo(s.Governance.Audit)) // it keeps decoded copies only
			return nil
		},
	}
}
