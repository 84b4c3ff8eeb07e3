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
	"syscall"
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
		"audit":      {"check and review audit logs: verify, repair, sessions, show, tail", runAudit},
		"bridge":     {"run the bridge (the default when the first argument is a flag or --)", runBridge},
		"demo":       {"run a whole session with built-in client and agent, and print what happened", runDemo},
		"demo-agent": {"serve the built-in demo agent on stdin/stdout", runDemoAgent},
		"hook":       {"answer Claude Code's PreToolUse hook with the running bridge's decision (run by the agent)", runHook},
		"policy":     {"check a governance policy: the decision for a request and the rule that made it", runPolicy},
		"replay":     {"act as an agent that replays the agent side of a recorded transcript", runReplay},
		"validate":   {"check ACP.md manifests and print every problem (file:line:col)", runValidate},
		"help":       {"list subcommands", runHelp},
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
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(os.Stderr, "acp-bridge: %v\n", ee.err)
		}
		os.Exit(ee.code)
	}
	fmt.Fprintf(os.Stderr, "acp-bridge: %v\n", err)
	os.Exit(1)
}

// run dispatches to a subcommand. With no subcommand name (the first argument
// is a flag or "--"), it runs the bridge.
func run(ctx context.Context, e *env, args []string) error {
	cmds := commands()
	if len(args) == 0 {
		return runHelp(ctx, e, nil)
	}
	name := args[0]
	if c, ok := cmds[name]; ok {
		return c.run(ctx, e, args[1:])
	}
	if name == "-h" || name == "--help" {
		return runHelp(ctx, e, nil)
	}
	if name == "--" || (len(name) > 0 && name[0] == '-') {
		return runBridge(ctx, e, args)
	}
	return &exitError{code: 2, err: fmt.Errorf("unknown subcommand %q (run 'acp-bridge help')", name)}
}

// subcommandFlags returns a flag set for a subcommand that reports errors
// to stderr, prints usage there, and returns instead of exiting.
func subcommandFlags(e *env, name string, usage func(w io.Writer)) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { usage(e.stderr) }
	return fs
}

func runHelp(_ context.Context, e *env, _ []string) error {
	fmt.Fprintln(e.stdout, "usage: acp-bridge [flags] -- <agent command> [args...]")
	fmt.Fprintln(e.stdout, "       acp-bridge <subcommand> [flags] [args...]")
	fmt.Fprintln(e.stdout, "\nsubcommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(e.stdout, "  %-10s %s\n", n, cmds[n].summary)
	}
	return nil
}
