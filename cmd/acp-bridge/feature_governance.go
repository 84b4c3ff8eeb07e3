package main

import (
	"context"
	"flag"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// governanceFeature applies an AIP-7 governance policy on the wire
// (governance.Enforce) and writes the audit log (governance.NewSetup says
// where each comes from). With neither a policy nor a log the feature does
// nothing.
func governanceFeature() feature {
	var o governance.SetupOptions
	var roots stringsFlag
	return feature{
		name: "governance",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&o.PolicyFile, "policy", "", "apply the AIP-7 GOVERNANCE.md policy in `FILE` (default: the --manifest's metadata.aip44.governance)")
			fs.StringVar(&o.AuditFile, "audit", "", "append the audit log to `FILE` (default: the --manifest's metadata.aip44.audit)")
			fs.StringVar(&o.AuditFail, "audit-fail", "closed", "when the audit log cannot be written: closed (deny tool permissions, writes and terminals until it recovers) or open (continue and log the error)")
			fs.StringVar(&o.AuditContent, "audit-content", "digest", "how the audit log keeps tools' output: digest (long texts as size, SHA-256 and a redacted preview; diffs kept up to 64 KiB) or full (all of it, redacted, strings over 8 KiB capped)")
			fs.Int64Var(&o.AuditMaxBytes, "audit-max-bytes", 0, "rotate the audit log before a file grows past `N` bytes, keeping the hash chain across files (0: never)")
			fs.IntVar(&o.MaxSessions, "max-sessions", governance.DefaultMaxSessions, "govern at most `N` sessions at once; opening one more forgets the one the IDE used least recently, which the agent can then no longer act in until the IDE loads it again")
			fs.Var(&roots, "workspace-root", "a workspace root `DIR` paths must stay inside (repeatable; default: each session's cwd)")
		},
		setup: func(_ context.Context, s *bridgeSetup) error {
			o := o
			o.Roots, o.Protected = roots, s.Protected
			if s.Manifest != nil && !s.Manifest.Embedded { // the bridge's own ACP.md names no files of the user's
				o.Manifest = s.Manifest
			}
			o.Agent = append([]string{s.Agent.Path}, s.Agent.Args...)
			o.Stderr, o.Logger = s.Stderr, s.Logger
			g, err := governance.NewSetup(o)
			if err != nil {
				return err
			}
			s.Governance = g
			s.onExit(g.Close)
			// The adapters feature sets PreToolHook later; it is read per tool call.
			enf := g.NewEnforcer(s.Bridge, func() bool { return s.PreToolHook != nil && s.PreToolHook() })
			if enf != nil {
				// A panic in the enforcement refuses the message it was judging.
				// A Preempter: it hears cancellations as they are read. It keeps
				// copies, never a message's bytes, so read blocks are reused.
				s.Bridge.UseFailClosedNonRetaining(enf)
				s.OnRefused = append(s.OnRefused, enf.Refused)
				s.OnAnswered = append(s.OnAnswered, enf.Answered)
				s.onExit(g.WatchPolicy())
			}
			return nil
		},
	}
}
