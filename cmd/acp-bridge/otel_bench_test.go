package main

import (
	"net"
	"path/filepath"
	"testing"
)

// BenchmarkStream200kAudit is BenchmarkStream200k through a bridge writing
// an audit log, without OTLP export: the baseline of the two below.
func BenchmarkStream200kAudit(b *testing.B) {
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"))
}

// BenchmarkStream200kAuditOTLPRefused exports the audit log to an
// endpoint that refuses connections (a collector that is down).
func BenchmarkStream200kAuditOTLPRefused(b *testing.B) {
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"), "--otlp-endpoint", refusingEndpoint(b), "--otlp-flush-timeout", "100ms")
}

// BenchmarkStream200kAuditOTLPHung exports the audit log to an endpoint
// that accepts connections and never answers (a collector that hangs).
func BenchmarkStream200kAuditOTLPHung(b *testing.B) {
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"), "--otlp-endpoint", hungEndpoint(b), "--otlp-flush-timeout", "100ms")
}

// refusingEndpoint returns the base URL of a local port nothing listens
// on: a collector that is down.
func refusingEndpoint(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// hungEndpoint returns the base URL of a local listener that accepts
// connections and never answers (a collector that hangs), until the
// benchmark ends.
func hungEndpoint(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	go func() {
		var held []net.Conn
		for {
			c, err := l.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	return "http://" + l.Addr().String()
}
