package auditweb

import (
	"bufio"
	"html"
	"regexp"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// TestEventsSinceRendering: a record appended after a page was rendered
// and before its event stream connected is announced as soon as the
// stream opens, on the sessions page and on the timeline, instead of being
// missed until the next record.
func TestEventsSinceRendering(t *testing.T) {
	for _, page := range []string{"/", "/timeline?log=0"} {
		t.Run(page, func(t *testing.T) {
			path := writeLog(t, t.TempDir())
			ts := newTestServer(t, path)
			_, body := ts.get(t, page)
			m := regexp.MustCompile(`data-events="([^"]+)"`).FindStringSubmatch(body)
			if m == nil {
				t.Fatalf("no data-events on %s", page)
			}
			events := html.UnescapeString(m[1])
			// The log grows between the page and its stream.
			audittest.Append(t, path, audit.Options{}, bridgeStop)
			ts.logs[0].refresh()

			resp := ts.open(t, events)
			defer resp.Body.Close()
			lines := make(chan string, 64) // never blocks the reader: closing the body ends it
			go func() {
				br := bufio.NewReader(resp.Body)
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						close(lines)
						return
					}
					lines <- line
				}
			}()
			// Nothing else changes the log: only the append before the
			// stream connected can bring a change event. The keep-alive is
			// 15 s away.
			deadline := time.After(10 * time.Second)
			for {
				select {
				case line, ok := <-lines:
					if !ok {
						t.Fatal("the event stream ended")
					}
					if line == "event: change\n" {
						return
					}
				case <-deadline:
					t.Fatalf("no change event for a record appended after %s was rendered (stream %s)", page, events)
				}
			}
		})
	}
}
