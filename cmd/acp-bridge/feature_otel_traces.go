package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.opentelemetry.io/otel"

	"github.com/acp-bridge/acp-bridge/internal/otelexport"
)

// otelTraces sets up --otlp-traces: a root span for the run, whose trace
// context the agent gets in TRACEPARENT (the OpenTelemetry environment
// carrier; the bridge's own TRACEPARENT, if any, is its parent); a span per
// prompt turn from the innermost wire middleware, which also passes the
// turn's context on in the prompt's _meta.traceparent; a span per tool call
// from the audit log, with the policy decisions as span events.
func otelTraces(ctx context.Context, s *bridgeSetup, endpoint string, flush time.Duration) error {
	if endpoint == "" && os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return fmt.Errorf("--otlp-traces needs a collector: --otlp-endpoint URL, OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
	}
	cfg := otelexport.TraceConfig{Endpoint: endpoint, Agent: filepath.Base(s.Agent.Path), Logger: s.Logger,
		Parent: os.Getenv("TRACEPARENT"), TraceState: os.Getenv("TRACESTATE")}
	if g := s.Governance; g != nil && g.Audit != nil {
		cfg.LogPath, cfg.RunID = g.Audit.Path(), g.Audit.RunID()
	} else {
		s.Logger.Info("otlp traces: no audit log (--audit FILE), so no tool-call spans: prompt turns only")
	}
	t, err := otelexport.NewTracer(ctx, cfg)
	if err != nil {
		return err
	}
	// The SDK reports failed exports through the global handler, which
	// would print them with the standard logger; the tracer warns once.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { s.Logger.Debug("otlp traces: " + err.Error()) }))
	s.Agent.Env = withEnv(s.Agent.Env, "TRACEPARENT", t.Traceparent())
	t.Start()
	// Innermost: it sees the prompt as the other features forward it.
	s.Bridge.UseNonRetaining(t.Middleware())
	// Runs last, after the audit log wrote its final events.
	s.cleanups = append([]func(){func() {
		if lost, err := t.Close(flush); lost > 0 {
			fmt.Fprintf(s.Stderr, "acp-bridge: %d spans did not reach the collector and were dropped\n", lost)
			s.Logger.Warn("otlp traces: spans dropped at exit", "lost", lost, "err", err)
		}
	}}, s.cleanups...)
	return nil
}

// withEnv returns env (nil: the bridge's own) with name set to value, any
// earlier setting of name removed, so the agent sees one.
func withEnv(env []string, name, value string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	if value == "" {
		return out
	}
	return append(out, name+"="+value)
}
