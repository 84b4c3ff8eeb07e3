package auditweb

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// TestBackgroundLoad: with Options.Background the server is ready before
// the log is read; pages say how far reading got and show what was read,
// an export waits for the whole log, and once reading is done the
// summaries are those of the whole log.
func TestBackgroundLoad(t *testing.T) {
	defer func(n int) { stepBytes = n }(stepBytes)
	stepBytes = 64 << 10
	path := writeBigLog(t, t.TempDir(), 600) // about 800 KB: thirteen steps
	s, err := New(Options{Paths: []string{path}, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	s.host, s.port = "127.0.0.1", "1"
	x := s.logs[0]
	get := func(ctx context.Context, target string) (int, string) {
		req := httptest.NewRequestWithContext(ctx, "GET", "http://"+net.JoinHostPort(s.host, s.port)+"/"+s.token+target, nil)
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	progress := regexp.MustCompile(`<p class="indexing">Reading the log: ([0-9.]+ [KM]B) of ([0-9.]+ [KM]B) \(([0-9]+)%\)`)
	code, body := get(context.Background(), "/")
	if m := progress.FindStringSubmatch(body); code != 200 || m == nil || m[1] != "0 KB" || m[3] != "0" {
		t.Fatalf("before reading: %d, progress %q\n%s", code, m, body)
	}

	// One step: part of the log, said so.
	names, err := chainFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	if more, _, err := x.refreshStep(names); err != nil || !more {
		t.Fatalf("first step: more %v, err %v", more, err)
	}
	_, body = get(context.Background(), "/")
	m := progress.FindStringSubmatch(body)
	if m == nil || m[3] == "0" || m[3] == "100" {
		t.Fatalf("after one step: progress %q\n%s", m, body)
	}
	if !strings.Contains(body, ">sess-0</a>") {
		t.Errorf("after one step: the sessions read so far are not shown\n%s", body)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if code, body := get(cancelled, "/export.jsonl"); code != http.StatusServiceUnavailable {
		t.Errorf("export while reading: %d, want 503 (wait for the whole log)\n%s", code, body)
	}

	// Serve reads the rest.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	ready := make(chan struct{})
	go func() { served <- s.Serve(ctx, ln, func(string) { close(ready) }) }()
	<-ready
	if err := x.waitLoaded(context.Background()); err != nil {
		t.Fatal(err)
	}
	code, body = get(context.Background(), "/")
	if code != 200 || strings.Contains(body, `class="indexing"`) || strings.Count(body, `class="session-row"`) != 10 {
		t.Errorf("after reading: %d\n%s", code, body)
	}
	entries, err := audit.ReadEntries(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.ensureSummaries(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(audit.Sessions(entries), summaries(x)); diff != "" {
		t.Errorf("summaries read in steps (-whole log +served):\n%s", diff)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if code, body := get(context.Background(), "/export.jsonl"); code != 200 || body != string(want) {
		t.Errorf("export after reading: %d, %d bytes, want the %d bytes of the log", code, len(body), len(want))
	}
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

// TestBackgroundLoadFails: a log that cannot be read through stops a
// server reading it in the background, saying why.
func TestBackgroundLoadFails(t *testing.T) {
	path := writeEndlessLine(t)
	s, err := New(Options{Paths: []string{path}, Background: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Serve(context.Background(), ln, nil)
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("Serve = %v, want a line-too-long error", err)
	}
}
