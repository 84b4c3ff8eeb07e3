package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// runPolicy is "acp-bridge policy check": it loads a policy and prints the
// decision for one request and the rule that made it, so users can test
// their rules; without a request it validates the policy and lists its
// rules in evaluation order.
func runPolicy(_ context.Context, e *env, args []string) error {
	const synopsis = "acp-bridge policy check --policy FILE [--action A] [--tool T] [--kind K] [--path P]... [--command C] [--url U] [--cwd DIR] [--workspace-root DIR]... [--json]"
	switch {
	case len(args) == 0:
		return usageError(e, "acp-bridge policy", "policy: which command? check")
	case isHelp(args[0]):
		fmt.Fprintf(e.stdout, "usage: %s\n\nWithout a request, validates the policy and lists its rules in evaluation order.\nRun 'acp-bridge policy check --help' for the flags.\n", synopsis)
		return nil
	case args[0] != "check":
		return usageError(e, "acp-bridge policy", fmt.Sprintf("policy: unknown command %q (want check)", args[0]))
	}
	fs := newFlags(e, "acp-bridge policy check", synopsis,
		"Shows the decision the policy makes for one request and the rule that made it; without a request,\nvalidates the policy and lists its rules in evaluation order.")
	var (
		file, action, tool, kind, title, command, url, cwd string
		paths, roots, cmdArgs, envs                        stringsFlag
		asJSON                                             bool
	)
	fs.StringVar(&file, "policy", "GOVERNANCE.md", "the AIP-7 GOVERNANCE.md `FILE`")
	fs.StringVar(&action, "action", "", "tool.call, fs.read, fs.write, terminal.create or session.new (default: tool.call with --tool, else inferred)")
	fs.StringVar(&tool, "tool", "", "the agent's tool name (Claude Code's Bash, Read, Edit, WebFetch, mcp__x__y, ...)")
	fs.StringVar(&kind, "kind", "", "the ACP tool kind (read, edit, delete, move, search, execute, fetch, ...)")
	fs.StringVar(&title, "title", "", "the tool call's title")
	fs.Var(&paths, "path", "a path the operation touches (repeatable)")
	fs.StringVar(&command, "command", "", "a shell command line, or with --arg a terminal request's command")
	fs.Var(&cmdArgs, "arg", "an argument of a terminal request's command (repeatable; implies --action terminal.create)")
	fs.Var(&envs, "env", "an environment variable `NAME=VALUE` of a terminal request (repeatable)")
	fs.StringVar(&url, "url", "", "the URL a fetch reaches")
	fs.StringVar(&cwd, "cwd", "", "the working directory (default: the current directory)")
	fs.Var(&roots, "workspace-root", "a workspace root `DIR` (repeatable; default: --cwd)")
	fs.BoolVar(&asJSON, "json", false, "print the decision as JSON")
	if err := parseFlags(e, fs, args[1:]); err != nil {
		return err
	}
	// What follows quotes the policy's rules and the request: a command
	// or a path the person copied from what the agent proposed.
	stdout := e.stdout
	e = &env{stdin: e.stdin, stdout: audit.PrintableLines(e.stdout), stderr: audit.PrintableLines(e.stderr)}
	p, err := governance.LoadPolicy(file)
	if err != nil {
		var list governance.ErrorList
		if errors.As(err, &list) {
			for _, pe := range list {
				fmt.Fprintln(e.stderr, pe)
			}
			return &exitError{code: 1, err: fmt.Errorf("%s: %d problem(s)", file, len(list))}
		}
		return &exitError{code: 1, err: err}
	}
	for _, w := range p.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	// The person typing names directories, like paths, from their shell's
	// directory; the bridge judges a session's directories as absolute.
	// The cwd keeps its ".." as written: the bridge receives a request's
	// cwd that way and takes a ".." after a link where the kernel puts the
	// process, while cleaning it here would decide the text's directory.
	if cwd, err = absAsWritten(cwd); err != nil {
		return err
	}
	for i, r := range roots {
		if roots[i], err = filepath.Abs(r); err != nil {
			return err
		}
	}
	protected := append(governance.SelfProtected(p, nil), governance.AuditProtected(p.AuditFile))
	if dir, ok := governance.AuditDirProtected(p.AuditFile, roots); ok {
		protected = append(protected, dir) // as the bridge started here protects it
	}
	engine := governance.NewEngine(p, governance.EngineOptions{Protected: protected})
	if action == "" && tool == "" && kind == "" && len(paths) == 0 && command == "" && url == "" && len(cmdArgs) == 0 && len(envs) == 0 {
		fmt.Fprintf(e.stdout, "%s: valid; default %s (%s); %d rules:\n", file, p.Default, p.DefaultWhere, len(p.Rules()))
		for _, r := range p.Rules() {
			fmt.Fprintln(e.stdout, "  "+r)
		}
		fmt.Fprintln(e.stdout, "built-in rules, whatever the policy says (the bridge adds its --manifest, --audit, cache and hook socket):")
		for _, r := range append(engine.ImplicitRules(), builtinPathRules...) {
			fmt.Fprintln(e.stdout, "  "+r)
		}
		return nil
	}
	for i, p := range paths {
		// The person typing names paths from their shell's directory.
		if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~") {
			paths[i] = strings.TrimSuffix(cwd, "/") + "/" + p
		}
	}
	req := governance.Request{Action: action, Tool: tool, Kind: kind, Title: title, Paths: paths, Command: command, URL: url, Cwd: cwd, Roots: roots}
	if len(cmdArgs) > 0 {
		// As the bridge reads a terminal request (enforce_clientcall.go).
		req.Argv = append([]string{command}, cmdArgs...)
		req.Command = strings.Join(req.Argv, " ")
	}
	for _, kv := range envs {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			fmt.Fprintf(e.stderr, "--env %q: want NAME=VALUE\n", kv)
			return &exitError{code: 2}
		}
		req.Env = append(req.Env, governance.EnvVar{Name: name, Value: value})
	}
	if req.Action == "" {
		switch {
		case len(cmdArgs) > 0 || len(envs) > 0:
			req.Action = governance.ActionTerminalCreate
		case tool != "" || kind != "":
			req.Action = governance.ActionToolCall
		case command != "":
			req.Action = governance.ActionTerminalCreate
		default:
			req.Action = governance.ActionFSRead
		}
	}
	if req.Action == governance.ActionToolCall && tool != "" {
		// Derive the kind and subjects the way the hook does for Claude
		// Code's own tools.
		in := map[string]any{}
		if command != "" {
			in["command"] = command
		}
		if url != "" {
			in["url"] = url
		}
		raw, _ := json.Marshal(in)
		if r, err := governance.ClaudeToolRequest(tool, raw, cwd); err == nil && kind == "" {
			req.Kind = r.Kind
		}
		if tool == "Bash" && command == "" {
			req.CommandUnknown = true
		}
	}
	d := engine.Decide(req)
	if asJSON {
		out, _ := json.Marshal(map[string]any{"decision": d.Value, "rule": d.Rule, "ref": d.Ref, "reason": d.Reason, "advisories": d.Advisories, "subjects": d.Subjects})
		fmt.Fprintf(stdout, "%s\n", audit.PrintableJSON(out))
		return nil
	}
	fmt.Fprintln(e.stdout, d.Value)
	fmt.Fprintf(e.stdout, "rule:   %s\nreason: %s\n", d.Rule, d.Reason)
	for _, a := range d.Advisories {
		fmt.Fprintf(e.stdout, "advisory: %s\n", a)
	}
	printSubjects(e, d)
	return nil
}

// printSubjects lists what the decision was made of: each command the line
// runs (its forms, the words that are not static, notes) and each variable
// and path, with the rule that decided it.
func printSubjects(e *env, d governance.Decision) {
	if len(d.Subjects) < 2 && (len(d.Subjects) == 0 || len(d.Subjects[0].Details) == 0) {
		return
	}
	fmt.Fprintln(e.stdout, "subjects:")
	for i, s := range d.Subjects {
		fmt.Fprintf(e.stdout, "  %d. %s\n", i+1, s.What)
		for _, line := range s.Details {
			fmt.Fprintf(e.stdout, "       %s\n", line)
		}
		fmt.Fprintf(e.stdout, "       %s by %s\n", s.Value, s.Rule)
	}
}

// builtinPathRules are the engine's fixed path rules, as policy check
// lists them.
var builtinPathRules = []string{
	"deny paths outside the workspace roots unless an allow rule names a fixed directory (built-in)",
	"deny relative paths: the IDE opens them against its own directory (built-in)",
	"deny paths through /proc/self, /proc/<pid>, /dev/fd and other per-process links (built-in)",
	"deny paths with NUL bytes, invalid UTF-8, symlink loops, or longer than the system allows (built-in)",
}

// absAsWritten returns p made absolute against the current directory
// without cleaning it: "l/.." after a link l is where the kernel's walk
// leads, not the directory the text cleans to.
func absAsWritten(p string) (string, error) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(wd, "/") + "/" + p, nil
}
