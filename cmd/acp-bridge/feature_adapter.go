package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// adapterFeature carries the policy into agents that act without asking the
// client (internal/adapter): Claude Code gets permission rules and a
// PreToolUse hook that calls back into the bridge, Gemini CLI an admin
// policy file. --adapter auto recognises the agent from its command or its
// initialize response; none disables; a name forces one.
func adapterFeature() feature {
	var mode string
	var flags *flag.FlagSet
	return feature{
		name: "adapters",
		flags: func(fs *flag.FlagSet) {
			flags = fs
			fs.StringVar(&mode, "adapter", "auto",
				"agent adapter: auto (recognise the agent), none, or one of "+strings.Join(adapter.Names(), ", "))
		},
		setup: func(ctx context.Context, s *bridgeSetup) error {
			return setupAdapter(s, mode, adapterInputsOf(s, flags))
		},
	}
}

// adapterInputs is what the adapters take from the features set up before
// them.
type adapterInputs struct {
	// engine decides hook calls; nil when no policy is loaded.
	engine adapter.PolicyEngine
	// roots returns the workspace roots of an agent session as the IDE
	// opened it; nil when the wire-level enforcement is off.
	roots func(sessionID string) []string
	// rules are the policy's compact rules, for the agents' native rules.
	rules adapter.Rules
	// audit records hook decisions; nil when there is no audit log.
	audit adapter.Recorder
	// failOpen keeps decisions when the audit log cannot be written.
	failOpen bool
	// offloadTokens is the Tier 1 threshold; zero when compression is off.
	offloadTokens int
	// offload keeps a copy of content Tier 1 held back; optional.
	offload func(tool, content string) (string, error)
	// events receives Tier 1 events; optional.
	events *compress.EventLog
}

// adapterInputsOf collects the adapters' inputs from what the governance and
// compression features set up. The Tier 1 threshold is the compression
// feature's --offload-tokens, read from the shared flag set.
func adapterInputsOf(s *bridgeSetup, fs *flag.FlagSet) adapterInputs {
	var in adapterInputs
	if g := s.Governance; g != nil {
		if g.Engine != nil {
			in.engine = g.Engine
		}
		if g.Enforcer != nil {
			in.roots = g.Enforcer.Roots
		}
		if g.Policy != nil {
			in.rules = adapter.RulesFromPolicy(append(g.Policy.Rules(), g.Engine.ImplicitRules()...))
		}
		if g.Audit != nil {
			in.audit = g.Audit
		}
		in.failOpen = g.FailOpen
	}
	if s.Compression != nil {
		in.offloadTokens = compress.DefaultOffloadTokens
		if f := fs.Lookup("offload-tokens"); f != nil {
			if n, err := strconv.Atoi(f.Value.String()); err == nil && n > 0 {
				in.offloadTokens = n
			}
		}
		in.offload = s.Compression.Store().WriteOffloaded
		in.events = s.Compression.Events()
	}
	return in
}

func setupAdapter(s *bridgeSetup, mode string, in adapterInputs) error {
	if mode == "none" {
		s.Logger.Info("adapter: disabled (--adapter none); wire-level enforcement only")
		return nil
	}
	name := ""
	switch {
	case mode == "auto":
		name = adapter.DetectCommand(append([]string{s.Agent.Path}, s.Agent.Args...))
	case slices.Contains(adapter.Names(), mode):
		name = mode
	default:
		return fmt.Errorf("--adapter %q: want auto, none or one of %s", mode, strings.Join(adapter.Names(), ", "))
	}
	cfg := adapter.Config{Rules: in.rules, Audit: in.audit, Operator: operatorOf(s), Logger: s.Logger}
	if g := s.Governance; g != nil && g.Engine != nil {
		cfg.Protect = g.Engine.Protect
	}
	if d := hookDecider(in, s); d != nil {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding the bridge's own path for the agent hook: %v", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		cfg.Decider, cfg.Executable = d, exe
	}
	cfg.Root = s.Agent.Dir
	if cfg.Root == "" {
		cfg.Root, _ = os.Getwd()
	}
	var a adapter.Adapter
	if name != "" {
		var err error
		if a, err = adapter.New(name, cfg); err != nil {
			return err
		}
		if err := a.Spawn(s.Agent); err != nil {
			a.Close()
			return err
		}
		s.Logger.Info("adapter: in use", "adapter", name, "forced", mode != "auto")
	}
	sel := adapter.NewSelector(a, mode == "auto", cfg)
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

// hookDecider builds what answers the agents' hooks: the policy engine,
// then Tier 1 for large reads, with every decision audited. It returns nil
// when there is nothing for a hook to do.
func hookDecider(in adapterInputs, s *bridgeSetup) adapter.Decider {
	if in.engine == nil && in.offloadTokens <= 0 {
		return nil
	}
	var d adapter.Decider = adapter.DeciderFunc(func(context.Context, adapter.ToolCall) (adapter.Decision, error) {
		return adapter.Decision{}, nil
	})
	if in.engine != nil {
		d = adapter.PolicyDeciderIn(in.engine, in.roots)
	}
	rl := adapter.ReadLimit{Threshold: in.offloadTokens, Offload: in.offload, Logger: s.Logger}
	if in.events != nil {
		rl.OnLimit = func(lr adapter.LimitedRead) {
			var files []string
			if lr.Copy != "" {
				files = []string{lr.Copy}
			}
			in.events.Add(compress.Event{Time: time.Now().UTC(), Session: lr.Session, Type: compress.EventTier1,
				Trigger: fmt.Sprintf("Claude Read of %s: %d tokens over the %d-token threshold; limited to %d of %d lines",
					lr.Path, lr.FileTokens, lr.Threshold, lr.Limit, lr.Lines),
				TokensBefore: lr.FileTokens, TokensAfter: lr.ShownTokens, TokensSaved: lr.FileTokens - lr.ShownTokens, Files: files})
		}
	}
	d = adapter.LimitLargeReads(d, rl)
	if in.audit != nil {
		d = adapter.Audited(d, in.audit, adapter.AuditOptions{FailOpen: in.failOpen, Operator: operatorOf(s), Logger: s.Logger})
	}
	return d
}

// operatorOf is the audit actor id of the agent, as the governance feature
// named it.
func operatorOf(s *bridgeSetup) string {
	if g := s.Governance; g != nil && g.Operator != "" {
		return g.Operator
	}
	return governance.OperatorID(userManifest(s.Manifest), append([]string{s.Agent.Path}, s.Agent.Args...))
}
