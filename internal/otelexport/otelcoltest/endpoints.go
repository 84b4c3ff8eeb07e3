package otelcoltest

import (
	"net"
	"testing"
)

// RefusingEndpoint returns the OTLP/HTTP base URL of a local port nothing
// listens on: a collector that is down.
func RefusingEndpoint(t testing.TB) string {
	t.Helper()
	return "http://" + freeAddr(t)
}

// freeAddr returns a local address nothing listens on, free when it was
// asked for.
func freeAddr(t testing.TB) string {
	t.Helper()
	l := listen(t)
	defer l.Close()
	return l.Addr().String()
}

// listen listens on a free local port.
func listen(t testing.TB) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// HungEndpoint returns the OTLP/HTTP base URL of a local listener that
// accepts connections and never answers (a collector that hangs), until
// the test ends.
func HungEndpoint(t testing.TB) string {
	t.Helper()
	l := listen(t)
	var held []net.Conn // the accepting goroutine's until done is closed
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range held {
			c.Close()
		}
	})
	return "http://" + l.Addr().String()
}
