package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// compressFeature adds CTX-001 context compression (compress.Pipeline):
// a context meter for every agent, tier-1 offloading of large content to
// --cache-dir, tier-3 checkpoints with a Session Summary kept as ACCP warm
// state, session rollover at CRITICAL, and the /bridge-* quick commands.
// It is off unless --compress on is given.
func compressFeature() feature {
	var (
		mode         string
		o            compress.Options
		offloadReads bool
	)
	return feature{
		name: "compression",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&mode, "compress", "off", "context compression (CTX-001): on or off")
			fs.Int64Var(&o.ContextSize, "context-size", compress.DefaultContextSize, "context window in `tokens` assumed for agents that send no usage_update")
			fs.IntVar(&o.OffloadTokens, "offload-tokens", compress.DefaultOffloadTokens, "offload content over this many o200k `tokens` to the cache (tier 1)")
			fs.StringVar(&o.CacheDir, "cache-dir", "", "compression cache `DIR` for offloaded content and archives (default: the user cache dir + /acp-bridge)")
			fs.StringVar(&o.LogPath, "compress-log", "", "append compression events to `FILE` as JSONL")
			fs.BoolVar(&o.AgentCompact, "agent-compact", true, "at RED, run the agent's own /compact between turns when it advertises one")
			fs.BoolVar(&offloadReads, "offload-reads", true, "offload whole-file fs/read_text_file results over the threshold (off for agents that edit files read through the client)")
		},
		setup: func(_ context.Context, s *bridgeSetup) error {
			if mode == "off" {
				return nil
			}
			if mode != "on" {
				return fmt.Errorf("--compress %q: want on or off", mode)
			}
			if o.OffloadTokens <= 0 || o.ContextSize <= 0 {
				return errors.New("--offload-tokens and --context-size must be positive")
			}
			o := o
			o.KeepReads, o.Logger = !offloadReads, s.Logger
			if s.Governance != nil && s.Governance.Audit != nil {
				o.Audit = compress.AuditTo(s.Governance.Audit)
			}
			if s.Governance != nil && s.Governance.Enforcer != nil {
				// A rollover's session/new passes no middleware: governance
				// learns the fresh session's mode from its result.
				o.OnRollover = s.Governance.Enforcer.ContinuedIn
				o.OnModeRestored = s.Governance.Enforcer.ModeRestoredIn
			}
			p, err := compress.Open(o, s.Bridge)
			if err != nil {
				return err
			}
			// Reads refused too, wherever it lies: it holds other sessions'
			// content. A session's own offloads stay readable.
			s.protect(governance.ProtectedPath{Path: p.Store().Dir(), What: "the compression cache", Read: true, OwnOffloads: true})
			if o.LogPath != "" {
				s.protect(governance.ProtectedPath{Path: o.LogPath, What: "the compression event log", Read: true})
			}
			if s.Governance != nil && s.Governance.Engine != nil {
				// The agent may read what was offloaded for its session.
				s.Governance.Engine.SetOffloadReader(p)
			}
			s.Compression = p
			// A Preempter that keeps no message's bytes.
			s.Bridge.UseNonRetaining(p)
			s.OnRefused = append(s.OnRefused, p.Refused)
			s.OnAnswered = append(s.OnAnswered, p.Answered)
			s.closeOnExit("compression cache", p.Close)
			s.closeOnExit("compression log", p.Events().Err) // before Close, as cleanups run in reverse
			s.Logger.Info("compression: on", "cache", p.Store().Dir(), "offload_tokens", o.OffloadTokens, "context_size", o.ContextSize)
			return nil
		},
	}
}
