package main

import (
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/otelexport/otelcoltest"
)

// BenchmarkStream200kAudit is BenchmarkStream200k through a bridge writing
// an audit log, without OTLP export: the baseline of the two below.
func BenchmarkStream200kAudit(b *testing.B) {
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"))
}

// BenchmarkStream200kAuditOTLPRefused exports the audit log to an
// endpoint that refuses connections (a collector that is down).
func BenchmarkStream200kAuditOTLPRefused(b *testing.B) {
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"), "--otlp-endpoint", otelcoltest.RefusingEndpoint(b), "--otlp-flush-timeout", "100ms")
}

// BenchmarkStream200kAuditOTLPHung exports the audit log to an endpoint
// that accepts connections and never answers (a collector that hangs).
func BenchmarkStream200kAuditOTLPHung(b *testing.B) {
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"), "--otlp-endpoint", otelcoltest.HungEndpoint(b), "--otlp-flush-timeout", "100ms")
}
