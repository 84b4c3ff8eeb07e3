package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/otelexport"
)

// rotationSuffix is the suffix of a rotated audit log file.
var rotationSuffix = regexp.MustCompile(`\.\d{6,}$`)

// verifyAnchor compares the verified chain sum (read from files, not
// standard input) with the checkpoints in the anchor file, as "audit
// verify --anchor" does: exit 1 when events the collector received were
// removed or rewritten.
func verifyAnchor(e *env, anchorFile, logName string, sum *audit.Summary) error {
	for _, f := range sum.Files {
		if f == "stdin" {
			return &exitError{code: 2, err: errors.New("audit verify --anchor reads the log from files, not standard input")}
		}
	}
	if logName == "" {
		abs, err := filepath.Abs(rotationSuffix.ReplaceAllString(sum.Files[len(sum.Files)-1], ""))
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		logName = abs
	}
	f, err := os.Open(anchorFile)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("audit verify --anchor: %v", err)}
	}
	points, err := otelexport.ReadAnchor(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL anchor %s: %s\n", audit.Printable(anchorFile), audit.Printable(err.Error()))
		return &exitError{code: 1}
	}
	rv, err := audit.Review(audit.Inputs(sum.Files...)...)
	if err != nil {
		return &exitError{code: 1, err: audit.PrintableError(fmt.Errorf("audit verify: %v", err))}
	}
	if rv.Problem != nil || rv.Summary.Head != sum.Head {
		fmt.Fprintf(e.stdout, "FAIL the log changed while it was being verified\n")
		return &exitError{code: 1}
	}
	res, err := otelexport.CheckAnchor(points, logName, rv.Entries, rv.Summary)
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL anchor %s: %s\n", audit.Printable(anchorFile), audit.Printable(err.Error()))
		return &exitError{code: 1}
	}
	fmt.Fprintf(e.stdout, "ok: anchored: %s of %s match the collector's copy, up to seq %d\n",
		auditPlural(res.Matched, "checkpoint"), audit.Printable(logName), res.Anchored)
	if after := rv.Summary.LastSeq - res.Anchored; rv.Summary.Records > 0 && after > 0 {
		fmt.Fprintf(e.stdout, "note: %s after seq %d are not anchored yet (not yet received by the collector)\n", auditPlural(int(after), "event"), res.Anchored)
	}
	return nil
}

// auditExport sends an audit log to an OTLP/HTTP collector from its cursor
// on ("acp-bridge audit export"), to backfill or re-send.
func auditExport(ctx context.Context, e *env, args []string) error {
	fs := newAuditFlags(e, "export", "--otlp-endpoint URL [--all] FILE")
	endpoint := fs.String("otlp-endpoint", "", "the OTLP/HTTP collector's base `URL` (default: $OTEL_EXPORTER_OTLP_ENDPOINT)")
	all := fs.Bool("all", false, "send the whole log again, not only what the collector has not acknowledged")
	timeout := fs.Duration("timeout", time.Minute, "give up after this long")
	files, err := parseInterleaved(e, fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || files[0] == "-" {
		return usageError(e, commandLine(fs), "audit export: give the active log file (its rotated files are read with it)")
	}
	if *endpoint == "" && os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" {
		return usageError(e, commandLine(fs), "audit export: no collector: give --otlp-endpoint URL or set OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	path := rotationSuffix.ReplaceAllString(files[0], "")
	cursor := otelexport.CursorPath(path)
	if *all {
		if err := os.Remove(cursor); err != nil && !errors.Is(err, os.ErrNotExist) {
			return &exitError{code: 1, err: err}
		}
	}
	cfg := otelexport.Config{LogPath: path, Endpoint: *endpoint}
	x, err := otelexport.New(ctx, cfg)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	sent, err := x.Flush(ctx)
	pending, _ := x.Close(0)
	fmt.Fprintf(e.stdout, "sent %s to the collector", auditPlural(sent, "event"))
	if c := x.Cursor(); c.Seq >= 0 {
		fmt.Fprintf(e.stdout, "; acknowledged up to seq %d", c.Seq)
	}
	fmt.Fprintln(e.stdout)
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL %d events not sent: %s\n", pending, audit.Printable(err.Error()))
		return &exitError{code: 1}
	}
	return nil
}
