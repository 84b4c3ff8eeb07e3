package main

import (
	"context"
	"flag"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
)

// adapterFeature carries the policy into agents that act without asking the
// client (internal/adapter): Claude Code gets permission rules and a
// PreToolUse hook that calls back into the bridge, Gemini CLI an admin
// policy file. --adapter auto recognises the agent from its command or its
// initialize response; none disables; a name forces one.
func adapterFeature() feature {
	var mode string
	return feature{
		name: "adapters",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&mode, "adapter", "auto",
				"agent adapter: auto (recognise the agent), none, or one of "+strings.Join(adapter.Names(), ", "))
		},
		setup: func(ctx context.Context, s *bridgeSetup) error {
			return setupAdapter(s, mode, adapterInputsOf(s))
		},
	}
}

// adapterInputsOf collects the adapters' options from what the governance
// and compression features set up.
func adapterInputsOf(s *bridgeSetup) adapter.Options {
	o := adapter.Options{Agent: s.Agent, Config: adapter.Config{Logger: s.Logger}}
	if g := s.Governance; g != nil {
		if g.Engine != nil {
			o.Engine, o.Config.Protect = g.Engine, g.Engine.Protect
		}
		if g.Enforcer != nil {
			o.Roots = g.Enforcer.Roots
		}
		if g.Policy != nil {
			o.Config.Rules = adapter.RulesFromPolicy(append(g.Policy.Rules(), g.Engine.ImplicitRules()...))
		}
		if g.Audit != nil {
			o.Config.Audit = g.Audit
		}
		o.Config.Operator, o.FailOpen = g.Operator, g.FailOpen
	}
	if s.Compression != nil {
		o.ReadLimit.Threshold = s.Compression.OffloadTokens()
		o.ReadLimit.Offload = s.Compression.Store().WriteOffloaded
		o.Events = s.Compression.Events()
	}
	return o
}

func setupAdapter(s *bridgeSetup, mode string, o adapter.Options) error {
	o.Mode = mode
	sel, err := adapter.Open(o)
	if sel == nil {
		return err
	}
	s.onExit(func() {
		if err := sel.Close(); err != nil {
			s.Logger.Warn("adapter: cleanup", "err", err)
		}
	})
	s.PreToolHook = sel.PreToolHook
	// The adapters copy what they keep (Observe decodes, PatchSession
	// builds a new message), so read blocks can still be reused.
	s.Bridge.UseNonRetaining(adapter.Middleware(sel, s.Bridge))
	return nil
}
