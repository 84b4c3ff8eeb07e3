// Package otelcoltest runs the OpenTelemetry Collector that
// scripts/otelcol.sh builds (an OTLP/HTTP receiver, the debug exporter and
// the file exporter) for tests, and reads what it received: log records
// from the debug exporter's output, spans from the file exporter's OTLP
// JSON (spans.go), and the file exporter's log output as a team's
// collector writes it (LogsFile).
package otelcoltest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Binary returns the test collector built by scripts/otelcol.sh. In CI
// (CI set) a missing collector fails the test; elsewhere the script
// builds it.
func Binary(t testing.TB) string {
	t.Helper()
	args := []string{}
	if os.Getenv("CI") != "" {
		args = append(args, "--cached")
	}
	_, self, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(self), "..", "..", "..", "scripts", "otelcol.sh")
	out, err := exec.Command(script, args...).Output()
	if err != nil {
		t.Fatalf("the OpenTelemetry test collector is missing and could not be built (scripts/otelcol.sh): %v", err)
	}
	return strings.TrimSpace(string(out))
}

// Collector is a running test collector: an OTLP/HTTP receiver and the
// debug exporter, whose output the test reads.
type Collector struct {
	t    testing.TB
	bin  string
	dir  string
	addr string
	cmd  *exec.Cmd

	mu     sync.Mutex
	out    strings.Builder // everything the debug exporter printed, all runs
	ready  chan struct{}
	exited chan struct{}
}

// Start starts a collector listening on a free port; it is stopped when
// the test ends.
func Start(t testing.TB) *Collector {
	t.Helper()
	c := &Collector{t: t, bin: Binary(t), dir: t.TempDir(), addr: freeAddr(t)}
	c.Restart()
	t.Cleanup(c.Stop)
	return c
}

// LogsFile is where the collector's file exporter writes the log records
// it receives: OTLP JSON, one export request a line.
func (c *Collector) LogsFile() string { return filepath.Join(c.dir, "logs.jsonl") }

// TracesFile is where the collector's file exporter writes the spans it
// receives: OTLP JSON, one export request a line.
func (c *Collector) TracesFile() string { return filepath.Join(c.dir, "traces.jsonl") }

// Endpoint is the OTLP/HTTP base URL.
func (c *Collector) Endpoint() string { return "http://" + c.addr }

// Restart runs the collector (again, on the same port, after Stop) and
// waits until it says it is ready.
func (c *Collector) Restart() {
	t := c.t
	t.Helper()
	cfg := filepath.Join(c.dir, "config.yaml")
	conf := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  debug:
    verbosity: detailed
  file/logs:
    path: %s
    flush_interval: 100ms
  file/traces:
    path: %s
    flush_interval: 100ms
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [debug, file/logs]
    traces:
      receivers: [otlp]
      exporters: [debug, file/traces]
`, c.addr, c.LogsFile(), c.TracesFile())
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	c.cmd = exec.Command(c.bin, "--config", cfg)
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.cmd.Stdout = c.cmd.Stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.ready, c.exited = make(chan struct{}), make(chan struct{})
	ready, exited := c.ready, c.exited
	go func() {
		defer close(exited)
		br := bufio.NewReaderSize(stderr, 1<<20)
		once := sync.Once{}
		for {
			line, err := br.ReadString('\n')
			c.mu.Lock()
			c.out.WriteString(line)
			c.mu.Unlock()
			if strings.Contains(line, "Everything is ready") {
				once.Do(func() { close(ready) })
			}
			if err != nil {
				io.Copy(io.Discard, stderr)
				return
			}
		}
	}()
	select {
	case <-ready:
	case <-exited:
		c.cmd.Wait()
		t.Fatalf("the collector exited at start:\n%s", c.Output())
	case <-time.After(60 * time.Second):
		t.Fatalf("the collector did not get ready in 60s:\n%s", c.Output())
	}
}

// Stop stops the collector (SIGINT: it flushes the debug exporter) and
// waits for its output to end.
func (c *Collector) Stop() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	c.cmd.Process.Signal(os.Interrupt)
	select {
	case <-c.exited:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
	}
	c.cmd.Wait()
	c.cmd = nil
}

// Output is everything the collector printed, over all its runs.
func (c *Collector) Output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

// Received is one log record as the debug exporter printed it: its event
// name, string body, attributes and resource attributes (values as
// printed, without their type).
type Received struct {
	EventName string
	Body      string
	Attrs     map[string]string
	Resource  map[string]string
}

var (
	attrLine = regexp.MustCompile(`^\s*-> ([^:]+): (\w+)\((.*)\)$`)
	bodyLine = regexp.MustCompile(`^Body: Str\((.*)\)$`)
)

// Records parses the log records in the debug exporter's output so far.
func (c *Collector) Records() []Received {
	var out []Received
	var res map[string]string
	inResource := false
	var cur *Received
	for _, line := range strings.Split(c.Output(), "\n") {
		switch {
		case strings.HasPrefix(line, "Resource attributes:"):
			res, inResource, cur = map[string]string{}, true, nil
		case strings.HasPrefix(line, "LogRecord #"):
			out = append(out, Received{Attrs: map[string]string{}, Resource: res})
			cur, inResource = &out[len(out)-1], false
		case strings.HasPrefix(line, "ScopeLogs #"), strings.HasPrefix(line, "ResourceLog #"):
			inResource = false
		case strings.HasPrefix(line, "EventName: ") && cur != nil:
			cur.EventName = strings.TrimPrefix(line, "EventName: ")
		case bodyLine.MatchString(line) && cur != nil:
			cur.Body = bodyLine.FindStringSubmatch(line)[1]
		case attrLine.MatchString(line):
			m := attrLine.FindStringSubmatch(line)
			if inResource {
				res[m[1]] = m[3]
			} else if cur != nil {
				cur.Attrs[m[1]] = m[3]
			}
		}
	}
	return out
}

// WaitRecords waits until the records received satisfy ok, and returns
// them; it fails the test after a minute.
func (c *Collector) WaitRecords(ok func([]Received) bool) []Received {
	c.t.Helper()
	return waitFor(c, c.Records, ok, func() string {
		return "what was expected in 60s; it printed:\n" + tail(c.Output(), 4000)
	})
}

// waitFor polls read until ok accepts what it returns, and returns that;
// after a minute it fails the test with "the collector did not receive "
// and what missing says.
func waitFor[T any](c *Collector, read func() T, ok func(T) bool, missing func() string) T {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := read()
		if ok(got) {
			return got
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the collector did not receive %s", missing())
		}
		time.Sleep(50 * time.Millisecond) // polls the observable output
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// Int returns the integer attribute k, or -1.
func (r Received) Int(k string) int64 {
	n, err := strconv.ParseInt(r.Attrs[k], 10, 64)
	if err != nil {
		return -1
	}
	return n
}
