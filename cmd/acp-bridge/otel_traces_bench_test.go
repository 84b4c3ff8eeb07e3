package main

import (
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// BenchmarkStream200kTracesRefused is BenchmarkStream200k through a bridge
// with --otlp-traces and no other feature, exporting to an endpoint that
// refuses connections (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): every message
// passes the trace middleware, each stream's prompt is a turn span whose
// traceparent is written into the prompt, and every span is dropped.
// BenchmarkStream200k is its baseline.
func BenchmarkStream200kTracesRefused(b *testing.B) {
	benchTraces(b, otelcoltest.RefusingEndpoint(b))
}

// BenchmarkStream200kTracesHung is BenchmarkStream200kTracesRefused with an
// endpoint that accepts connections and never answers.
func BenchmarkStream200kTracesHung(b *testing.B) {
	benchTraces(b, otelcoltest.HungEndpoint(b))
}

// benchTraces streams through a bridge sending only traces, to endpoint.
func benchTraces(b *testing.B, endpoint string) {
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	b.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", endpoint+"/v1/traces")
	benchStream(b, "--otlp-traces", "--otlp-flush-timeout", "100ms")
}
