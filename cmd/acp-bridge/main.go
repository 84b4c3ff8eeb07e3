// Command acp-bridge sits between an ACP client (an IDE such as Zed) and an ACP
// agent it spawns, forwarding the Agent Client Protocol stream faithfully while
// applying the declared manifest, the governance policy and context compression.
//
// Usage:
//
//	acp-bridge [flags] -- <agent command> [args...]
//	acp-bridge <subcommand> [flags] [args...]
//
// Run "acp-bridge help" for the list of subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// command is one subcommand of acp-bridge. Each lives in its own file.
type command struct {
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env is what a subcommand may touch of the outside world; tests replace it.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// commands is the subcommand table. Keep one line per subcommand, sorted.
func commands() map[string]command {
	return map[string]command{
		"aacp":       {"validate and encode AACP packets", runAACP},
		"accp":       {"encode, decode and measure ACCP frames", runACCP},
		"audit":      {"check and review audit logs: verify, repair, sessions, show, tail, serve, export", runAudit},
		"bridge":     {"run the bridge (the default when the first argument is a flag or --)", runBridge},
		"demo":       {"run a whole session with built-in client and agent, and print what happened", runDemo},
		"demo-agent": {"serve the built-in demo agent on stdin/stdout", runDemoAgent},
		"hook":       {"answer Claude Code's PreToolUse hook with the running bridge's decision (run by the agent)", runHook},
		"policy":     {"check a governance policy: the decision for a request and the rule that made it", runPolicy},
		"replay":     {"act as an agent that replays the agent side of a recorded transcript", runReplay},
		"validate":   {"check ACP.md manifests and GOVERNANCE.md/POLICY.md policies, every problem as file:line:col", runValidate},
		"version":    {"print the module version and the commit it was built from", runVersion},
		"help":       {"list subcommands and the bridge's flags; help COMMAND shows a command's usage", runHelp},
	}
}

// exitError carries a specific process exit status out of run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	if err == nil {
		return
	}
	stop()
	os.Exit(reportError(os.Stderr, err))
}

// reportError prints err, the error run returned, to w and returns the
// exit status. The message may quote a policy, a manifest, a log or the
// agent: it is made printable (audit.PrintableLines).
func reportError(w io.Writer, err error) int {
	w = audit.PrintableLines(w)
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(w, "acp-bridge: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(w, "acp-bridge: %v\n", err)
	return 1
}

// run dispatches to a subcommand. With no subcommand name (the first argument
// is a flag or "--"), it runs the bridge. A command that printed its usage
// because it was asked to (-h, --help) has succeeded.
func run(ctx context.Context, e *env, args []string) error {
	err := dispatch(ctx, e, args)
	if errors.Is(err, errHelpShown) {
		return nil
	}
	return err
}

func dispatch(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		// An IDE configured with no agent command: say so, and fail.
		printHelp(e.stderr)
		return &exitError{code: 2}
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		printHelp(e.stdout)
		return nil
	case "--version", "-version":
		return runVersion(ctx, e, args[1:])
	}
	if c, ok := commands()[name]; ok {
		return c.run(ctx, e, args[1:])
	}
	if name == "--" || strings.HasPrefix(name, "-") {
		return runBridge(ctx, e, args)
	}
	return unknownCommand(e, name)
}

// subcommandFlags returns a flag set for a subcommand whose usage, written
// by usage to the flag set's output, is shown by parseFlags.
func subcommandFlags(e *env, name string, usage func(w io.Writer)) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { usage(fs.Output()) }
	return fs
}

// runHelp implements "acp-bridge help [COMMAND]".
func runHelp(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && !isHelp(args[0]) {
		if _, ok := commands()[args[0]]; !ok || args[0] == "help" {
			return unknownCommand(e, args[0])
		}
		return run(ctx, e, []string{args[0], "--help"})
	}
	printHelp(e.stdout)
	return nil
}

// printHelp writes what acp-bridge is, its subcommands and the bridge's
// flags.
func printHelp(w io.Writer) {
	fmt.Fprint(w, `acp-bridge sits between an IDE and an ACP coding agent: the IDE starts acp-bridge, which starts
the agent and forwards the Agent Client Protocol between them, applying a manifest, a governance
policy, an audit log and context compression when asked to.

usage: acp-bridge [flags] -- <agent command> [args...]
       acp-bridge <command> [flags] [args...]

commands:
`)
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	printCommands(w, names, func(n string) string { return cmds[n].summary })
	fmt.Fprintln(w, "\nbridge flags (before --):")
	fs, _, _ := bridgeFlagSet(&env{stdout: w, stderr: w})
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nRun 'acp-bridge help COMMAND' for a command's usage. Documentation: docs/ in the source repository.")
}
