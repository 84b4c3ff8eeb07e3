package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/demo"
)

// runDemo runs a whole session with no external software: the built-in
// client talks through the bridge (with every feature the flags enable) to
// the built-in agent, started as a real process, and the account of what
// happened is printed.
func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge demo", "acp-bridge demo [flags]",
		"Runs a whole session with no external software: the built-in client talks through the bridge to\nthe built-in agent (a real process), and what happened is printed.")
	var f bridgeFlags
	f.register(fs, "warn")
	answer := fs.String("answer", "allow", "how the demo client answers permission requests: allow, reject, cancel")
	workspace := fs.String("workspace", "", "run in `DIR` instead of a fresh temporary workspace")
	pace := fs.Duration("pace", 0, "pause between the demo agent's updates")
	prompt := fs.String("prompt", "Please review big.log and write your notes to notes.txt.", "the prompt to send")
	features := bridgeFeatures()
	for _, ft := range features {
		ft.flags(fs)
	}
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	root := *workspace
	if root == "" {
		dir, err := os.MkdirTemp("", "acp-bridge-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		root = dir
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if err := writeDemoWorkspace(root); err != nil {
		return fmt.Errorf("preparing demo workspace: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding own executable: %w", err)
	}
	agentArgs := []string{self, "demo-agent", "--pace", pace.String()}
	br, err := prepareBridge(ctx, e, &f, features, agentArgs)
	if err != nil {
		return err
	}
	defer br.close()

	fmt.Fprintf(e.stdout, "acp-bridge demo: built-in client <-> acp-bridge <-> built-in agent (pid shown in the log)\nworkspace: %s\n\n", root)
	toBridgeR, toBridgeW := io.Pipe()
	fromBridgeR, fromBridgeW := io.Pipe()
	bridgeDone := make(chan error, 1)
	go func() {
		err := br.run(ctx, acpwire.Endpoint{In: toBridgeR, Out: fromBridgeW})
		fromBridgeW.Close()
		bridgeDone <- err
	}()

	client := &demo.Client{Root: root, Answer: demo.PermissionAnswer(*answer), Log: prefixWriter{w: e.stdout, prefix: "  "}}
	client.Connect(toBridgeW, fromBridgeR)
	turnCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	_, err = client.Start(turnCtx)
	if err == nil {
		_, err = client.Prompt(turnCtx, *prompt)
	}
	toBridgeW.Close() // the IDE closes the agent's stdin: the bridge shuts down
	bridgeErr := <-bridgeDone

	fmt.Fprintln(e.stdout)
	if notes, rerr := os.ReadFile(filepath.Join(root, "notes.txt")); rerr == nil {
		fmt.Fprintf(e.stdout, "notes.txt now holds: %q\n", string(notes))
	} else {
		fmt.Fprintln(e.stdout, "notes.txt was not written")
	}
	fmt.Fprintf(e.stdout, "session updates received: %d\n", len(client.Updates()))
	if f.record != "" {
		fmt.Fprintf(e.stdout, "transcript recorded to %s\n", f.record)
	}
	if err != nil {
		return fmt.Errorf("demo session: %w", err)
	}
	if bridgeErr != nil {
		return fmt.Errorf("bridge: %w", bridgeErr)
	}
	fmt.Fprintln(e.stdout, "demo finished: the bridge shut the agent down cleanly")
	return nil
}

// writeDemoWorkspace creates big.log, a log file large enough for the
// compression tiers to act on (about 40,000 tokens).
func writeDemoWorkspace(root string) error {
	var b strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&b, "2026-11-21T10:%02d:%02dZ INFO worker-%d processed batch %d in %dms\n", i/60%60, i%60, i%7, i, 20+i%300)
		if i == 2718 {
			b.WriteString("2026-11-21T10:45:18Z ERROR worker-2 E4711 checksum mismatch in batch 2718\n")
		}
	}
	return os.WriteFile(filepath.Join(root, "big.log"), []byte(b.String()), 0o644)
}

// runDemoAgent serves the built-in demo agent on stdin/stdout.
func runDemoAgent(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge demo-agent", "acp-bridge demo-agent [--pace D]",
		"Serves the built-in demo agent on stdin/stdout: an ACP agent to try clients and the bridge with.")
	pace := fs.Duration("pace", 0, "pause between updates")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	a := &demo.Agent{Pace: *pace}
	a.Serve(e.stdin, e.stdout)
	return nil
}

// prefixWriter indents each line written through it.
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	lines := strings.SplitAfter(string(b), "\n")
	for _, l := range lines {
		if l == "" {
			continue
		}
		if _, err := io.WriteString(p.w, p.prefix+l); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}
