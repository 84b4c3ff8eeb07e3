package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// urlWriter passes on the URL audit serve prints.
type urlWriter struct{ urls chan string }

var printedURL = regexp.MustCompile(`open (http://127\.0\.0\.1:[0-9]+/)([0-9a-f]{64}/)`)

func (w urlWriter) Write(p []byte) (int, error) {
	if m := printedURL.FindSubmatch(p); m != nil {
		w.urls <- string(m[1]) + string(m[2])
	}
	return len(p), nil
}

func TestAuditServe(t *testing.T) {
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	writeAuditLog(t, log)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := urlWriter{make(chan string, 1)}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, &env{stdin: strings.NewReader(""), stdout: w, stderr: io.Discard}, []string{"audit", "serve", log})
	}()
	var u string
	select {
	case u = <-w.urls:
	case err := <-done:
		t.Fatalf("audit serve ended: %v", err)
	}
	resp, err := http.Get(printedURL.FindStringSubmatch("open " + u)[1])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("without the token: %d, want 403", resp.StatusCode)
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	// The server reads the log after it starts listening; the page says so
	// until it has read all of it, and lists its sessions then.
	var body []byte
	for deadline := time.Now().Add(time.Minute); ; {
		resp, err = c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `class="indexing"`) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond) // nothing to wait on: poll
	}
	if resp.StatusCode != 200 || !strings.Contains(string(body), ">s1</a>") {
		t.Errorf("with the token: %d\n%s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestAuditServeUsage(t *testing.T) {
	for _, args := range [][]string{{"audit", "serve"}, {"audit", "serve", filepath.Join(t.TempDir(), "missing.jsonl")}} {
		if _, _, code := runCmd(t, "", args...); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
	}
}
