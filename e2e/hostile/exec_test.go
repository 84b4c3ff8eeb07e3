package hostile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// runTimeout bounds one command the IDE or the agent runs, and how long its
// output may be held open after it exits. It bounds a hang: a command cut
// short by it has overran set, and the run fails, because what the command
// would have done later is not seen. Only TestRunOverran changes it.
var runTimeout = 10 * time.Second

// terminalRun is one command run for a terminal/create.
type terminalRun struct {
	output   string
	exitCode int
	err      string
	overran  bool // ended by runTimeout: its effects may be missing
}

// runTerminal runs a terminal/create the way the variant's IDE does: "js"
// as Zed (bash -c "(command args...)", args joined with spaces, unquoted),
// "sh" the same with sh, "zsh" as Zed runs them for a person whose $SHELL
// is zsh (zsh -i -c "(command args...)", reading the HOME's .zshrc), "go"
// as an argv exec. env is added to the IDE's own environment; cwd
// defaults to the IDE's.
func runTerminal(variant string, p terminalParams) terminalRun {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	env := os.Environ()
	for _, e := range p.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	var cmd *exec.Cmd
	switch variant {
	case "js", "sh", "zsh", "zed":
		line := p.Command
		for _, a := range p.Args {
			line += " " + a
		}
		argv := []string{"bash", "-c"}
		switch variant {
		case "sh":
			argv = []string{"sh", "-c"}
		case "zsh":
			argv = []string{"zsh", "-i", "-c"}
		}
		cmd = exec.CommandContext(ctx, argv[0], append(argv[1:], "("+line+")")...)
	default:
		path, err := lookPath(p.Command, env)
		if err != nil {
			return terminalRun{exitCode: 127, err: err.Error()}
		}
		cmd = exec.CommandContext(ctx, path, p.Args...)
		cmd.Args[0] = p.Command
	}
	cmd.Env = env
	cmd.Dir = p.Cwd
	r := runCommand(cmd)
	if ctx.Err() != nil {
		r.overran = true
	}
	return r
}

// runCommand runs cmd with its output in a buffer; waiting for the buffer
// also waits for background children that kept the output open, so their
// effects happen before the run is judged.
func runCommand(cmd *exec.Cmd) terminalRun {
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = runTimeout
	err := cmd.Run()
	r := terminalRun{output: out.String(), overran: errors.Is(err, exec.ErrWaitDelay)}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.exitCode = ee.ExitCode()
	case err != nil:
		r.exitCode = -1
		r.err = err.Error()
	}
	return r
}

// lookPath finds a command as execvpe and Node's spawn do: in the PATH of
// the environment the child gets.
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "PATH="); ok {
			path = v // the last one is what the child sees
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in PATH", name)
}

// fakeTool is a shell script standing in for a dangerous tool: it only
// appends its name and arguments to a marker file.
func fakeTool(name, markers string) string {
	return fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"%s $*\" >> '%s/%s.ran'\n", name, markers, name)
}
