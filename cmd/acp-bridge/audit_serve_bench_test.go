package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/audit/audittest"
)

// BenchmarkAuditServeBigLog runs "acp-bridge audit serve" on a
// 100,000-event log written with the real audit writer, and measures, per
// run, the wall time from starting the process to its URL line (url-s)
// and to the first sessions page being complete (page-s: all ten sessions
// with their summaries), the process's CPU time at that moment (cpu-s)
// and its peak resident set (hwm-MB). The process is the test binary
// re-executed as acp-bridge, or the binary ACP_BRIDGE_BENCH_SERVE names
// (an older build, to compare in turns). The log is left in
// ACP_BRIDGE_BENCH_LOG when that names a file that does not exist yet,
// and read from it when it does.
func BenchmarkAuditServeBigLog(b *testing.B) {
	path := os.Getenv("ACP_BRIDGE_BENCH_LOG")
	if path == "" {
		path = filepath.Join(b.TempDir(), "audit.jsonl")
	}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		audittest.WriteBusyLog(b, path, 100_000)
	}
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "ACP_BRIDGE_TEST_MAIN=1")
	if alt := os.Getenv("ACP_BRIDGE_BENCH_SERVE"); alt != "" {
		exe = alt
	}
	var url, page, cpu, hwm float64
	for b.Loop() {
		u, p, c, h := serveOnce(b, exe, env, path)
		url, page, cpu, hwm = url+u.Seconds(), page+p.Seconds(), cpu+c.Seconds(), hwm+float64(h)/1024
	}
	n := float64(b.N)
	b.ReportMetric(url/n, "url-s")
	b.ReportMetric(page/n, "page-s")
	b.ReportMetric(cpu/n, "cpu-s")
	b.ReportMetric(hwm/n, "hwm-MB")
}

// serveOnce starts audit serve on path, waits for its URL and its first
// complete sessions page, and stops it.
func serveOnce(tb testing.TB, exe string, env []string, path string) (toURL, toPage, cpu time.Duration, hwmKB int) {
	cmd := exec.Command(exe, "audit", "serve", path)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		io.Copy(io.Discard, stdout)
		cmd.Wait()
	}()
	sc := bufio.NewScanner(stdout)
	var u string
	for u == "" && sc.Scan() {
		if m := printedURL.FindStringSubmatch(sc.Text()); m != nil {
			u = m[1] + m[2]
		}
	}
	if u == "" {
		tb.Fatalf("audit serve printed no URL: %v", sc.Err())
	}
	toURL = time.Since(start)
	jar, err := cookiejar.New(nil)
	if err != nil {
		tb.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	get := func(u string) string {
		resp, err := c.Get(u)
		if err != nil {
			tb.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			tb.Fatalf("sessions page: %d %v\n%s", resp.StatusCode, err, body)
		}
		return string(body)
	}
	if !sessionsComplete(get(u)) {
		// The log is being read: fetch the page again on each change the
		// server announces, as the page itself does.
		root := u
		resp, err := c.Get(root + "events")
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		events := bufio.NewScanner(resp.Body)
		for {
			if !events.Scan() {
				tb.Fatalf("event stream ended before the sessions page was complete: %v", events.Err())
			}
			if events.Text() == "event: change" && sessionsComplete(get(root)) {
				break
			}
		}
	}
	toPage = time.Since(start)
	cpu = procCPU(cmd.Process.Pid)
	return toURL, toPage, cpu, vmKB(cmd.Process.Pid, "VmHWM")
}

// sessionsComplete reports whether a sessions page lists the benchmark
// log's ten sessions with their summaries: each has 10,000 events.
func sessionsComplete(body string) bool {
	for i := range 10 {
		if !strings.Contains(body, fmt.Sprintf(">sess-%d</a>", i)) {
			return false
		}
	}
	return strings.Count(body, ">10000<") >= 10 && !strings.Contains(body, `class="indexing"`)
}
