package adapter

import (
	"log/slog"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// OptionsFrom returns the Options for agent under the bridge's governance
// setup g and compression pipeline p, either of which may be nil: the
// policy's rules (its implicit ones included) and engine, the sessions'
// workspace roots and permission modes, the audit log, operator and fail
// mode, and the Tier 1 read limit with its offload and events. Mode (the
// adapter's) is left for the caller.
func OptionsFrom(agent *acpwire.AgentCommand, g *governance.Setup, p *compress.Pipeline, logger *slog.Logger) Options {
	o := Options{Agent: agent, Config: Config{Logger: logger}}
	if g != nil {
		if g.Engine != nil {
			o.Engine, o.Config.Protect = g.Engine, g.Engine.Protect
		}
		if g.Enforcer != nil {
			o.Sessions = Sessions{Roots: g.Enforcer.Roots, Mode: g.Enforcer.Mode}
		}
		if g.Policy != nil {
			o.Config.Rules = RulesFromPolicy(append(g.Policy.Rules(), g.Engine.ImplicitRules()...))
		}
		if g.Audit != nil {
			o.Config.Audit = g.Audit
		}
		o.Config.Operator, o.FailOpen = g.Operator, g.FailOpen
	}
	if p != nil {
		o.ReadLimit.Threshold = p.OffloadTokens()
		o.ReadLimit.Offload = p.Store().WriteOffloaded
		o.Events = p.Events()
	}
	return o
}
