package otelexport

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestHeadersAndPath: requests go to <endpoint>/v1/logs as protobuf, with
// the headers of OTEL_EXPORTER_OTLP_HEADERS (authentication); a collector
// answering 401 is an outage: nothing is acknowledged.
func TestHeadersAndPath(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20s3cret,x-team=payments")
	var mu sync.Mutex
	var got []*http.Request
	status := http.StatusUnauthorized
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		got = append(got, r)
		st := status
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(st)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	governedLog(t, path, "s")
	x := newExporter(t, path, srv.URL)
	if _, err := x.Flush(t.Context()); err == nil {
		t.Fatal("a 401 was taken as an acknowledgement")
	}
	if c := x.Cursor(); c.Seq != -1 {
		t.Fatalf("cursor moved to %d on a 401", c.Seq)
	}
	mu.Lock()
	status = http.StatusOK
	mu.Unlock()
	if n, err := x.Flush(t.Context()); err != nil || n != 5 {
		t.Fatalf("Flush: %d, %v", n, err)
	}
	x.Close(time.Second)
	mu.Lock()
	defer mu.Unlock()
	for _, r := range got {
		if r.URL.Path != "/v1/logs" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("request to %s as %s", r.URL.Path, r.Header.Get("Content-Type"))
		}
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("X-Team") != "payments" {
			t.Errorf("headers %v", r.Header)
		}
	}
}

// TestCloseLetsARequestFinish: Close while a request is under way lets it
// finish instead of cancelling it, so the events the collector already has
// are not sent a second time by Close's flush.
func TestCloseLetsARequestFinish(t *testing.T) {
	var mu sync.Mutex
	requests := 0
	first := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		requests++
		n := requests
		mu.Unlock()
		if n == 1 {
			close(first)
			// The collector is slow to answer the first request: Close is
			// called while it waits.
			time.Sleep(300 * time.Millisecond)
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	governedLog(t, path, "s")
	x := newExporter(t, path, srv.URL)
	x.Start()
	<-first
	if pending, err := x.Close(5 * time.Second); pending != 0 || err != nil {
		t.Fatalf("Close: %d pending, %v", pending, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if requests != 1 {
		t.Errorf("the collector got %d requests for one batch: the batch under way at Close was sent again", requests)
	}
}
