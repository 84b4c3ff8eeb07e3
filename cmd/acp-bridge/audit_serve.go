package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/auditweb"
)

// auditServe runs "acp-bridge audit serve": the read-only browser view of
// audit logs, until interrupted.
func auditServe(ctx context.Context, e *env, args []string) error {
	fs := newAuditFlags(e, "serve", "[--listen ADDR] FILE|DIR...")
	listen := fs.String("listen", "127.0.0.1:0", "listen on `ADDR` (host:port; port 0 picks a free one). Anything but loopback lets others on the network try the token")
	paths, err := parseFiles(e, fs, args, "audit serve: no file or directory given")
	if err != nil {
		return err
	}
	srv, err := auditweb.New(auditweb.Options{Paths: paths, Background: true, Logger: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{ReplaceAttr: audit.PrintableAttr}))})
	if err != nil {
		return &exitError{code: 1, err: audit.PrintableError(err)}
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("audit serve: %v", err)}
	}
	return srv.Serve(ctx, ln, func(url string) {
		fmt.Fprintf(e.stdout, "acp-bridge audit serve: open %s\n(the URL carries this run's access token: share the page, not the URL; Ctrl-C stops)\n", url)
	})
}
