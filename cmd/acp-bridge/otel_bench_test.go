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
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"), "--otlp-endpoint", "http://"+addr, "--otlp-flush-timeout", "100ms")
}

// BenchmarkStream200kAuditOTLPHung exports the audit log to an endpoint
// that accepts connections and never answers (a collector that hangs).
func BenchmarkStream200kAuditOTLPHung(b *testing.B) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
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
	benchStream(b, "--audit", filepath.Join(b.TempDir(), "audit.jsonl"), "--otlp-endpoint", "http://"+l.Addr().String(), "--otlp-flush-timeout", "100ms")
}
