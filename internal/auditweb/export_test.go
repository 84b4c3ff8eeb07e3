package auditweb

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// stalledWriter is a ResponseWriter whose first write waits until the
// test releases it: a download the client is slow to take.
type stalledWriter struct {
	header           http.Header
	started, release chan struct{}
	once             sync.Once
	body             bytes.Buffer
}

func (w *stalledWriter) Header() http.Header { return w.header }
func (w *stalledWriter) WriteHeader(int)     {}
func (w *stalledWriter) Write(p []byte) (int, error) {
	w.once.Do(func() {
		close(w.started)
		<-w.release
	})
	return w.body.Write(p)
}

// TestExportDoesNotHoldLock: while a long export streams to a slow client,
// new lines are indexed and pages show them; the export holds the records
// as they were when it began, byte for byte.
func TestExportDoesNotHoldLock(t *testing.T) {
	path := writeBigLog(t, t.TempDir(), 300) // about 400 KB: more than the export's 64 KB buffer
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, path)
	x := ts.logs[0]
	for _, target := range []string{"/export.jsonl", "/export.csv"} {
		t.Run(target, func(t *testing.T) {
			w := &stalledWriter{header: http.Header{}, started: make(chan struct{}), release: make(chan struct{})}
			req := httptest.NewRequest("GET", ts.base+"/"+ts.token+target, nil)
			done := make(chan struct{})
			go func() {
				defer close(done)
				ts.Handler().ServeHTTP(w, req)
			}()
			<-w.started // the export is streaming, and the client not reading
			audittest.Append(t, path, audit.Options{}, audit.Event{Actor: audit.Actor{ID: "user:ide", Role: "user"}, Action: "session.prompt",
				Subject: audit.Subject{Kind: "session", Ref: "sess-live"}, Input: "appended during " + target,
				Metadata: map[string]any{"session": "sess-live"}})
			if !x.mu.TryLock() {
				close(w.release)
				<-done
				t.Fatal("the export holds the log's lock while it streams: new lines wait for the download")
			}
			x.mu.Unlock()
			if changed, err := x.refresh(); err != nil || !changed {
				t.Fatalf("refresh during the export: changed %v, err %v", changed, err)
			}
			if _, body := ts.get(t, "/timeline?q="+strings.ReplaceAll("appended during "+target, " ", "+")); !strings.Contains(body, "appended during "+target) {
				t.Error("the line appended during the export is not shown")
			}
			close(w.release)
			<-done
			got := w.body.String()
			switch target {
			case "/export.jsonl":
				if got != string(before) {
					t.Errorf("export: %d bytes, want the %d bytes of the log as it was", len(got), len(before))
				}
			case "/export.csv":
				if n, want := strings.Count(got, "\n"), bytes.Count(before, []byte("\n")); n != want+1 {
					t.Errorf("csv export: %d lines, want a header and the %d records as they were", n, want)
				}
			}
		})
		before, err = os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
	}
}
