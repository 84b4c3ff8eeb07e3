package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/demo"
)

// demoOffloadTokens is the demo's compression threshold: big.log (about
// 107,000 tokens) crosses it, every other message stays far below.
const demoOffloadTokens = 2000

// runDemo runs a whole session with no external software: the built-in
// client talks through the bridge to the built-in agent, started as a real
// process, and what went over the wire is told in order from the bridge's
// recording. By default the bridge runs with the example policy, an audit
// log and compression, all in the demo's workspace; --plain leaves them off.
func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge demo", "acp-bridge demo [--plain] [--workspace DIR] [bridge flags]",
		`Runs a whole session with no external software: a built-in client (standing in for the IDE) talks
through acp-bridge to the built-in agent (a real process), and what went over the wire is printed in
order. The agent reads .env, reads a large log, and asks to write notes.txt.

By default the bridge runs with the example policy (GOVERNANCE.md in the workspace: .env may not be
read, edits are asked), an audit log and compression (offload over 2,000 tokens), all kept in the
workspace's .acp-bridge directory; any bridge flag given overrides these. --plain runs the same
session with none of them: the bare pass-through.`)
	var f bridgeFlags
	f.register(fs, "warn")
	answer := fs.String("answer", "allow", "how the demo client answers permission requests: allow, reject, cancel")
	workspace := fs.String("workspace", "", "run in `DIR` and keep it (default: a fresh temporary directory, removed afterwards)")
	pace := fs.Duration("pace", 0, "pause between the demo agent's updates")
	prompt := fs.String("prompt", "Please review big.log and write your notes to notes.txt.", "the prompt to send")
	plain := fs.Bool("plain", false, "no policy, audit log or compression unless given as flags: the bare pass-through")
	features := bridgeFeatures()
	for _, ft := range features {
		ft.flags(fs)
	}
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(e, "acp-bridge demo", fmt.Sprintf("demo takes no arguments (got %q)", fs.Arg(0)))
	}
	switch demo.PermissionAnswer(*answer) {
	case demo.AnswerAllow, demo.AnswerReject, demo.AnswerCancel:
	default:
		return usageError(e, "acp-bridge demo", fmt.Sprintf("--answer %q: want allow, reject or cancel", *answer))
	}

	root := *workspace
	if root == "" {
		dir, err := os.MkdirTemp("", "acp-bridge-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		root = dir
	} else if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("creating --workspace: %v", err)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if err := demo.WriteWorkspace(root); err != nil {
		return usageError(e, "acp-bridge demo", fmt.Sprintf("--workspace: %v", err))
	}
	state := filepath.Join(root, ".acp-bridge")
	if err := os.MkdirAll(state, 0o700); err != nil {
		return fmt.Errorf("preparing demo workspace: %w", err)
	}
	if !*plain {
		setUnlessGiven(fs, map[string]string{
			"policy":         filepath.Join(root, "GOVERNANCE.md"),
			"audit":          filepath.Join(state, "audit.jsonl"),
			"compress":       "on",
			"offload-tokens": strconv.Itoa(demoOffloadTokens),
			"cache-dir":      filepath.Join(state, "cache"),
		})
	}
	if f.record == "" {
		f.record = filepath.Join(state, "wire.jsonl")
	}
	var recordFrom int64 // the recording may be the user's, with earlier runs in it
	if st, err := os.Stat(f.record); err == nil {
		recordFrom = st.Size()
	}

	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding own executable: %w", err)
	}
	br, err := prepareBridge(ctx, e, &f, features, []string{self, "demo-agent", "--pace", pace.String()})
	if err != nil {
		return err
	}
	defer br.close()

	out := e.stdout
	fmt.Fprintf(out, "acp-bridge demo: a built-in client (standing in for the IDE) and the built-in agent (a real\nprocess) talk through acp-bridge.\n\n")
	fmt.Fprintf(out, "  workspace  %s: big.log (%s bytes), .env (a fake secret), GOVERNANCE.md\n", root, fileSize(filepath.Join(root, "big.log")))
	describeDemoFeatures(out, fs, root)
	fmt.Fprintln(out)

	toBridgeR, toBridgeW := io.Pipe()
	fromBridgeR, fromBridgeW := io.Pipe()
	bridgeDone := make(chan error, 1)
	start := time.Now()
	go func() {
		err := br.run(ctx, acpwire.Endpoint{In: toBridgeR, Out: fromBridgeW})
		fromBridgeW.Close()
		bridgeDone <- err
	}()
	// With compression on, the bridge offers its quick commands right after
	// session/new; the client waits for them, as a person would see them
	// before typing, so the account does not depend on which came first.
	client := &demo.Client{Root: root, Answer: demo.PermissionAnswer(*answer), AwaitCommands: fs.Lookup("compress").Value.String() == "on"}
	client.Connect(toBridgeW, fromBridgeR)
	turnCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	_, err = client.Start(turnCtx)
	if err == nil {
		_, err = client.Prompt(turnCtx, *prompt)
	}
	toBridgeW.Close() // the IDE closes the agent's stdin: the bridge shuts down
	bridgeErr := <-bridgeDone
	elapsed := time.Since(start)
	br.close() // flushes the recording and closes the audit log

	fmt.Fprintln(out, "What went over the wire, in the order the bridge handled it:")
	entries, rerr := readRecording(f.record, recordFrom)
	if rerr == nil {
		rerr = demo.Narrate(out, entries, root)
	}
	if rerr != nil {
		fmt.Fprintf(out, "  (the recording could not be read: %v)\n", rerr)
	}

	fmt.Fprintln(out, "\nAfterwards:")
	if notes, nerr := os.ReadFile(filepath.Join(root, "notes.txt")); nerr == nil {
		fmt.Fprintf(out, "  notes.txt holds %q\n", string(notes))
	} else {
		fmt.Fprintln(out, "  notes.txt was not written")
	}
	if rerr == nil {
		if secretReachedAgent(entries) {
			fmt.Fprintln(out, "  the secret in .env reached the agent")
		} else {
			fmt.Fprintln(out, "  the secret in .env never reached the agent")
		}
	}
	if path := fs.Lookup("audit").Value.String(); path != "" {
		showDemoAudit(ctx, e, root, path)
	}
	fmt.Fprintf(out, "  transcript of every message: %s\n", f.record)
	if err != nil {
		return fmt.Errorf("demo session: %w", err)
	}
	if bridgeErr != nil {
		return fmt.Errorf("bridge: %w", bridgeErr)
	}
	fmt.Fprintf(out, "  the bridge shut the agent down cleanly; the session took %s\n", elapsed.Round(time.Millisecond))
	if *workspace == "" {
		fmt.Fprintln(out, "  (the workspace is removed now; run with --workspace DIR to keep it)")
	}
	return nil
}

// setUnlessGiven sets each flag the user did not give on the command line.
func setUnlessGiven(fs *flag.FlagSet, values map[string]string) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, v := range values {
		if !given[name] {
			fs.Set(name, v)
		}
	}
}

// describeDemoFeatures says which of the bridge's features the demo runs
// with, from the flags' final values.
func describeDemoFeatures(w io.Writer, fs *flag.FlagSet, root string) {
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	value := func(name string) string { return fs.Lookup(name).Value.String() }
	switch policy := value("policy"); {
	case policy == filepath.Join(root, "GOVERNANCE.md"):
		fmt.Fprintln(w, "  policy     GOVERNANCE.md, the example policy: reading .env is denied, every edit is asked, other reads allowed")
	case policy != "":
		fmt.Fprintf(w, "  policy     %s\n", policy)
	default:
		fmt.Fprintln(w, "  policy     none")
	}
	if audit := value("audit"); audit != "" {
		fmt.Fprintf(w, "  audit log  %s\n", rel(audit))
	} else {
		fmt.Fprintln(w, "  audit log  none")
	}
	if value("compress") == "on" {
		tokens, _ := strconv.Atoi(value("offload-tokens"))
		fmt.Fprintf(w, "  compress   on: content over %s tokens is offloaded to %s\n", groupInt(int64(tokens)), rel(value("cache-dir")))
	} else {
		fmt.Fprintln(w, "  compress   off")
	}
}

// readRecording reads the recording's entries from offset on.
func readRecording(path string, offset int64) ([]demo.Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	return demo.ReadTranscript(f)
}

// secretReachedAgent reports whether the fake secret is in anything the
// agent received.
func secretReachedAgent(entries []demo.Entry) bool {
	for _, en := range entries {
		if en.Dir == "client_to_agent" && en.Bridge == "" && bytes.Contains(en.Msg, []byte(demo.SecretValue)) {
			return true
		}
	}
	return false
}

// showDemoAudit prints the audit log's session summary and its verification,
// as the user would get them with acp-bridge audit.
func showDemoAudit(ctx context.Context, e *env, root, path string) {
	files, _ := filepath.Glob(path + "*") // with --audit-max-bytes, the rotated files too
	if len(files) == 0 {
		files = []string{path}
	}
	shown := make([]string, len(files))
	for i, f := range files {
		if r, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(r, "..") {
			shown[i] = r
		} else {
			shown[i] = f
		}
	}
	sub := &env{stdin: strings.NewReader(""), stdout: prefixWriter{w: e.stdout, prefix: "    "}, stderr: prefixWriter{w: e.stdout, prefix: "    "}}
	for _, cmd := range []string{"sessions", "verify"} {
		fmt.Fprintf(e.stdout, "  $ acp-bridge audit %s %s\n", cmd, strings.Join(shown, " "))
		if err := run(ctx, sub, append([]string{"audit", cmd}, files...)); err != nil {
			fmt.Fprintf(e.stdout, "    (%v)\n", err)
		}
	}
}

// fileSize is the size of path with thousands separators, or "?".
func fileSize(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "?"
	}
	return groupInt(st.Size())
}

// groupInt writes a non-negative n with thousands separators.
func groupInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// runDemoAgent serves the built-in demo agent on stdin/stdout.
func runDemoAgent(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "acp-bridge demo-agent", "acp-bridge demo-agent [--pace D]",
		"Serves the built-in demo agent on stdin/stdout: an ACP agent to try clients and the bridge with.\nIts turn reads .env and big.log in the session's directory, if they exist, and asks to write notes.txt.")
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
