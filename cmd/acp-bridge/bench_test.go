package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/benchstream"
	"github.com/acp-bridge/acp-bridge/internal/cputime"
)

// peer is a process the benchmark talks to over its stdin and stdout:
// either a fake agent directly, or acp-bridge with the fake agent behind it.
type peer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// startPeer starts the fake agent mode directly, or behind the bridge with
// bridgeArgs (pass-through when empty).
func startPeer(tb testing.TB, agentMode string, bridged bool, extraEnv []string, bridgeArgs ...string) *peer {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	var cmd *exec.Cmd
	if bridged {
		args := append(append([]string{}, bridgeArgs...), "--log-level", "error", "--",
			"env", "-u", "ACP_BRIDGE_TEST_MAIN", "ACP_BRIDGE_TEST_AGENT="+agentMode, exe)
		cmd = exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_MAIN=1")
	} else {
		cmd = exec.Command(exe)
		cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_AGENT="+agentMode)
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stderr = os.Stderr
	in, out, err := acpwiretest.StartPiped(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	return &peer{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

func (p *peer) close(tb testing.TB) {
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		tb.Logf("peer exited: %v", err)
	}
}

// vmKB reads a VmXxx figure of a process, in KiB.
func vmKB(pid int, field string) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return -1
}

// relayPeer is what any relay between two pipes pays at the least, for
// comparison with the bridge: it starts the agent its arguments name (the
// flood agent without any) behind a pipe of the size the bridge uses and
// passes bytes on without looking at them. With
// mode "relay-rw" it reads and writes through a 64 KiB buffer, as any relay
// that must see the bytes (to find and check messages) does; with
// "relay-splice" it moves them with splice(2) and never copies them into the
// process, which only a relay that never looks at them can do.
func relayPeer(mode string) {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_AGENT=flood")
	if len(os.Args) > 1 {
		cmd = exec.Command(os.Args[1], os.Args[2:]...)
	}
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		panic(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	const fSetPipeSize = 1031
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, outR.Fd(), fSetPipeSize, 1<<20)
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	outW.Close()
	go func() {
		_, _ = io.Copy(in, os.Stdin)
		in.Close()
	}()
	if mode == "relay-splice" {
		for {
			n, err := syscall.Splice(int(outR.Fd()), nil, int(os.Stdout.Fd()), nil, 1<<20, 0)
			if n <= 0 || err != nil {
				break
			}
		}
	} else {
		buf := make([]byte, 64<<10)
		for {
			n, err := outR.Read(buf)
			if n > 0 {
				if _, werr := os.Stdout.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
	}
	_ = cmd.Wait()
}

// procCPU is the user and system CPU time process pid has used so far,
// 0 if it cannot be read.
func procCPU(pid int) time.Duration {
	d, _ := cputime.Process(pid)
	return d
}

// childOf returns the first child process of pid, looking at every thread
// (the bridge starts the agent from whichever thread runs the goroutine).
func childOf(pid int) int {
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, t := range tasks {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.Atoi(f[0])
			return n
		}
	}
	return 0
}

// cpuUse adds up the CPU time of the processes taking part in a stream.
type cpuUse struct{ agent, bridge, client time.Duration }

// measure runs fn and adds the CPU time agent, bridge (if non-zero) and this
// process used meanwhile.
func (c *cpuUse) measure(agent, bridge int, fn func()) {
	a, b, s := procCPU(agent), procCPU(bridge), benchstream.CPUTime()
	fn()
	c.agent += procCPU(agent) - a
	if bridge != 0 {
		c.bridge += procCPU(bridge) - b
	}
	c.client += benchstream.CPUTime() - s
}

// streamOnce asks the flood agent for its stream and reads it to the end,
// returning how long that took and how many messages arrived.
func streamOnce(tb testing.TB, p *peer, id int) (time.Duration, int) {
	start := time.Now()
	fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"bench","prompt":[]}}`+"\n", id)
	n := 0
	want := fmt.Sprintf(`"id":%d,"result"`, id)
	for {
		line, err := p.out.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull {
				_, err = p.out.ReadSlice('\n')
			}
		}
		if err != nil {
			tb.Fatalf("reading stream: %v", err)
		}
		n++
		if strings.Contains(string(line[:min(len(line), 64)]), want) {
			return time.Since(start), n
		}
	}
}

// openBenchSession opens the session "bench" that streamOnce prompts in.
func openBenchSession(tb testing.TB, p *peer) {
	fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":1000000000,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", tb.TempDir())
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			tb.Fatalf("opening the session: %v", err)
		}
		if bytes.Contains(line, []byte(`"id":1000000000,`)) {
			if !bytes.Contains(line, []byte(`"sessionId":"bench"`)) {
				tb.Fatalf("opening the session: %s", line)
			}
			return
		}
	}
}

// BenchmarkStream200k streams 200,000 session/update notifications of mixed
// sizes from a fast fake agent to the benchmark (a fast client), directly and
// through acp-bridge in pass-through, alternating in the same run. It reports
// the ratio of wall times and the bridge's peak and steady RSS.
func BenchmarkStream200k(b *testing.B) { benchStream(b) }

func benchStream(b *testing.B, bridgeArgs ...string) {
	const n = 200000
	env := []string{"FLOOD_N=" + strconv.Itoa(n)}
	direct := startPeer(b, "flood", false, env)
	defer direct.close(b)
	bridged := startPeer(b, "flood", true, env, bridgeArgs...)
	defer bridged.close(b)
	// Open the session the stream runs in: a governed bridge refuses
	// updates for a session the IDE never opened.
	openBenchSession(b, direct)
	openBenchSession(b, bridged)
	// Warm up both: the agent builds its messages on first use.
	streamOnce(b, direct, 0)
	streamOnce(b, bridged, 0)
	var td, tb time.Duration
	var cd, cb cpuUse
	bridgePID := bridged.cmd.Process.Pid
	agentPID := childOf(bridgePID)
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		var d, br time.Duration
		var got int
		cd.measure(direct.cmd.Process.Pid, 0, func() { d, got = streamOnce(b, direct, i) })
		if got != n+1 {
			b.Fatalf("direct: %d messages, want %d", got, n+1)
		}
		cb.measure(agentPID, bridgePID, func() { br, got = streamOnce(b, bridged, i) })
		if got != n+1 {
			b.Fatalf("bridged: %d messages, want %d", got, n+1)
		}
		td += d
		tb += br
	}
	b.StopTimer()
	b.ReportMetric(float64(tb)/float64(td), "bridged/direct")
	// CPU time per stream of each process: with three processes on two
	// cores the bridge's CPU use, not only its latency, sets the wall time.
	perStream := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
	b.ReportMetric(perStream(cb.bridge), "bridge-cpu-ms/stream")
	b.ReportMetric(perStream(cb.bridge)/perStream(cd.agent+cd.client), "bridge-cpu/direct-cpu")
	b.Logf("CPU ms per stream: direct: agent %.0f, client %.0f; bridged: agent %.0f, bridge %.0f, client %.0f",
		perStream(cd.agent), perStream(cd.client), perStream(cb.agent), perStream(cb.bridge), perStream(cb.client))
	b.ReportMetric(float64(td.Milliseconds())/float64(b.N), "direct-ms/stream")
	b.ReportMetric(float64(tb.Milliseconds())/float64(b.N), "bridged-ms/stream")
	b.ReportMetric(float64(vmKB(bridged.cmd.Process.Pid, "VmHWM"))/1024, "bridge-peak-RSS-MB")
	b.ReportMetric(float64(vmKB(bridged.cmd.Process.Pid, "VmRSS"))/1024, "bridge-steady-RSS-MB")
}

// BenchmarkRoundTrip measures the latency a small request adds: 2,000
// sequential requests to an agent that answers at once, directly and
// through the bridge, reporting p50 and p99 of each and the added p99.
func BenchmarkRoundTrip(b *testing.B) {
	direct := startPeer(b, "echo", false, nil)
	defer direct.close(b)
	bridged := startPeer(b, "echo", true, nil)
	defer bridged.close(b)
	const per = 2000
	var dl, bl []time.Duration
	rtt := func(p *peer, id int) time.Duration {
		start := time.Now()
		fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":"session/set_mode","params":{"sessionId":"s","modeId":"code"}}`+"\n", id)
		if _, err := p.out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	id := 0
	for i := 0; i < 200; i++ { // warm up
		id++
		rtt(direct, id)
		rtt(bridged, id)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < per; j++ {
			id++
			dl = append(dl, rtt(direct, id))
			bl = append(bl, rtt(bridged, id))
		}
	}
	b.StopTimer()
	pct := func(d []time.Duration, p float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(float64(len(s)-1)*p)].Microseconds())
	}
	b.ReportMetric(pct(dl, 0.5), "direct-p50-us")
	b.ReportMetric(pct(dl, 0.99), "direct-p99-us")
	b.ReportMetric(pct(bl, 0.5), "bridged-p50-us")
	b.ReportMetric(pct(bl, 0.99), "bridged-p99-us")
	b.ReportMetric(pct(bl, 0.99)-pct(dl, 0.99), "added-p99-us")
}

// Benchmark64MiBMessage forwards a 64 MiB request through the bridge to an
// agent that answers it, and reports the bridge's peak RSS as a multiple of
// the message size.
func Benchmark64MiBMessage(b *testing.B) {
	const size = 64 << 20
	prefix := `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"text":"`
	suffix := `"}}`
	line := []byte(prefix + strings.Repeat("x", size-len(prefix)-len(suffix)) + suffix + "\n")
	p := startPeer(b, "echo", true, nil)
	defer p.close(b)
	b.ResetTimer()
	first := 0
	for i := 0; i < b.N; i++ {
		go p.in.Write(line)
		got, err := p.out.ReadString('\n')
		if err != nil || !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result"`) {
			b.Fatalf("got %q, err %v", got, err)
		}
		if i == 0 {
			first = vmKB(p.cmd.Process.Pid, "VmHWM")
		}
	}
	b.StopTimer()
	peak := vmKB(p.cmd.Process.Pid, "VmHWM")
	b.ReportMetric(float64(first*1024)/float64(size), "one-message-peak-RSS/size")
	b.ReportMetric(float64(peak)/1024, "bridge-peak-RSS-MB")
	b.ReportMetric(float64(peak*1024)/float64(size), "peak-RSS/size")
}

// BenchmarkStream200kRelays puts the bridge's ratio next to what a relay
// costs that does nothing but pass bytes on: the stream of
// BenchmarkStream200k, directly, through the two reference relays of
// relayPeer and through the bridge, in turn in the same run. A relay process
// adds a second pipe hop and a third process on the machine; the relays show
// how much of the bridge's ratio that alone accounts for.
func BenchmarkStream200kRelays(b *testing.B) {
	const n = 200000
	env := []string{"FLOOD_N=" + strconv.Itoa(n)}
	peers := []struct {
		name string
		p    *peer
	}{
		{"direct", startPeer(b, "flood", false, env)},
		{"relay-splice", startPeer(b, "relay-splice", false, env)},
		{"relay-rw", startPeer(b, "relay-rw", false, env)},
		{"bridged", startPeer(b, "flood", true, env)},
	}
	for _, p := range peers {
		defer p.p.close(b)
		streamOnce(b, p.p, 0)
	}
	wall := make([]time.Duration, len(peers))
	cpu := make([]time.Duration, len(peers)) // of the relay or bridge process
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		for k, p := range peers {
			pid := p.p.cmd.Process.Pid
			c0 := procCPU(pid)
			d, got := streamOnce(b, p.p, i)
			if got != n+1 {
				b.Fatalf("%s: %d messages, want %d", p.name, got, n+1)
			}
			wall[k] += d
			cpu[k] += procCPU(pid) - c0
		}
	}
	b.StopTimer()
	for k, p := range peers[1:] {
		b.ReportMetric(float64(wall[k+1])/float64(wall[0]), p.name+"/direct")
		b.ReportMetric(float64(cpu[k+1].Milliseconds())/float64(b.N), p.name+"-cpu-ms/stream")
	}
}
