package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// governed is what the governance feature shares with later features
// (bridgeSetup.Governance): the agent adapters decide their hooks with the
// same engine and record into the same log.
type governed struct {
	// Policy is the loaded policy; nil when none is.
	Policy *governance.Policy
	// Engine decides with Policy; nil when no policy is loaded.
	Engine *governance.Engine
	// Audit is the audit log; nil when none is written.
	Audit *audit.Log
	// FailOpen is --audit-fail open.
	FailOpen bool
	// Enforcer applies the policy on the wire; nil when neither a policy
	// nor a log is in use. It knows the sessions the IDE opened, whose
	// roots the agents' hooks are decided in.
	Enforcer *governance.Enforcer
}

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, ",") }
func (f *stringsFlag) Set(v string) error { *f = append(*f, v); return nil }

// governanceFeature applies an AIP-7 governance policy on the wire
// (governance.Enforce) and writes the audit log. The policy is --policy
// FILE, or the GOVERNANCE.md named by the --manifest's
// metadata.aip44.governance; the log is --audit FILE, or the manifest's
// metadata.aip44.audit (kind governance: the policy's audit.storage). With
// neither a policy nor a log the feature does nothing.
func governanceFeature() feature {
	var policyFile, auditFile, auditFail string
	var flags *flag.FlagSet
	var auditMaxBytes int64
	var roots stringsFlag
	return feature{
		name: "governance",
		flags: func(fs *flag.FlagSet) {
			flags = fs
			fs.StringVar(&policyFile, "policy", "", "apply the AIP-7 GOVERNANCE.md policy in `FILE` (default: the --manifest's metadata.aip44.governance)")
			fs.StringVar(&auditFile, "audit", "", "append the audit log to `FILE` (default: the --manifest's metadata.aip44.audit)")
			fs.StringVar(&auditFail, "audit-fail", "closed", "when the audit log cannot be written: closed (deny tool permissions, writes and terminals until it recovers) or open (continue and log the error)")
			fs.Int64Var(&auditMaxBytes, "audit-max-bytes", 0, "rotate the audit log before a file grows past `N` bytes, keeping the hash chain across files (0: never)")
			fs.Var(&roots, "workspace-root", "a workspace root `DIR` paths must stay inside (repeatable; default: each session's cwd)")
		},
		setup: func(_ context.Context, s *bridgeSetup) error {
			if auditFail != "closed" && auditFail != "open" {
				return fmt.Errorf("--audit-fail %q: want closed or open", auditFail)
			}
			policyFile, auditFile := policyFile, auditFile
			fromManifest := s.Manifest != nil && !strings.HasSuffix(s.Manifest.File, "(embedded)")
			if policyFile == "" && fromManifest && s.Manifest.AIP44().Governance != "" {
				policyFile = s.Manifest.ResolveRef(s.Manifest.AIP44().Governance)
			}
			g := &governed{FailOpen: auditFail == "open"}
			if policyFile != "" {
				p, err := governance.LoadPolicy(policyFile)
				var list governance.ErrorList
				if errors.As(err, &list) {
					for _, e := range list {
						fmt.Fprintln(s.Stderr, e)
					}
					return fmt.Errorf("policy %s has %d problem(s); the bridge does not start under a policy it cannot read", policyFile, len(list))
				}
				if err != nil {
					return err
				}
				for _, w := range p.Warnings {
					s.Logger.Warn("governance: " + w)
				}
				g.Policy = p
				g.Engine = governance.NewEngine(p, governance.EngineOptions{Roots: roots, Protected: append(selfProtected(p, s.Manifest), bridgeFiles(flags)...)})
				s.Logger.Info("governance: enforcing", "policy", policyFile, "rules", len(p.Rules()), "default", p.Default, "roots", roots)
			}
			if auditFile == "" && fromManifest {
				if a := s.Manifest.AIP44().Audit; a != nil {
					switch a.Kind {
					case "external":
						auditFile = s.Manifest.ResolveRef(a.Ref)
					case "governance":
						if g.Policy != nil {
							auditFile = g.Policy.AuditFile
						}
					}
				}
			}
			if auditFile != "" {
				if err := os.MkdirAll(filepath.Dir(auditFile), 0o700); err != nil {
					return fmt.Errorf("creating the audit log's directory: %v", err)
				}
				l, err := audit.Open(auditFile, audit.Options{Logger: s.Logger, MaxBytes: auditMaxBytes})
				if err != nil {
					return fmt.Errorf("opening the audit log: %v", err)
				}
				g.Audit = l
				if g.Engine != nil {
					g.Engine.Protect(auditProtected(auditFile))
				}
				start := audit.Event{Actor: audit.Actor{ID: "acp-bridge", Role: "system"}, Action: "bridge.start",
					Subject: audit.Subject{Kind: "bridge", Ref: "acp-bridge"},
					Input:   map[string]any{"agent": append([]string{s.Agent.Path}, s.Agent.Args...), "policy": policyFile, "auditFail": auditFail, "workspaceRoots": []string(roots)}}
				if err := l.AppendSync(start); err != nil && !g.FailOpen {
					l.Close()
					return fmt.Errorf("writing the audit log: %v", err)
				}
				s.onExit(func() {
					stop := audit.Event{Actor: audit.Actor{ID: "acp-bridge", Role: "system"}, Action: "bridge.stop",
						Subject: audit.Subject{Kind: "bridge", Ref: "acp-bridge"}}
					if err := l.AppendSync(stop); err != nil {
						s.Logger.Error("audit: recording bridge.stop", "err", err)
					}
					if err := l.Close(); err != nil {
						s.Logger.Error("audit: closing the log", "err", err)
					}
				})
				s.Logger.Info("governance: audit log", "file", auditFile, "fail", auditFail)
			}
			s.Governance = g
			if g.Engine == nil && g.Audit == nil {
				return nil
			}
			opts := governance.EnforceOptions{Engine: g.Engine, Sender: s.Bridge, FailOpen: g.FailOpen,
				Operator: operatorID(s), Logger: s.Logger,
				// Set later by the adapters feature; read per tool call.
				AgentHook: func() bool { return s.PreToolHook != nil && s.PreToolHook() }}
			if g.Audit != nil {
				// Records other than decisions are encoded and hashed off
				// the message path, in order.
				q := governance.NewQueuedRecorder(g.Audit, s.Logger)
				s.onExit(q.Close)
				opts.Audit = q
			}
			enf := governance.NewEnforcer(opts)
			g.Enforcer = enf
			// A panic in the enforcement refuses the message it was judging.
			// A Preempter: it hears cancellations as they are read.
			s.Bridge.UseFailClosed(enf)
			s.OnRefused = enf.Refused
			s.onExit(func() { enf.Close("bridge stopped") })
			return nil
		},
	}
}

// selfProtected lists the files the agent may never change whatever the
// policy says: the policy's own files (what it extends and references)
// and the manifest that binds it (nil or embedded: none).
func selfProtected(p *governance.Policy, m *manifest.Manifest) []governance.ProtectedPath {
	var out []governance.ProtectedPath
	for _, f := range p.Files() {
		out = append(out, governance.ProtectedPath{Path: f, What: "the governance policy"})
	}
	if m != nil && !strings.HasSuffix(m.File, "(embedded)") {
		out = append(out, governance.ProtectedPath{Path: m.File, What: "the ACP.md manifest"})
	}
	return out
}

// bridgeFiles protects the bridge's --record and --log-file from the agent,
// reads included: the recording holds every message both ways, the log
// what the bridge decided and why.
func bridgeFiles(fs *flag.FlagSet) []governance.ProtectedPath {
	var out []governance.ProtectedPath
	for name, what := range map[string]string{"record": "the bridge's wire recording", "log-file": "the bridge's log"} {
		if f := fs.Lookup(name); f != nil && f.Value.String() != "" {
			out = append(out, governance.ProtectedPath{Path: f.Value.String(), What: what, Read: true})
		}
	}
	return out
}

// auditProtected protects the audit log at file, its rotated files and its
// lock, from reads too: the agent has no business reading the record of
// what it did, nor learning what was redacted.
func auditProtected(file string) governance.ProtectedPath {
	return governance.ProtectedPath{Path: file, What: "the audit log", Read: true, Rotated: true}
}

// operatorID names the agent in audit records: the manifest's operator
// when it names one, else "agent:" and the agent's command (the package,
// for npx-style launchers).
func operatorID(s *bridgeSetup) string {
	if s.Manifest != nil && !strings.HasSuffix(s.Manifest.File, "(embedded)") && s.Manifest.AIP44().Operator != "" {
		return "operator:" + strings.TrimSuffix(filepath.Base(s.Manifest.AIP44().Operator), ".md")
	}
	name := filepath.Base(s.Agent.Path)
	switch name {
	case "npx", "node", "bunx", "pnpm", "uvx", "pipx", "deno":
		for _, a := range s.Agent.Args {
			if !strings.HasPrefix(a, "-") && a != "exec" && a != "dlx" && a != "run" {
				name = a
				break
			}
		}
	}
	if at := strings.LastIndex(name, "@"); at > 0 {
		name = name[:at] // @scope/pkg@1.2.3 -> @scope/pkg
	}
	name = filepath.Base(name)
	if name == "" || name == "." {
		name = "unknown"
	}
	return "agent:" + name
}
