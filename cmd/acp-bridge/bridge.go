package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/compress"
	"github.com/acp-bridge/acp-bridge/internal/governance"
	"github.com/acp-bridge/acp-bridge/internal/manifest"
)

// feature is one optional capability of the bridge command (manifest,
// governance, compression, agent adapters), each defined in its own file.
type feature struct {
	name string
	// flags registers the feature's flags on fs.
	flags func(fs *flag.FlagSet)
	// setup runs in feature order after flags are parsed and before the
	// agent starts. It may add middleware, change the agent command, fill
	// fields of s for later features, and register cleanups.
	setup func(ctx context.Context, s *bridgeSetup) error
}

// bridgeFeatures lists the features in the order their middleware sees each
// message.
func bridgeFeatures() []feature {
	return []feature{manifestFeature(), governanceFeature(), agentInfoFeature(), compressFeature(), adapterFeature(), otelFeature()}
}

// bridgeSetup is what features share while the bridge is being assembled.
type bridgeSetup struct {
	// Bridge is the bridge; features add middleware with Bridge.Use.
	Bridge *acpwire.Bridge
	// Agent is the command that will be started; features may change it.
	Agent *acpwire.AgentCommand
	// Logger is the bridge's logger.
	Logger *slog.Logger
	// Stderr is where user-facing diagnostics go.
	Stderr io.Writer
	// Protected are the bridge's own files (--record, --log-file), which the
	// agent may not touch, reads included: the recording holds every message
	// both ways, the log what the bridge decided and why. Set before the
	// features run.
	Protected []governance.ProtectedPath
	// Manifest is the ACP.md the bridge enforces; set by the manifest feature.
	Manifest *manifest.Manifest
	// Governance is the policy engine, audit log and fail mode; set by the governance feature.
	Governance *governance.Setup
	// Compression is the context compression pipeline; set by the compression feature, nil when off.
	Compression *compress.Pipeline
	// PreToolHook reports whether the agent asks the bridge before each of its own tool calls (Claude's hook); set by the adapters feature.
	PreToolHook func() bool
	// OnRefused hear of every message the wire layer refuses before any middleware sees it (acpwire.Options.OnRefused),
	// in the order features added them: governance audits them, and governance and compression forget what a request
	// the bridge answered in the agent's place would have opened.
	OnRefused []func(acpwire.Refusal)
	// OnAnswered hear of every IDE request the bridge answers in the agent's place (acpwire.Options.OnAnswered),
	// in the order features added them: governance and compression settle what the request opened or started, as
	// the agent's answer would have, when a feature nearer the agent (compression, the adapters) gave that answer.
	OnAnswered []func(req *acpwire.Message, resp []byte)

	cleanups []func()
}

// onExit registers fn to run when the bridge stops, in reverse order.
func (s *bridgeSetup) onExit(fn func()) { s.cleanups = append(s.cleanups, fn) }

// closeOnExit registers close to run when the bridge stops; its error is
// logged as a warning about what.
func (s *bridgeSetup) closeOnExit(what string, close func() error) {
	s.onExit(func() {
		if err := close(); err != nil {
			s.Logger.Warn(what, "err", err)
		}
	})
}

// protect keeps p from the agent when a policy is enforced: the files the
// features write.
func (s *bridgeSetup) protect(p governance.ProtectedPath) {
	if s.Governance != nil && s.Governance.Engine != nil {
		s.Governance.Engine.Protect(p)
	}
}

// bridgeFlags are the wire-level options of the bridge command.
type bridgeFlags struct {
	record            string
	logFile           string
	logLevel          string
	maxLineSize       int
	initializeTimeout time.Duration
}

// ownFiles are the files the bridge itself writes, and its own program, as
// the agent may not touch them.
func (f *bridgeFlags) ownFiles() []governance.ProtectedPath {
	out := ownProgram()
	if f.record != "" {
		out = append(out, governance.ProtectedPath{Path: f.record, What: "the bridge's wire recording", Read: true})
	}
	if f.logFile != "" {
		out = append(out, governance.ProtectedPath{Path: f.logFile, What: "the bridge's log", Read: true})
	}
	return out
}

func (f *bridgeFlags) register(fs *flag.FlagSet, defaultLevel string) {
	fs.StringVar(&f.record, "record", "", "append every message to `FILE` as JSONL {ts, dir, msg}")
	fs.StringVar(&f.logFile, "log-file", "", "write logs to `FILE` (default: stderr)")
	fs.StringVar(&f.logLevel, "log-level", defaultLevel, "log level: debug, info, warn, error")
	fs.IntVar(&f.maxLineSize, "max-line-size", acpwire.DefaultMaxLineSize, "largest message accepted, in `bytes`")
	fs.DurationVar(&f.initializeTimeout, "initialize-timeout", acpwire.DefaultInitializeTimeout, "how long the agent may take to answer initialize")
}

// runBridge runs the bridge between the IDE on stdin/stdout and the agent
// given after "--".
func runBridge(ctx context.Context, e *env, args []string) error {
	fs, f, features := bridgeFlagSet(e)
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError(e, "acp-bridge", "no agent command: acp-bridge [flags] -- <agent command> [args...]")
	}
	tuneGC()
	br, err := prepareBridge(ctx, e, f, features, fs.Args())
	if err != nil {
		return err
	}
	defer br.close()
	return br.run(ctx, acpwire.Endpoint{In: e.stdin, Out: e.stdout})
}

// bridgeFlagSet returns the bridge command's flag set, with the wire flags
// and every feature's; its usage is the full help.
func bridgeFlagSet(e *env) (*flag.FlagSet, *bridgeFlags, []feature) {
	fs := flag.NewFlagSet("acp-bridge", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { printHelp(fs.Output()) }
	f := &bridgeFlags{}
	f.register(fs, "info")
	features := bridgeFeatures()
	for _, ft := range features {
		ft.flags(fs)
	}
	return fs, f, features
}

// bridgeGCPercent is the garbage collector target the bridge runs with unless
// the user set GOGC. Forwarding allocates every message afresh (middleware
// may keep them), so a stream allocates hundreds of megabytes over a live
// heap of a few; with Go's default of 100 the collector would run every few
// megabytes. A larger target trades a few megabytes of heap for far fewer
// collections.
const bridgeGCPercent = 300

// bridgeMemoryLimit is the soft memory limit the bridge runs with unless
// the user set GOMEMLIMIT. With bridgeGCPercent the heap may grow to four
// times what is live between collections; near the limit the collector
// runs sooner instead, so the bridge's RSS stays flat whatever the features
// keep (docs/performance.md, "Soak": with every feature on, 120 MB peak
// without it, 75 MB with it, for 5% more CPU).
const bridgeMemoryLimit = 64 << 20

// tuneGC applies bridgeGCPercent and bridgeMemoryLimit, unless GOGC or
// GOMEMLIMIT is set in the environment, in which case the user's setting
// stands.
func tuneGC() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(bridgeMemoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(bridgeGCPercent)
}

// preparedBridge is a bridge with its features set up, ready to start the
// agent.
type preparedBridge struct {
	setup   *bridgeSetup
	closers []func()
}

// prepareBridge opens the log and recording, creates the bridge and runs
// every feature's setup.
func prepareBridge(ctx context.Context, e *env, f *bridgeFlags, features []feature, agentArgs []string) (_ *preparedBridge, err error) {
	br := &preparedBridge{}
	defer func() {
		if err != nil {
			br.close()
		}
	}()
	logger, logFile, closeLog, err := openLogger(f.logFile, f.logLevel, e.stderr)
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	br.closers = append(br.closers, closeLog)

	var record io.Writer
	if f.record != "" {
		rf, err := openOwnFile(f.record)
		if err != nil {
			return nil, &exitError{code: 2, err: fmt.Errorf("opening --record file: %v", err)}
		}
		br.closers = append(br.closers, func() { rf.Close() })
		record = rf
	}

	b := acpwire.New(acpwire.Options{
		MaxLineSize:       f.maxLineSize,
		InitializeTimeout: f.initializeTimeout,
		Record:            record,
		Logger:            logger,
		OnRefused: func(r acpwire.Refusal) {
			for _, fn := range br.setup.OnRefused {
				fn(r)
			}
		},
		OnAnswered: func(req *acpwire.Message, resp []byte) {
			for _, fn := range br.setup.OnAnswered {
				fn(req, resp)
			}
		},
	})
	// The agent's stderr goes to the bridge's stderr and to the log file,
	// each line printable and marked as the agent's (agentStderr).
	stderrCopy := io.Writer(e.stderr)
	if logFile != nil {
		stderrCopy = io.MultiWriter(e.stderr, logFile)
	}
	agentCmd := &acpwire.AgentCommand{Path: agentArgs[0], Args: agentArgs[1:], Stderr: agentStderr(stderrCopy), Logger: logger}
	// Diagnostics quote the policy, the manifest and the agent: made
	// printable, as the bridge's log lines are.
	br.setup = &bridgeSetup{Bridge: b, Agent: agentCmd, Logger: logger, Stderr: audit.PrintableLines(e.stderr), Protected: f.ownFiles()}
	for _, ft := range features {
		if err := ft.setup(ctx, br.setup); err != nil {
			return nil, &exitError{code: 2, err: fmt.Errorf("%s: %w", ft.name, err)}
		}
	}
	return br, nil
}

// run starts the agent and bridges it to the client until the session ends.
func (br *preparedBridge) run(ctx context.Context, client acpwire.Endpoint) error {
	// A write to a closed stdout must come back as an error, not kill the
	// bridge before it has stopped the agent. Catching SIGPIPE does that;
	// ignoring it would be inherited by the agent and every tool it runs
	// (`yes | head -1` would then fail with "Broken pipe").
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	agent, err := acpwire.StartAgent(*br.setup.Agent)
	if err != nil {
		// The IDE is waiting on initialize: tell it why, then exit.
		e := acpwire.Errorf(acpwire.CodeInternalError, "acp-bridge could not start the agent: %v", err)
		br.setup.Bridge.AnswerWithoutAgent(ctx, client, e, noAgentWait)
		return &exitError{code: 1, err: err}
	}
	err = br.setup.Bridge.Run(ctx, client, agent)
	var gone *acpwire.AgentExitError
	if errors.As(err, &gone) {
		return &exitError{code: 1, err: err}
	}
	return err
}

// noAgentWait is how long the bridge waits for the IDE's first request to
// answer it when the agent could not be started.
const noAgentWait = 10 * time.Second

// close runs the features' cleanups, then closes the log and recording.
func (br *preparedBridge) close() {
	if br.setup != nil {
		for i := len(br.setup.cleanups) - 1; i >= 0; i-- {
			br.setup.cleanups[i]()
		}
		br.setup.cleanups = nil
	}
	for i := len(br.closers) - 1; i >= 0; i-- {
		br.closers[i]()
	}
	br.closers = nil
}

// openLogger returns a text logger writing to path, or to stderr if path is
// empty, with the log file (nil for stderr) and a function that closes it.
func openLogger(path, level string, stderr io.Writer) (*slog.Logger, io.Writer, func(), error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, nil, nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	// Log lines quote the agent's text: it is made printable, as in every
	// view of the audit log.
	opts := &slog.HandlerOptions{Level: lvl, ReplaceAttr: audit.PrintableAttr}
	if path == "" {
		return slog.New(slog.NewTextHandler(stderr, opts)), nil, func() {}, nil
	}
	f, err := openOwnFile(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("opening --log-file: %v", err)
	}
	return slog.New(slog.NewTextHandler(f, opts)), f, func() { f.Close() }, nil
}
