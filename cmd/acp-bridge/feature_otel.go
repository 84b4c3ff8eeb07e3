package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/otelexport"
)

// otelFeature sends the audit log to an OpenTelemetry collector over
// OTLP/HTTP (internal/otelexport) when --otlp-endpoint or
// OTEL_EXPORTER_OTLP_ENDPOINT is set. The log stays the source of truth:
// the exporter reads it, so a collector that is down never slows the wire.
// With --otlp-traces it also sends spans (see otelTraces).
func otelFeature() feature {
	var endpoint string
	var every int
	var flush time.Duration
	var traces bool
	return feature{
		name: "otlp",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&endpoint, "otlp-endpoint", "", "send the audit log to the OTLP/HTTP collector at base `URL` (default: $OTEL_EXPORTER_OTLP_ENDPOINT)")
			fs.IntVar(&every, "otlp-checkpoint-every", otelexport.DefaultCheckpointEvery, "export a chain checkpoint every `N` audit events (and at each session end)")
			fs.DurationVar(&flush, "otlp-flush-timeout", 5*time.Second, "how long the bridge sends what is left when it stops")
			fs.BoolVar(&traces, "otlp-traces", false, "also send traces: a span per prompt turn and per tool call, the trace context passed to the agent (_meta.traceparent, TRACEPARENT)")
		},
		setup: func(ctx context.Context, s *bridgeSetup) error {
			if traces {
				if err := otelTraces(ctx, s, endpoint, flush); err != nil {
					return err
				}
			}
			fromEnv := endpoint == "" && os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
			if endpoint == "" && !fromEnv {
				return nil
			}
			if s.Governance == nil || s.Governance.Audit == nil {
				if fromEnv {
					s.Logger.Info("otlp: OTEL_EXPORTER_OTLP_ENDPOINT is set but there is no audit log to send (--audit FILE)")
					return nil
				}
				return fmt.Errorf("--otlp-endpoint sends the audit log: give one with --audit FILE")
			}
			cfg := otelexport.Config{LogPath: s.Governance.Audit.Path(), Endpoint: endpoint, CheckpointEvery: every,
				Agent: filepath.Base(s.Agent.Path), Logger: s.Logger}
			x, err := otelexport.New(ctx, cfg)
			if err != nil {
				return err
			}
			x.Start()
			// Runs last, after the audit log wrote its final events.
			s.cleanups = append([]func(){func() {
				pending, err := x.Close(flush)
				if pending > 0 {
					fmt.Fprintf(s.Stderr, "acp-bridge: %d audit events not yet acknowledged by the collector; they stay in %s and are sent next time\n", pending, cfg.LogPath)
					s.Logger.Warn("otlp: audit events pending at exit", "pending", pending, "err", err)
				}
			}}, s.cleanups...)
			return nil
		},
	}
}
