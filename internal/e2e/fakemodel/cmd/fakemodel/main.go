// Command fakemodel runs the e2e suite's fake model server by hand, to drive
// a real agent against a script outside the Go tests:
//
//	go run ./internal/e2e/fakemodel/cmd/fakemodel -script s.json -log requests.jsonl
//
// It prints the base URL on stdout (use it as ANTHROPIC_BASE_URL or
// GOOGLE_GEMINI_BASE_URL) and serves until interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "fakemodel: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fakemodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scriptPath := fs.String("script", "", "script JSON file (see package fakemodel); empty serves no steps")
	logPath := fs.String("log", "", "append one JSON line per request to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var script fakemodel.Script
	if *scriptPath != "" {
		var err error
		if script, err = fakemodel.ReadScript(*scriptPath); err != nil {
			return err
		}
	}
	srv, err := fakemodel.Start(fakemodel.Options{
		Script: script, LogFile: *logPath,
		Logger: slog.New(slog.NewTextHandler(stderr, nil)),
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, srv.URL())
	<-ctx.Done()
	return srv.Close()
}
