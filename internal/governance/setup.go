package governance

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/manifest"
	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// SetupOptions is what the bridge command knows when it sets up governance.
type SetupOptions struct {
	// PolicyFile is the GOVERNANCE.md to apply; optional, if empty,
	// defaults to the Manifest's metadata.aip44.governance.
	PolicyFile string
	// AuditFile is where the audit log is appended; optional, if empty,
	// defaults to the Manifest's metadata.aip44.audit (kind governance:
	// the policy's audit.storage).
	AuditFile string
	// AuditFail is "closed" (the zero value) or "open": what happens when
	// the audit log cannot be written.
	AuditFail string
	// AuditMaxBytes rotates the audit log before a file grows past it;
	// optional, zero never rotates.
	AuditMaxBytes int64
	// AuditContent is how the log keeps tools' output: "digest" (the
	// zero value) or "full" (see audit.ContentMode).
	AuditContent string
	// Roots are the workspace roots paths must stay inside; optional, if
	// empty, each session's cwd.
	Roots []string
	// MaxSessions bounds the sessions governed at once (see
	// EnforceOptions.MaxSessions); optional, if zero, defaults to
	// DefaultMaxSessions.
	MaxSessions int
	// Manifest is the ACP.md the bridge enforces, whose references name
	// the defaults above and the operator; optional, nil when the bridge
	// runs on its own embedded manifest, which names no files.
	Manifest *manifest.Manifest
	// Protected are further files the agent may never touch (the bridge's
	// own recording and log).
	Protected []ProtectedPath
	// Agent is the agent's command line, recorded in bridge.start and
	// naming the operator when the Manifest does not.
	Agent []string
	// Stderr receives the policy's problems, one per line; optional, nil
	// discards them.
	Stderr io.Writer
	// Logger receives diagnostics; optional, nil discards them.
	Logger *slog.Logger
}

// Setup is a policy and an audit log, loaded and opened, as the bridge
// shares them between its features.
type Setup struct {
	// Policy is the loaded policy; nil when none is.
	Policy *Policy
	// Engine decides with Policy; nil when no policy is loaded.
	Engine *Engine
	// Audit is the audit log; nil when none is written.
	Audit *audit.Log
	// FailOpen is AuditFail "open".
	FailOpen bool
	// Operator is the audit actor id of the agent.
	Operator string
	// Enforcer applies the policy on the wire; nil until NewEnforcer, and
	// after it when neither a policy nor a log is in use.
	Enforcer *Enforcer

	logger      *slog.Logger
	queue       *QueuedRecorder
	maxSessions int
	manifest    *manifest.Manifest
}

// NewSetup loads the policy, opens the audit log and records bridge.start
// in it. A policy with problems is an ErrorList, each problem also written
// to Stderr. Close records bridge.stop and closes the log.
func NewSetup(o SetupOptions) (*Setup, error) {
	if o.AuditFail == "" {
		o.AuditFail = "closed"
	}
	if o.AuditFail != "closed" && o.AuditFail != "open" {
		return nil, fmt.Errorf("--audit-fail %q: want closed or open", o.AuditFail)
	}
	if o.AuditContent == "" {
		o.AuditContent = "digest"
	}
	content, err := audit.ParseContentMode(o.AuditContent)
	if err != nil {
		return nil, fmt.Errorf("--audit-content: %v", err)
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	m := o.Manifest
	policyFile, auditFile := o.PolicyFile, o.AuditFile
	if policyFile == "" && m != nil && m.AIP44().Governance != "" {
		policyFile = m.ResolveRef(m.AIP44().Governance)
	}
	s := &Setup{FailOpen: o.AuditFail == "open", Operator: OperatorID(m, o.Agent), logger: logger, maxSessions: o.MaxSessions, manifest: m}
	if policyFile != "" {
		p, err := LoadPolicy(policyFile)
		var list ErrorList
		if errors.As(err, &list) {
			if o.Stderr != nil {
				for _, e := range list {
					fmt.Fprintln(o.Stderr, e)
				}
			}
			return nil, fmt.Errorf("policy %s has %d problem(s); the bridge does not start under a policy it cannot read", policyFile, len(list))
		}
		if err != nil {
			return nil, err
		}
		for _, w := range p.Warnings {
			logger.Warn("governance: " + w)
		}
		s.Policy = p
		s.Engine = NewEngine(p, EngineOptions{Roots: o.Roots, Protected: append(SelfProtected(p, m), o.Protected...)})
		logger.Info("governance: enforcing", "policy", policyFile, "rules", len(p.Rules()), "default", p.Default, "roots", o.Roots)
	}
	if auditFile == "" && m != nil {
		if a := m.AIP44().Audit; a != nil {
			switch a.Kind {
			case "external":
				auditFile = m.ResolveRef(a.Ref)
			case "governance":
				if s.Policy != nil {
					auditFile = s.Policy.AuditFile
				}
			}
		}
	}
	if auditFile == "" {
		return s, nil
	}
	// Not through a link planted in the workspace above the log:
	// MkdirAll would create its directories where the link leads.
	if err := nowaitopen.LinkedDir(auditFile); err != nil {
		return nil, fmt.Errorf("opening the audit log: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(auditFile), 0o700); err != nil {
		return nil, fmt.Errorf("creating the audit log's directory: %v", err)
	}
	l, err := audit.Open(auditFile, audit.Options{Logger: logger, MaxBytes: o.AuditMaxBytes, Content: content})
	if err != nil {
		return nil, fmt.Errorf("opening the audit log: %v", err)
	}
	s.Audit = l
	if s.Engine != nil {
		s.Engine.Protect(AuditProtected(auditFile))
		if dir, ok := AuditDirProtected(auditFile, o.Roots); ok {
			s.Engine.Protect(dir)
		} else {
			logger.Info("governance: the audit log's directory is not its own (the working directory, a workspace root or above one, or it holds other files), so the agent may write a log of its own beside it: give `acp-bridge audit serve` the log's file, not its directory",
				"dir", filepath.Dir(auditFile))
		}
	}
	start := audit.Event{Actor: audit.Actor{ID: "acp-bridge", Role: "system"}, Action: "bridge.start",
		Subject: audit.Subject{Kind: "bridge", Ref: "acp-bridge"},
		Input: map[string]any{"agent": o.Agent, "policy": policyFile, "auditFail": o.AuditFail,
			"auditContent": content.String(), "workspaceRoots": o.Roots}}
	if err := l.AppendSync(start); err != nil && !s.FailOpen {
		l.Close()
		return nil, fmt.Errorf("writing the audit log: %v", err)
	}
	logger.Info("governance: audit log", "file", auditFile, "fail", o.AuditFail)
	return s, nil
}

// NewEnforcer builds s.Enforcer, which applies the policy on the wire and
// records into the log through a queue, and returns it; nil when neither a
// policy nor a log is in use. agentHook reports, per tool call, whether the
// agent asks the bridge before its own tool calls.
func (s *Setup) NewEnforcer(sender acpwire.Sender, agentHook func() bool) *Enforcer {
	if s.Engine == nil && s.Audit == nil {
		return nil
	}
	opts := EnforceOptions{Engine: s.Engine, Sender: sender, FailOpen: s.FailOpen,
		Operator: s.Operator, Logger: s.logger, AgentHook: agentHook, MaxSessions: s.maxSessions, Manifest: s.manifest}
	if s.Audit != nil {
		// Records other than decisions are encoded and hashed off the
		// message path, in order.
		s.queue = NewQueuedRecorder(s.Audit, s.logger)
		opts.Audit = s.queue
	}
	s.Enforcer = NewEnforcer(opts)
	return s.Enforcer
}

// Close ends the enforcement, drains the record queue, records bridge.stop
// and closes the audit log, in that order.
func (s *Setup) Close() {
	if s.Enforcer != nil {
		s.Enforcer.Close("bridge stopped")
	}
	if s.queue != nil {
		s.queue.Close()
	}
	if s.Audit == nil {
		return
	}
	stop := audit.Event{Actor: audit.Actor{ID: "acp-bridge", Role: "system"}, Action: "bridge.stop",
		Subject: audit.Subject{Kind: "bridge", Ref: "acp-bridge"}}
	if err := s.Audit.AppendSync(stop); err != nil {
		s.logger.Error("audit: recording bridge.stop", "err", err)
	}
	if err := s.Audit.Close(); err != nil {
		s.logger.Error("audit: closing the log", "err", err)
	}
}

// SelfProtected lists the files the agent may never change whatever the
// policy says: the policy's own files (what it extends and references)
// and the manifest that binds it (nil: none).
func SelfProtected(p *Policy, m *manifest.Manifest) []ProtectedPath {
	var out []ProtectedPath
	for _, f := range p.Files() {
		out = append(out, ProtectedPath{Path: f, What: "the governance policy"})
	}
	if m != nil {
		out = append(out, ProtectedPath{Path: m.File, What: "the ACP.md manifest"})
	}
	return out
}

// AuditProtected protects the audit log at file, its rotated files and its
// lock, from reads too: the agent has no business reading the record of
// what it did, nor learning what was redacted.
func AuditProtected(file string) ProtectedPath {
	return ProtectedPath{Path: file, What: "the audit log", Read: true, Rotated: true}
}

// OperatorID names the agent in audit records: the manifest's operator
// when it names one, else "agent:" and the agent's command (the package,
// for npx-style launchers).
func OperatorID(m *manifest.Manifest, agent []string) string {
	if m != nil && m.AIP44().Operator != "" {
		return "operator:" + strings.TrimSuffix(filepath.Base(m.AIP44().Operator), ".md")
	}
	var name string
	if len(agent) > 0 {
		name = filepath.Base(agent[0])
	}
	switch name {
	case "npx", "node", "bunx", "pnpm", "uvx", "pipx", "deno":
		for _, a := range agent[1:] {
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
