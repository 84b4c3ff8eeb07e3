package adapter

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// Adapter names.
const (
	Claude = "claude"
	Gemini = "gemini"
)

// Names lists the adapters this package provides, for flag help and
// validation.
func Names() []string { return []string{Claude, Gemini} }

// Adapter carries the bridge's policy into one kind of agent. Spawn runs once,
// before the agent starts, and only when the agent was recognised from its
// command line (or forced); PatchSession runs for every session/new,
// session/load, session/resume and session/fork request. Implementations are
// safe for concurrent use.
type Adapter interface {
	// Name is the adapter's name ("claude", "gemini").
	Name() string
	// Spawn may change the agent's arguments or environment.
	Spawn(cmd *acpwire.AgentCommand) error
	// PatchSession returns m with the adapter's additions merged into its
	// params, or m itself when there is nothing to add. It never removes or
	// replaces what the IDE sent.
	PatchSession(m *acpwire.Message) (*acpwire.Message, error)
	// Close releases what the adapter created (sockets, files).
	Close() error
}

// Config is what an adapter needs from the rest of the bridge.
type Config struct {
	// Rules is the policy's rule list in Claude Code permission-rule syntax;
	// optional.
	Rules Rules
	// Decider answers the tool calls agents report through hooks; optional,
	// if nil every hook call gets no opinion (the agent's own permission
	// flow, and the wire-level enforcement, apply).
	Decider Decider
	// Executable is the absolute path of the acp-bridge binary, which the
	// Claude Code hook runs as "<Executable> hook".
	Executable string
	// Root is the workspace root that relative rule paths are anchored to
	// in translations that need an absolute anchor (Gemini allow rules);
	// optional, if empty such rules are left to the wire-level check.
	Root string
	// Audit receives records of what the agent's own policy engine refused
	// under the bridge's rules; optional.
	Audit Recorder
	// Operator names the agent in audit records ("agent:gemini");
	// optional, defaults to the adapter name.
	Operator string
	// Logger receives what adapters do; nil means discard.
	Logger *slog.Logger
	// Protect is told of the files and sockets an adapter creates, which
	// the agent must not touch (governance.Engine.Protect); optional.
	Protect func(...governance.ProtectedPath)
	// Session returns the IDE's id for the session the agent names (after
	// a compression rollover the agent works in a session the bridge
	// opened, which the IDE and the audit log know by the id of the one
	// it continues) and whether the IDE opened that session and has not
	// closed it; optional, if nil every session is taken as the IDE's,
	// under the agent's id.
	Session func(agentSession string) (ide string, open bool)
}

// session is cfg.Session, or the agent's id as the IDE's when it is nil.
func (c *Config) session(agentSession string) (string, bool) {
	if c.Session == nil {
		return agentSession, true
	}
	return c.Session(agentSession)
}

// protect tells cfg.Protect of a location the adapter created, if anyone
// listens.
func (c *Config) protect(ps ...governance.ProtectedPath) {
	if c.Protect != nil {
		c.Protect(ps...)
	}
}

func (c *Config) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}

// New creates the adapter called name.
func New(name string, cfg Config) (Adapter, error) {
	switch name {
	case Claude:
		return newClaude(cfg)
	case Gemini:
		return newGemini(cfg)
	}
	return nil, fmt.Errorf("unknown adapter %q (known: %s)", name, strings.Join(Names(), ", "))
}

// DetectCommand returns the adapter for an agent command line (program and
// arguments), or "" when the agent is not one this package knows. It looks
// through the usual launchers (npx, pnpm dlx, bunx, node, env) for the
// package or script name.
func DetectCommand(argv []string) string {
	for i, a := range argv {
		base := filepath.Base(a)
		switch {
		case base == "claude-agent-acp" || base == "claude-code-acp" ||
			strings.Contains(a, "claude-agent-acp") || strings.Contains(a, "claude-code-acp"):
			return Claude
		case base == "gemini" || strings.HasPrefix(a, "@google/gemini-cli") || strings.Contains(a, "/gemini-cli/"):
			if hasACPFlag(argv[i+1:]) {
				return Gemini
			}
		}
	}
	return ""
}

func hasACPFlag(args []string) bool {
	for _, a := range args {
		if a == "--acp" || a == "--experimental-acp" {
			return true
		}
	}
	return false
}

// DetectAgentInfo returns the adapter for the agentInfo.name an agent reports
// in its initialize response, or "".
func DetectAgentInfo(name string) string {
	switch {
	case strings.Contains(name, "claude-agent-acp") || strings.Contains(name, "claude-code-acp"):
		return Claude
	case name == "gemini-cli" || strings.HasSuffix(name, "/gemini-cli"):
		return Gemini
	}
	return ""
}

// Options is what Open needs to set up the adapters of one bridge run.
type Options struct {
	// Mode is "auto" (recognise the agent from its command or its
	// initialize response), "none", or an adapter name; optional, if
	// empty, defaults to "auto".
	Mode string
	// Agent is the agent command, which the adapter in use may change.
	Agent *acpwire.AgentCommand
	// Config is passed to the adapters. Open sets its Decider and
	// Executable when there is something for a hook to do, and its Root,
	// if empty, to Agent.Dir or else the working directory.
	Config Config
	// Engine decides hook calls; optional, nil when no policy is loaded.
	Engine PolicyEngine
	// Sessions looks up the workspace roots and mode of an agent session
	// as the wire-level enforcement saw them; optional.
	Sessions Sessions
	// FailOpen keeps hook decisions when Config.Audit cannot be written.
	FailOpen bool
	// ReadLimit limits Claude's own reads of large files (Tier 1);
	// optional, a zero Threshold limits nothing. Open sets its OnLimit when
	// Events is set.
	ReadLimit ReadLimit
	// Events receives a Tier 1 event for each limited read; optional.
	Events *compress.EventLog
}

// Open creates the adapter Mode names (or recognises from the command)
// with a decider for its hooks (the policy engine, then the Tier 1 read
// limit, every decision audited) and spawns it into o.Agent. It returns
// nil for Mode "none". Close the selector when the bridge stops.
func Open(o Options) (*Selector, error) {
	cfg := o.Config
	logger := cfg.logger()
	name := ""
	switch {
	case o.Mode == "none":
		logger.Info("adapter: disabled (--adapter none); wire-level enforcement only")
		return nil, nil
	case o.Mode == "auto" || o.Mode == "":
		name = DetectCommand(append([]string{o.Agent.Path}, o.Agent.Args...))
	case slices.Contains(Names(), o.Mode):
		name = o.Mode
	default:
		return nil, fmt.Errorf("--adapter %q: want auto, none or one of %s", o.Mode, strings.Join(Names(), ", "))
	}
	auto := o.Mode == "auto" || o.Mode == ""
	if fork := dotEnvFork(append([]string{o.Agent.Path}, o.Agent.Args...)); name == "" && fork != "" {
		protectDotEnv(&cfg, fork)
	}
	if d := hookDecider(o); d != nil {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding the bridge's own path for the agent hook: %v", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		cfg.Decider, cfg.Executable = d, exe
	}
	if cfg.Root == "" {
		cfg.Root = o.Agent.Dir
	}
	if cfg.Root == "" {
		cfg.Root, _ = os.Getwd()
	}
	var a Adapter
	if name != "" {
		var err error
		if a, err = New(name, cfg); err != nil {
			return nil, err
		}
		if err := a.Spawn(o.Agent); err != nil {
			a.Close()
			return nil, err
		}
		logger.Info("adapter: in use", "adapter", name, "forced", !auto)
	}
	return NewSelector(a, auto, cfg), nil
}

// hookDecider builds what answers the agents' hooks: the policy engine,
// then Tier 1 for large reads, with every decision audited. It returns nil
// when there is nothing for a hook to do.
func hookDecider(o Options) Decider {
	if o.Engine == nil && o.ReadLimit.Threshold <= 0 {
		return nil
	}
	var d Decider = DeciderFunc(func(context.Context, ToolCall) (Decision, error) {
		return Decision{}, nil
	})
	if o.Engine != nil {
		d = PolicyDeciderIn(o.Engine, o.Sessions)
	}
	rl := o.ReadLimit
	if rl.Logger == nil {
		rl.Logger = o.Config.Logger
	}
	if events := o.Events; events != nil {
		rl.OnLimit = func(lr LimitedRead) {
			var files []string
			if lr.Copy != "" {
				files = []string{lr.Copy}
			}
			events.Add(compress.Event{Time: time.Now().UTC(), Session: o.Sessions.ideSession(lr.Session), Type: compress.EventTier1,
				Trigger: fmt.Sprintf("Claude Read of %s: %d tokens over the %d-token threshold; limited to %d of %d lines",
					lr.Path, lr.FileTokens, lr.Threshold, lr.Limit, lr.Lines),
				TokensBefore: lr.FileTokens, TokensAfter: lr.ShownTokens, TokensSaved: lr.FileTokens - lr.ShownTokens, Files: files})
		}
	}
	d = LimitLargeReads(d, rl)
	if o.Config.Audit != nil {
		d = Audited(d, o.Config.Audit, AuditOptions{FailOpen: o.FailOpen, Operator: o.Config.Operator, Logger: o.Config.Logger, Sessions: o.Sessions})
	}
	return d
}

// Selector holds the adapter in use for one bridge run: fixed at start
// (forced, or recognised from the command), or chosen when the agent's
// initialize response names it. It is safe for concurrent use.
type Selector struct {
	cfg    Config
	auto   bool
	logger *slog.Logger

	mu     sync.Mutex // guards active and claimed
	active Adapter
	// claimed says active was chosen from what the agent says it is (its
	// initialize response), not by the bridge's operator.
	claimed bool
}

// NewSelector returns a selector whose adapter is a (nil: none yet). When
// auto is true and a is nil, the adapter is chosen from the initialize
// response's agentInfo, created with cfg.
func NewSelector(a Adapter, auto bool, cfg Config) *Selector {
	return &Selector{cfg: cfg, auto: auto, logger: cfg.logger(), active: a}
}

// Active returns the adapter in use, or nil.
func (s *Selector) Active() Adapter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active
}

// PreToolHook reports whether the bridge installed a hook in the agent it
// started, which the agent asks before each of its own tool calls (Claude
// Code with a decider). The wire-level enforcement can then leave a denied
// tool call the agent reports to the hook, which is asked before the tool
// runs and tells the model why, instead of cancelling the turn. An adapter
// chosen from the agent's own initialize response never counts: what the
// agent says it is must not relax the wire-level enforcement.
func (s *Selector) PreToolHook() bool {
	s.mu.Lock()
	a, claimed := s.active, s.claimed
	s.mu.Unlock()
	c, ok := a.(*claude)
	return ok && c.hook != nil && !claimed
}

// Close closes the adapter in use, if any.
func (s *Selector) Close() error {
	if a := s.Active(); a != nil {
		return a.Close()
	}
	return nil
}

// noteAgentInfo picks an adapter from an initialize response when none is
// in use yet.
func (s *Selector) noteAgentInfo(m *acpwire.Message) {
	name, _ := m.GetString("result", "agentInfo", "name")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil || !s.auto {
		return
	}
	which := DetectAgentInfo(name)
	if which == "" {
		s.logger.Info("adapter: agent not recognised, wire-level enforcement only", "agentInfo", name)
		return
	}
	a, err := New(which, s.cfg)
	if err != nil {
		s.logger.Error("adapter: cannot start adapter recognised from agentInfo", "adapter", which, "err", err)
		return
	}
	if which == Gemini {
		s.logger.Warn("adapter: gemini recognised from agentInfo after it started, so its native policy file was not passed; start gemini directly or use --adapter gemini", "agentInfo", name)
	}
	s.logger.Info("adapter: recognised agent from agentInfo", "adapter", which, "agentInfo", name)
	s.active, s.claimed = a, true
}

// observer is implemented by adapters that watch what the agent reports
// (its session/update notifications). Observe must not block for long and
// must not change m.
type observer interface {
	Observe(m *acpwire.Message)
}

// sessionMethods are the requests whose params an adapter may patch.
var sessionMethods = []string{"session/new", "session/load", "session/resume", "session/fork"}

func isSessionOpen(m *acpwire.Message) bool {
	for _, meth := range sessionMethods {
		if m.IsRequest(meth) {
			return true
		}
	}
	return false
}

// Middleware recognises the agent from its initialize response (when the
// selector is automatic) and lets the active adapter patch the session
// requests. A patch that fails is answered with an error to the IDE and the
// request never reaches the agent: a session the policy cannot be applied to
// is not opened. Neither the middleware nor an adapter's Observe or
// PatchSession keeps a message or slices of its bytes after handling it
// (they read it, or decode copies of it, and write audit records
// synchronously), so it may be added with Bridge.UseNonRetaining; adapters
// must keep it so.
func Middleware(sel *Selector, s acpwire.Sender) acpwire.Middleware {
	return func(next acpwire.Handler) acpwire.Handler {
		return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
			switch {
			case m.IsNotification("session/update"):
				if o, ok := sel.Active().(observer); ok {
					o.Observe(m)
				}
			case m.IsResponseTo("initialize"):
				sel.noteAgentInfo(m)
			case isSessionOpen(m):
				a := sel.Active()
				if a == nil {
					break
				}
				patched, err := a.PatchSession(m)
				if err != nil {
					sel.logger.Error("adapter: cannot apply the policy to the session", "adapter", a.Name(), "method", m.Method, "err", err)
					return s.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams,
						"acp-bridge: cannot apply the policy to the %s session: %v", a.Name(), err))
				}
				m = patched
			}
			return next.Handle(ctx, m)
		})
	}
}

// decodeObject is decodeStrict into v for a raw value that must be an
// object, with a short error.
func decodeObject(raw []byte, v any) error {
	if len(raw) == 0 || raw[0] != '{' {
		return fmt.Errorf("not a JSON object")
	}
	return decodeStrict(raw, v)
}
