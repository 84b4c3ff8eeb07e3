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
// workspace roots and permission modes (looked up by the IDE's id for the
// agent's session, which differs after a compression rollover, and the id
// records name the session by), the audit
// log, operator and fail mode, the IDE's id for each agent session and
// whether the IDE opened it (Config.Session), and the Tier 1 read limit
// with its offload and events. Mode (the adapter's) is left for the caller.
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
			o.Config.Rules.Default = string(g.Policy.Default)
		}
		if g.Audit != nil {
			o.Config.Audit = g.Audit
		}
		o.Config.Operator, o.FailOpen = g.Operator, g.FailOpen
	}
	var opened func(string) bool
	if g != nil && g.Enforcer != nil {
		opened = g.Enforcer.Opened
	}
	ide := func(id string) string { return id }
	if p != nil {
		ide = p.IDESession
	}
	o.Config.Session = func(agentSession string) (string, bool) {
		id := ide(agentSession)
		return id, opened == nil || opened(id)
	}
	if p != nil {
		o.Sessions = sessionsAsIDE(o.Sessions, p.IDESession)
		o.ReadLimit.Threshold = p.OffloadTokens()
		o.ReadLimit.Offload = p.KeepCopy
		o.Events = p.Events()
	}
	return o
}

// sessionsAsIDE returns s naming sessions (Sessions.IDE) and looking them
// up by ide(id), the IDE's id for the agent's session id: after a
// compression rollover Claude's hook names
// the session the bridge opened for it, which the wire-level enforcement
// knows by the IDE's id, and for a session it does not know
// Enforcer.Roots answers the roots of the one open session, or none
// inside any workspace when several are open.
func sessionsAsIDE(s Sessions, ide func(string) string) Sessions {
	out := s
	out.IDE = ide
	if s.Roots != nil {
		out.Roots = func(id string) []string { return s.Roots(ide(id)) }
	}
	if s.Mode != nil {
		out.Mode = func(id string) string { return s.Mode(ide(id)) }
	}
	return out
}
