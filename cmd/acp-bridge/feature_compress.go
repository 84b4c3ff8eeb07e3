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
		mode          string
		contextSize   int64
		offloadTokens int
		cacheDir      string
		logPath       string
		agentCompact  bool
		offloadReads  bool
	)
	return feature{
		name: "compression",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&mode, "compress", "off", "context compression (CTX-001): on or off")
			fs.Int64Var(&contextSize, "context-size", compress.DefaultContextSize, "context window in `tokens` assumed for agents that send no usage_update")
			fs.IntVar(&offloadTokens, "offload-tokens", compress.DefaultOffloadTokens, "offload content over this many o200k `tokens` to the cache (tier 1)")
			fs.StringVar(&cacheDir, "cache-dir", "", "compression cache `DIR` for offloaded content and archives (default: the user cache dir + /acp-bridge)")
			fs.StringVar(&logPath, "compress-log", "", "append compression events to `FILE` as JSONL")
			fs.BoolVar(&agentCompact, "agent-compact", true, "at RED, run the agent's own /compact between turns when it advertises one")
			fs.BoolVar(&offloadReads, "offload-reads", true, "offload whole-file fs/read_text_file results over the threshold (off for agents that edit files read through the client)")
		},
		setup: func(_ context.Context, s *bridgeSetup) error {
			switch mode {
			case "off":
				return nil
			case "on":
			default:
				return fmt.Errorf("--compress %q: want on or off", mode)
			}
			if offloadTokens <= 0 || contextSize <= 0 {
				return errors.New("--offload-tokens and --context-size must be positive")
			}
			cfg := compress.Config{CacheDir: cacheDir, ContextSize: contextSize, OffloadTokens: offloadTokens,
				AgentCompact: agentCompact, KeepReads: !offloadReads, Logger: s.Logger}
			if s.Governance != nil && s.Governance.Audit != nil {
				cfg.Audit = compress.AuditTo(s.Governance.Audit)
			}
			p, err := compress.Open(compress.Options{Config: cfg, LogPath: logPath}, s.Bridge)
			if err != nil {
				return err
			}
			cacheDir = p.Store().Dir()
			if s.Governance != nil && s.Governance.Engine != nil {
				s.Governance.Engine.Protect(governance.ProtectedPath{Path: cacheDir, What: "the compression cache"})
				if logPath != "" {
					s.Governance.Engine.Protect(governance.ProtectedPath{Path: logPath, What: "the compression event log"})
				}
			}
			s.Compression = p
			s.Bridge.Use(p) // a Preempter: hears cancellations as they are read
			s.onExit(func() {
				if err := p.Events().Err(); err != nil {
					s.Logger.Warn("compression log", "err", err)
				}
				if err := p.Close(); err != nil {
					s.Logger.Warn("compression cache", "err", err)
				}
			})
			s.Logger.Info("compression: on", "cache", cacheDir, "offload_tokens", offloadTokens, "context_size", contextSize)
			return nil
		},
	}
}
