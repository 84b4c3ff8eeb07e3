package main

import (
	"context"
	"flag"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// governed is what the governance feature shares with later features
// (bridgeSetup.Governance): the agent adapters decide their hooks with the
// same engine and record into the same log.
type governed = governance.Setup

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, ",") }
func (f *stringsFlag) Set(v string) error { *f = append(*f, v); return nil }

// governanceFeature applies an AIP-7 governance policy on the wire
// (governance.Enforce) and writes the audit log (governance.NewSetup says
// where each comes from). With neither a policy nor a log the feature does
// nothing.
func governanceFeature() feature {
	var o governance.SetupOptions
	var record, logFile *flag.Flag
	var roots stringsFlag
	return feature{
		name: "governance",
		flags: func(fs *flag.FlagSet) {
			record, logFile = fs.Lookup("record"), fs.Lookup("log-file")
			fs.StringVar(&o.PolicyFile, "policy", "", "apply the AIP-7 GOVERNANCE.md policy in `FILE` (default: the --manifest's metadata.aip44.governance)")
			fs.StringVar(&o.AuditFile, "audit", "", "append the audit log to `FILE` (default: the --manifest's metadata.aip44.audit)")
			fs.StringVar(&o.AuditFail, "audit-fail", "closed", "when the audit log cannot be written: closed (deny tool permissions, writes and terminals until it recovers) or open (continue and log the error)")
			fs.Int64Var(&o.AuditMaxBytes, "audit-max-bytes", 0, "rotate the audit log before a file grows past `N` bytes, keeping the hash chain across files (0: never)")
			fs.Var(&roots, "workspace-root", "a workspace root `DIR` paths must stay inside (repeatable; default: each session's cwd)")
		},
		setup: func(_ context.Context, s *bridgeSetup) error {
			o := o
			o.Roots, o.Manifest, o.Protected = roots, userManifest(s.Manifest), bridgeFiles(record, logFile)
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
				// A Preempter: it hears cancellations as they are read.
				s.Bridge.UseFailClosed(enf)
				s.OnRefused = enf.Refused
			}
			return nil
		},
	}
}

// userManifest is m unless it is the bridge's embedded ACP.md, whose
// references name no files: nil then.
func userManifest(m *manifest.Manifest) *manifest.Manifest {
	if m == nil || strings.HasSuffix(m.File, "(embedded)") {
		return nil
	}
	return m
}

// bridgeFiles protects the bridge's --record and --log-file from the agent,
// reads included: the recording holds every message both ways, the log
// what the bridge decided and why.
func bridgeFiles(record, logFile *flag.Flag) []governance.ProtectedPath {
	var out []governance.ProtectedPath
	for f, what := range map[*flag.Flag]string{record: "the bridge's wire recording", logFile: "the bridge's log"} {
		if f != nil && f.Value.String() != "" {
			out = append(out, governance.ProtectedPath{Path: f.Value.String(), What: what, Read: true})
		}
	}
	return out
}

// selfProtected is governance.SelfProtected for the policy command.
func selfProtected(p *governance.Policy, m *manifest.Manifest) []governance.ProtectedPath {
	return governance.SelfProtected(p, userManifest(m))
}

// auditProtected is governance.AuditProtected for the policy command.
func auditProtected(file string) governance.ProtectedPath { return governance.AuditProtected(file) }
