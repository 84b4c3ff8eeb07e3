package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/adapter"
)

// hookDeadline is how long the hook waits for the bridge. It is shorter than
// the timeout Claude Code gives the hook, so that the hook, not Claude's
// timeout (which lets the tool run), decides what a slow bridge means: deny.
const hookDeadline = (adapter.HookTimeoutSeconds - 10) * time.Second

// maxHookInput bounds what the hook reads from stdin.
const maxHookInput = 64 << 20

// runHook is "acp-bridge hook": the PreToolUse command hook the bridge
// installs in Claude Code. It reads Claude's hook payload on stdin, asks the
// running bridge over its private socket, and prints Claude's hook answer.
// When it cannot get an answer it denies: exit status 2 with the reason on
// stderr, which Claude Code treats as a blocked tool call.
func runHook(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge hook", "acp-bridge hook [--socket PATH] < hook-payload.json",
		"Run by Claude Code before each tool call; prints the bridge's decision.")
	socket := fs.String("socket", "", "the bridge's hook `socket` (default: $"+adapter.HookSocketEnv+")")
	agent := fs.String("agent", adapter.Claude, "the agent whose hook this is")
	timeout := fs.Duration("timeout", hookDeadline, "how long to wait for the bridge before denying")
	if err := parseFlags(e, fs, args); err != nil {
		if errors.Is(err, errHelpShown) {
			return err
		}
		return deny(e, "acp-bridge hook: bad arguments; tool call denied")
	}
	if *socket == "" {
		*socket = os.Getenv(adapter.HookSocketEnv)
	}
	payload, err := io.ReadAll(io.LimitReader(e.stdin, maxHookInput+1))
	if err != nil || len(payload) > maxHookInput || !json.Valid(payload) {
		return deny(e, "acp-bridge hook: could not read a hook payload on stdin; tool call denied")
	}
	if *socket == "" {
		return deny(e, "acp-bridge hook: no bridge socket ("+adapter.HookSocketEnv+" is not set); tool call denied (fail closed)")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	resp, err := adapter.AskHook(ctx, *socket, adapter.HookRequest{Agent: *agent, Event: payload})
	if err != nil {
		return deny(e, fmt.Sprintf("acp-bridge hook: the bridge could not be asked (%v); tool call denied (fail closed)", err))
	}
	if out := adapter.ClaudeHookOutput(resp); out != nil {
		if _, err := e.stdout.Write(append(out, '\n')); err != nil {
			return deny(e, "acp-bridge hook: writing the answer failed; tool call denied")
		}
	}
	return nil
}

// deny makes Claude Code block the tool call: exit status 2, reason on
// stderr (shown to the model).
func deny(e *env, reason string) error {
	fmt.Fprintln(e.stderr, reason)
	return &exitError{code: 2}
}
