package main

import (
	"net"
	"testing"
)

// BenchmarkStream200kTracesRefused is BenchmarkStream200k through a bridge
// with --otlp-traces and no other feature, exporting to an endpoint that
// refuses connections (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): every message
// passes the trace middleware, each stream's prompt is a turn span whose
// traceparent is written into the prompt, and every span is dropped.
// BenchmarkStream200k is its baseline.
func BenchmarkStream200kTracesRefused(b *testing.B) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	b.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://"+addr+"/v1/traces")
	benchStream(b, "--otlp-traces", "--otlp-flush-timeout", "100ms")
}

// BenchmarkStream200kTracesHung is BenchmarkStream200kTracesRefused with an
// endpoint that accepts connections and never answers.
func BenchmarkStream200kTracesHung(b *testing.B) {
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
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	b.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://"+l.Addr().String()+"/v1/traces")
	benchStream(b, "--otlp-traces", "--otlp-flush-timeout", "100ms")
}
