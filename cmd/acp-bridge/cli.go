package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/agnivade/levenshtein"
)

// errHelpShown ends a subcommand whose usage was asked for (-h, --help) and
// printed. run turns it into success: asking for help is not a failure.
var errHelpShown = errors.New("help shown")

// parseFlags parses args with fs the way every subcommand does, so they all
// behave like the command-line tools users know: -h or --help prints the
// usage once, on stdout, and the command ends with status 0 (errHelpShown);
// a bad flag prints the flag package's one-line error and one line pointing
// at --help, not the whole flag list, with status 2.
//
// fs.Usage must write to fs.Output(), which is stdout while help is shown.
func parseFlags(e *env, fs *flag.FlagSet, args []string) error {
	usage := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error
	fs.SetOutput(e.stderr)
	err := fs.Parse(args)
	fs.Usage = usage
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		return showHelp(e, fs)
	}
	return usageError(e, commandLine(fs), "")
}

// showHelp prints fs's usage on stdout and returns errHelpShown.
func showHelp(e *env, fs *flag.FlagSet) error {
	fs.SetOutput(e.stdout)
	if fs.Usage != nil {
		fs.Usage()
	} else {
		fmt.Fprintf(e.stdout, "usage: %s [flags]\n", commandLine(fs))
		fs.PrintDefaults()
	}
	fs.SetOutput(e.stderr)
	return errHelpShown
}

// usageError reports a mistake in how a command was called: msg (if any),
// then one line naming the command's --help, with status 2. The flag
// package has already printed its own message for flag errors.
func usageError(e *env, command, msg string) error {
	if msg != "" {
		fmt.Fprintf(e.stderr, "acp-bridge: %s\n", msg)
	}
	fmt.Fprintf(e.stderr, "run '%s --help' for usage\n", command)
	return &exitError{code: 2}
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "help"
}

// commandLine is how the user typed the command fs parses, e.g.
// "acp-bridge audit verify".
func commandLine(fs *flag.FlagSet) string {
	name := fs.Name()
	if name == "acp-bridge" || strings.HasPrefix(name, "acp-bridge ") {
		return name
	}
	return "acp-bridge " + name
}

// newFlags returns a flag set for the command "acp-bridge NAME" whose usage
// is the synopsis (with the description under it, if any) followed by the
// flags.
func newFlags(e *env, name, synopsis, description string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: %s\n", synopsis)
		if description != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimRight(description, "\n"))
		}
		if hasFlags(fs) {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// hasFlags reports whether fs defines any flag.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// unknownCommand answers a first word that is neither a subcommand nor a
// flag: most often an agent command given without "--" before it, or a
// misspelt subcommand.
func unknownCommand(e *env, name string) error {
	if near := nearestCommand(name); near != "" {
		return usageError(e, "acp-bridge", fmt.Sprintf("unknown command %q: did you mean %s?", name, near))
	}
	fmt.Fprintf(e.stderr, "acp-bridge: unknown command %q\n", name)
	fmt.Fprintf(e.stderr, "to run an agent, put its command after --: acp-bridge [flags] -- <agent command> [args...]\n")
	fmt.Fprintf(e.stderr, "run 'acp-bridge help' for the subcommands\n")
	return &exitError{code: 2}
}

// nearestCommand returns the subcommand within two edits of name, if one is.
func nearestCommand(name string) string {
	best, bestDist := "", 3
	for c := range commands() {
		if d := levenshtein.ComputeDistance(name, c); d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	return best
}

// printCommands lists cmds with their summaries, as "help" and the parent
// commands' usages do.
func printCommands(w io.Writer, names []string, summary func(string) string) {
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, summary(n))
	}
}

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, ",") }
func (f *stringsFlag) Set(v string) error { *f = append(*f, v); return nil }

// subcommand is one command of a group, as "validate" of "acp-bridge aacp".
type subcommand struct {
	name string
	run  func(ctx context.Context, e *env, args []string) error
}

// runGroup runs the command of group that args[0] names, with the rest of
// args; help prints usage. No name, or one the group lacks, is a usage
// error that lists the names.
func runGroup(ctx context.Context, e *env, group, usage string, cmds []subcommand, args []string) error {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	want := names[len(names)-1]
	if len(names) > 1 {
		want = strings.Join(names[:len(names)-1], ", ") + " or " + want
	}
	switch {
	case len(args) == 0:
		return usageError(e, "acp-bridge "+group, fmt.Sprintf("%s: which command? %s", group, want))
	case isHelp(args[0]):
		fmt.Fprint(e.stdout, usage)
		return nil
	}
	for _, c := range cmds {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	return usageError(e, "acp-bridge "+group, fmt.Sprintf("%s: unknown command %q (want %s)", group, args[0], want))
}
