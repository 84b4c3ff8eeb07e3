package governance

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// Recorder is where Enforce writes its audit records; *audit.Log is one.
// Methods are called from both directions' handlers and must be safe for
// concurrent use.
type Recorder interface {
	// Append records ev in order; it may return before ev is on disk.
	Append(ev audit.Event) error
	// AppendSync returns once ev is on stable storage. Enforce calls it
	// for every decision before the decision takes effect on the wire.
	AppendSync(ev audit.Event) error
	// Healthy returns nil while the log can be written.
	Healthy() error
}

// EnforceOptions configures Enforce.
type EnforceOptions struct {
	// Manifest is the ACP.md the bridge enforces; optional (nil: one that
	// withholds nothing). An agent's call that needs a capability it
	// withholds (the file system, the terminal) is refused and recorded
	// here, before it is judged: manifest.Mask, nearer the IDE, would
	// refuse it after the log recorded it as allowed, or the person was
	// asked about it.
	Manifest *manifest.Manifest
	// Engine decides; optional. Without one the middleware only records:
	// permission requests go to the person, everything else passes, and
	// --audit-fail closed still refuses tool permissions and writes while
	// the log is down.
	Engine *Engine
	// Sender answers requests and sends the bridge's own messages;
	// required. If it also has Send(dir, raw) (as *acpwire.Bridge does),
	// refused batches get error responses.
	Sender acpwire.Sender
	// Audit receives the records; optional, nil records nothing.
	Audit Recorder
	// FailOpen keeps the policy's decisions when the audit log cannot be
	// written. By default (false) every tool permission, file write and
	// terminal is denied until the log recovers.
	FailOpen bool
	// Operator is the audit actor id of the agent; optional, defaults to
	// "agent".
	Operator string
	// Logger receives diagnostics; optional, nil discards them.
	Logger *slog.Logger
	// MaxSessions bounds the sessions governed at once; optional, if zero,
	// defaults to DefaultMaxSessions. Opening one more forgets the one
	// the IDE used least recently (see enforce_evict.go).
	MaxSessions int
	// AgentHook reports whether the bridge itself installed a pre-tool
	// hook in the agent (Claude Code's PreToolUse hook deciding with the
	// same engine); optional. It must never depend on what the agent says
	// of itself. While it reports true, a denied tool_call is hidden from
	// the IDE and left to the hook to refuse, without cancelling the turn;
	// if the agent reports the call in progress or completed, it was not
	// refused, and the turn is cancelled then.
	AgentHook func() bool
}

// Actors of the records Enforce writes.
var (
	actorBridge = audit.Actor{ID: "acp-bridge", Role: "policy"}
	actorUser   = audit.Actor{ID: "user:ide", Role: "approver"}
)

// Enforce returns middleware that applies the engine's decisions at every
// point of the ACP stream where an agent acts:
//
//   - session/request_permission: allow answers with the agent's allow_once
//     option without asking; deny answers with reject_once (or cancelled);
//     require-approval and escalate go to the IDE, and the person's choice
//     is recorded as the approval.
//   - fs/read_text_file, fs/write_text_file, terminal/create: deny answers
//     with a JSON-RPC error, so the call never reaches the IDE;
//     require-approval asks the IDE with a permission request of the
//     bridge's own first.
//   - session/new, load, resume, fork: a cwd or additional directory
//     outside the workspace roots is refused.
//   - tool_call updates (tools the agent runs without asking): a denied
//     call is not forwarded; the bridge records a violation, cancels the
//     turn and tells the user why. Later updates of that call are dropped.
//   - mcp/message: a tools/call the agent sends an MCP server the IDE
//     offered is decided as the tool mcp__server__tool (enforce_mcp.go).
//   - session/cancel: permission requests still waiting for the person are
//     answered cancelled.
//   - session modes (the session/new result's, an answered
//     session/set_mode, the agent's current_mode_update) are followed for
//     the agent's hook, which must know whether the agent asks the person
//     (see Enforcer.Mode).
//
// Updates replayed by session/load are recorded as replays, never enforced
// as new executions. Batches holding a governed method are refused. Every
// decision is written to the audit log (AppendSync) before it takes effect.
func Enforce(opts EnforceOptions) acpwire.Middleware {
	return NewEnforcer(opts).Middleware()
}

// Enforcer is the state behind Enforce: what it knows of sessions, tool
// calls and permission requests in flight. Use NewEnforcer when the bridge
// must also call Close at shutdown; otherwise Enforce is enough.
type Enforcer struct {
	opts   EnforceOptions
	engine *Engine
	send   acpwire.Sender
	rec    Recorder
	log    *slog.Logger
	agent  audit.Actor

	loadingN atomic.Int32 // number of session/load requests pending
	// displayTerminals says the IDE makes display-only terminals the
	// agent's tool calls name (enforce_displayterm.go).
	displayTerminals atomic.Bool

	mu       sync.Mutex // guards the maps below
	sessions map[string]*sessionState
	calls    map[string]*callState // by callKey(session, toolCallId)
	stopped  map[string]bool       // calls the bridge stopped that ended, by callKey
	order    []string              // keys of calls, oldest first (some may be gone)
	// keptTotal is the sum of kept over calls.
	keptTotal int
	perms     map[string]*permState              // forwarded permission requests, by request id
	opens     map[string]*openState              // session/new|load|resume|fork requests, by request id
	setModes  map[string]pendingMode             // session/set_mode requests, by request id (enforce_mode.go)
	prompts   map[string]string                  // session/prompt request id -> session id
	asks      map[string]context.CancelCauseFunc // the bridge's own permission asks, by "session:"+id and "request:"+id
	opened    openSessions                       // sessions the IDE opened and has not closed, least recently used first (enforce_evict.go)
	forgotten openSessions                       // the latest sessions forgotten as least recently used, oldest first
	evictions []eviction                         // sessions forgotten, to report once x.mu is released
	terminals map[string]bool                    // terminals the IDE created, by terminalKey (enforce_terminal.go)
	// terminalOrder holds the keys of terminals, oldest first.
	terminalOrder []string
	askSeq        int
	chosen        []string             // directories the IDE named in this run, cleaned (enforce_listed.go)
	listed        map[string]bool      // directories taken out of the agent's session lists, cleaned
	listedFull    bool                 // listed reached maxChosen: every directory counts as listed
	mcpServers    map[string]mcpServer // MCP servers the IDE offered over ACP, by serverId (enforce_mcp.go)
}

// NewEnforcer returns an Enforcer; see Enforce for what it does.
func NewEnforcer(opts EnforceOptions) *Enforcer {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	op := opts.Operator
	if op == "" {
		op = "agent"
	}
	return &Enforcer{
		opts: opts, engine: opts.Engine, send: opts.Sender, rec: opts.Audit, log: lg,
		agent:    audit.Actor{ID: op, Role: "operator"},
		sessions: map[string]*sessionState{}, calls: map[string]*callState{}, stopped: map[string]bool{},
		perms: map[string]*permState{}, opens: map[string]*openState{}, setModes: map[string]pendingMode{},
		prompts: map[string]string{}, asks: map[string]context.CancelCauseFunc{}, opened: newOpenSessions(), forgotten: newOpenSessions(),
		terminals: map[string]bool{}, listed: map[string]bool{},
	}
}

// Middleware returns the enforcing middleware.
func (x *Enforcer) Middleware() acpwire.Middleware { return x.middleware }

// Wrap implements acpwire.Wrapper: an Enforcer added with Bridge.Use (or
// UseFailClosed) enforces, and is registered for cancellations as an
// acpwire.Preempter (see Preempt). It keeps copies of what it records or
// remembers of a message, never the message's bytes, and settles each
// message's fate before its handler returns, so it may be added with
// UseFailClosedNonRetaining, as the bridge command does.
func (x *Enforcer) Wrap(next acpwire.Handler) acpwire.Handler { return x.middleware(next) }

func (x *Enforcer) middleware(next acpwire.Handler) acpwire.Handler {
	return acpwire.HandlerFunc(func(ctx context.Context, m *acpwire.Message) error {
		if refused, err := x.checkOpened(m); refused {
			return err
		}
		if refused, err := x.checkNamedSession(m); refused {
			return err
		}
		if refused, err := x.checkWithheld(m); refused {
			return err
		}
		if m.Dir == acpwire.ClientToAgent && (m.Kind == acpwire.KindRequest || m.Kind == acpwire.KindNotification) && isNESMethod(m.Method) {
			return x.refuseNESMessage(m)
		}
		switch m.Kind {
		case acpwire.KindNotification:
			switch m.Method {
			case "session/update":
				if m.Dir == acpwire.AgentToClient {
					return x.onUpdate(ctx, m, next)
				}
			case "session/cancel":
				if m.Dir == acpwire.ClientToAgent {
					x.onCancel(m)
				}
			case "mcp/message":
				if m.Dir == acpwire.AgentToClient {
					return x.onMCPMessage(ctx, m, next)
				}
			}
		case acpwire.KindRequest:
			if m.Dir == acpwire.AgentToClient {
				switch m.Method {
				case "session/request_permission":
					return x.onPermission(ctx, m, next)
				case "fs/read_text_file", "fs/write_text_file", "terminal/create":
					return x.onClientCall(ctx, m, next)
				case "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release":
					return x.checkTerminalUse(ctx, m, next)
				case "elicitation/create":
					return x.onElicitation(ctx, m, next)
				case "mcp/message":
					return x.onMCPMessage(ctx, m, next)
				}
			} else {
				switch m.Method {
				case "session/new", "session/load", "session/resume", "session/fork":
					return x.onOpen(ctx, m, next)
				case "session/prompt":
					return x.onPrompt(ctx, m, next)
				case "session/close", "session/delete":
					x.onClose(m)
				case "session/list":
					x.onListRequest(m)
				case "session/set_mode":
					if refused, err := x.onSetMode(m); refused {
						return err
					}
				case "session/set_config_option":
					if refused, err := x.onSetConfig(m); refused {
						return err
					}
				case "initialize":
					return x.onInitialize(ctx, m, next)
				}
			}
		case acpwire.KindResponse:
			switch {
			case m.IsResponseTo("session/request_permission"):
				return x.onPermissionResponse(ctx, m, next)
			case m.IsResponseTo("session/new"), m.IsResponseTo("session/load"),
				m.IsResponseTo("session/resume"), m.IsResponseTo("session/fork"):
				if refused, err := x.refuseTakenSession(ctx, m, next); refused {
					return err
				}
				x.onOpened(m)
			case m.IsResponseTo("session/prompt"):
				x.onPromptDone(m)
			case (m.IsResponseTo("session/set_mode") || m.IsResponseTo("session/set_config_option")) && m.Dir == acpwire.AgentToClient:
				x.onModeSet(m)
			case m.IsResponseTo("session/list") && m.Dir == acpwire.AgentToClient:
				return x.onListed(ctx, m, next)
			case m.IsResponseTo("initialize") && m.Dir == acpwire.AgentToClient:
				if refused, err := x.refuseProtocolVersion(ctx, m, next); refused {
					return err
				}
				return x.onInitializedAnswer(ctx, m, next)
			case m.IsResponseTo("terminal/create"):
				x.onTerminalCreated(m)
				x.onTerminalAnswered(m)
			case m.IsResponseTo("fs/write_text_file"):
				x.onWriteAnswered(m)
			case m.IsResponseTo("terminal/wait_for_exit"), m.IsResponseTo("terminal/output"), m.IsResponseTo("terminal/release"):
				x.onTerminalAnswered(m)
			}
		case acpwire.KindBatch:
			return x.onBatch(ctx, m, next)
		}
		return next.Handle(ctx, m)
	})
}
