package otelexport

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// collectorBinary returns the test collector built by scripts/otelcol.sh.
// In CI (CI set) a missing collector fails the test; elsewhere the script
// builds it.
func collectorBinary(t testing.TB) string {
	t.Helper()
	args := []string{}
	if os.Getenv("CI") != "" {
		args = append(args, "--cached")
	}
	out, err := exec.Command("../../scripts/otelcol.sh", args...).Output()
	if err != nil {
		t.Fatalf("the OpenTelemetry test collector is missing and could not be built (scripts/otelcol.sh): %v", err)
	}
	return strings.TrimSpace(string(out))
}

// collector is a running test collector: an OTLP/HTTP receiver on addr
// and the debug exporter, whose output the test reads.
type collector struct {
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

// startCollector starts a collector listening on a free port.
func startCollector(t testing.TB) *collector {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := &collector{t: t, bin: collectorBinary(t), dir: t.TempDir(), addr: addr}
	c.start()
	t.Cleanup(c.stop)
	return c
}

// endpoint is the OTLP/HTTP base URL.
func (c *collector) endpoint() string { return "http://" + c.addr }

// start runs the collector and waits until it says it is ready.
func (c *collector) start() {
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
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [debug]
    traces:
      receivers: [otlp]
      exporters: [debug]
`, c.addr)
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
		t.Fatalf("the collector exited at start:\n%s", c.output())
	case <-time.After(60 * time.Second):
		t.Fatalf("the collector did not get ready in 60s:\n%s", c.output())
	}
}

// stop stops the collector (SIGTERM: it flushes the debug exporter) and
// waits for its output to end.
func (c *collector) stop() {
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

func (c *collector) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.String()
}

// received is one log record as the debug exporter printed it.
type received struct {
	EventName string
	Body      string
	Attrs     map[string]string
	Resource  map[string]string
}

var (
	attrLine = regexp.MustCompile(`^\s*-> ([^:]+): (\w+)\((.*)\)$`)
	bodyLine = regexp.MustCompile(`^Body: Str\((.*)\)$`)
)

// records parses the debug exporter's detailed output so far.
func (c *collector) records() []received {
	var out []received
	var res map[string]string
	inResource := false
	var cur *received
	for _, line := range strings.Split(c.output(), "\n") {
		switch {
		case strings.HasPrefix(line, "Resource attributes:"):
			res, inResource, cur = map[string]string{}, true, nil
		case strings.HasPrefix(line, "LogRecord #"):
			out = append(out, received{Attrs: map[string]string{}, Resource: res})
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

// waitRecords waits until the collector printed a record satisfying ok.
func (c *collector) waitRecords(ok func([]received) bool) []received {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		rs := c.records()
		if ok(rs) {
			return rs
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the collector did not receive what was expected in 60s; it printed:\n%s", tail(c.output(), 4000))
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

func seqOf(r received) int64 {
	n, err := strconv.ParseInt(r.Attrs[AttrSeq], 10, 64)
	if err != nil {
		return -1
	}
	return n
}
