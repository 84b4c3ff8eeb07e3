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
		setup: func(_ context.Context, s *bridgeSetup) error {
			o := adapter.OptionsFrom(s.Agent, s.Governance, s.Compression, s.Logger)
			o.Mode = mode
			sel, err := adapter.Open(o)
			if sel == nil {
				return err
			}
			s.closeOnExit("adapter: cleanup", sel.Close)
			s.PreToolHook = sel.PreToolHook
			// The adapters copy what they keep (Observe decodes, PatchSession
			// builds a new message), so read blocks can still be reused.
			s.Bridge.UseNonRetaining(adapter.Middleware(sel, s.Bridge))
			return nil
		},
	}
}
