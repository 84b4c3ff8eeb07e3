package acpwire

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/acp-bridge/acp-bridge/internal/demo"
)

// The test binary doubles as the agent: TestMain runs an agent instead of
// the tests when ACPWIRE_TEST_AGENT is set.
func TestMain(m *testing.M) {
	switch os.Getenv("ACPWIRE_TEST_AGENT") {
	case "":
		os.Exit(m.Run())
	case "demo":
		(&demo.Agent{}).Serve(os.Stdin, os.Stdout)
		os.Exit(0)
	case "exit-leaving-child":
		// Leaves a child that holds stdout and stderr open, then exits
		// with status 5 on the first request, as the gemini launcher does
		// when its worker outlives it.
		child := exec.Command("sleep", "300")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			os.Exit(1)
		}
		fmt.Printf(`{"jsonrpc":"2.0","method":"_test/pids","params":{"agent":%d,"child":%d}}`+"\n", os.Getpid(), child.Process.Pid)
		fmt.Fprintln(os.Stderr, "fatal: worker lost")
		bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(5)
	case "held":
		// Busy until the test releases it (heldAgent), then counts its
		// input: opening the FIFO waits for the test to open its other end.
		if f, err := os.Open(os.Getenv("ACPWIRE_TEST_GO")); err == nil {
			f.Close()
		}
		n, _ := io.Copy(io.Discard, os.Stdin)
		os.WriteFile(os.Getenv("ACPWIRE_TEST_OUT"), []byte(strconv.FormatInt(n, 10)), 0o600)
	case "deaf":
		// Never reads its stdin, as an agent busy with something else.
		time.Sleep(time.Hour)
	case "stubborn":
		// Ignores stdin closing and SIGTERM, and has a child of its own.
		signalIgnoreTerm()
		child := exec.Command("sleep", "300")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf(`{"jsonrpc":"2.0","method":"_test/pids","params":{"agent":%d,"child":%d}}`+"\n", os.Getpid(), child.Process.Pid)
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
	}
}

// heldAgent returns an agent that reads nothing until release is called,
// then counts what it reads into the file out; release returns once the
// agent has been let go. An agent busy with something else, without a
// guess at how long the test takes to get where the agent should be busy.
func heldAgent(t *testing.T, out string) (cmd AgentCommand, release func()) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd = selfAgent(t, "held")
	cmd.Env = append(cmd.Env, "ACPWIRE_TEST_OUT="+out, "ACPWIRE_TEST_GO="+fifo)
	return cmd, func() {
		t.Helper()
		opened := make(chan error, 1)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Close()
			}
			opened <- err
		}()
		select {
		case err := <-opened:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(settle):
			t.Fatalf("the held agent was not waiting to be released after %v", settle)
		}
	}
}

// syncBuffer is a strings.Builder that the bridge's logger and a test can
// share.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func selfAgent(t *testing.T, mode string) AgentCommand {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return AgentCommand{Path: exe, Env: append(os.Environ(), "ACPWIRE_TEST_AGENT="+mode), Stderr: io.Discard}
}

// runBridged starts the agent, runs the bridge between it and an SDK client
// over real pipes, and returns the client and the bridge's result channel.
func runBridged(t *testing.T, mode string, answer demo.PermissionAnswer) (*demo.Client, *os.File, <-chan error, *Agent) {
	t.Helper()
	agent, err := StartAgent(selfAgent(t, mode))
	if err != nil {
		t.Fatal(err)
	}
	cr, cw := osPipe(t)
	sr, sw := osPipe(t)
	b := New(Options{})
	done := make(chan error, 1)
	go func() {
		err := b.Run(context.Background(), Endpoint{In: cr, Out: sw}, agent)
		sw.Close()
		done <- err
	}()
	client := &demo.Client{Root: t.TempDir(), Answer: answer}
	client.Connect(cw, sr)
	t.Cleanup(func() {
		cw.Close()
		agent.Stop(100*time.Millisecond, time.Second)
	})
	return client, cw, done, agent
}

// TestSDKPeersThroughBridge: an agent and a client built on acp-go-sdk
// complete whole turns through the bridge, for each way of answering the
// permission request.
func TestSDKPeersThroughBridge(t *testing.T) {
	for _, c := range []struct {
		answer   demo.PermissionAnswer
		stop     acp.StopReason
		notesSet bool
	}{
		{demo.AnswerAllow, acp.StopReasonEndTurn, true},
		{demo.AnswerReject, acp.StopReasonEndTurn, false},
		{demo.AnswerCancel, acp.StopReasonCancelled, false},
	} {
		t.Run(string(c.answer), func(t *testing.T) {
			client, stdin, done, _ := runBridged(t, "demo", c.answer)
			if err := os.WriteFile(client.Root+"/big.log", []byte(strings.Repeat("log line\n", 1000)), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			init, err := client.Start(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if init.AgentInfo == nil || init.AgentInfo.Name != "acp-bridge-demo" {
				t.Fatalf("agentInfo = %+v", init.AgentInfo)
			}
			stop, err := client.Prompt(ctx, "review")
			if err != nil {
				t.Fatal(err)
			}
			if stop != c.stop {
				t.Fatalf("stop reason %q, want %q", stop, c.stop)
			}
			_, statErr := os.Stat(client.Root + "/notes.txt")
			if (statErr == nil) != c.notesSet {
				t.Fatalf("notes.txt written = %v, want %v", statErr == nil, c.notesSet)
			}
			var toolCalls int
			for _, u := range client.Updates() {
				if u.ToolCall != nil {
					toolCalls++
				}
			}
			if toolCalls != 2 {
				t.Fatalf("saw %d tool calls, want 2", toolCalls)
			}
			stdin.Close()
			if err := runReturned(t, done, 10*time.Second, "bridge did not stop after the client closed its input"); err != nil {
				t.Fatalf("bridge: %v", err)
			}
		})
	}
}

// TestAgentCrashMidTurn: the pending prompt gets an error naming the exit
// status, and Run reports the agent's exit.
func TestAgentCrashMidTurn(t *testing.T) {
	client, _, done, agent := runBridged(t, "demo", demo.AnswerAllow)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := client.Prompt(ctx, "crash")
	var rerr *acp.RequestError
	if !errors.As(err, &rerr) {
		t.Fatalf("prompt error = %v, want a JSON-RPC error", err)
	}
	if !strings.Contains(rerr.Message, "exit status 3") {
		t.Fatalf("error message %q does not name the exit status", rerr.Message)
	}
	err = runReturned(t, done, 10*time.Second, "bridge did not return after the agent crashed")
	var gone *AgentExitError
	if !errors.As(err, &gone) || gone.Failed != 1 {
		t.Fatalf("Run = %v, want *AgentExitError with 1 failed request", err)
	}
	if alive(agent.Pid()) {
		t.Fatal("agent process still alive")
	}
}

// TestNoProcessLeftBehind: an agent that ignores stdin closing and SIGTERM,
// and has a child of its own, is killed with its child when the client
// closes its input or the bridge is told to stop.
func TestNoProcessLeftBehind(t *testing.T) {
	restore := setGrace(100*time.Millisecond, 300*time.Millisecond)
	defer restore()
	for _, how := range []string{"client closes stdin", "bridge cancelled"} {
		t.Run(how, func(t *testing.T) {
			agent, err := StartAgent(selfAgent(t, "stubborn"))
			if err != nil {
				t.Fatal(err)
			}
			cr, cw := osPipe(t)
			sr, sw := osPipe(t)
			defer sr.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- New(Options{}).Run(ctx, Endpoint{In: cr, Out: sw}, agent) }()
			// The agent announces its pids.
			line := make([]byte, 4096)
			n, err := sr.Read(line)
			if err != nil {
				t.Fatal(err)
			}
			var agentPid, childPid int
			if _, err := fmt.Sscanf(string(line[:n]), `{"jsonrpc":"2.0","method":"_test/pids","params":{"agent":%d,"child":%d}}`, &agentPid, &childPid); err != nil {
				t.Fatalf("parsing %q: %v", line[:n], err)
			}
			if how == "client closes stdin" {
				cw.Close()
			} else {
				cancel()
			}
			runReturned(t, done, 10*time.Second, "bridge did not stop")
			for _, pid := range []int{agentPid, childPid} {
				if alive(pid) {
					t.Errorf("process %d still alive: %s", pid, procStat(pid))
				}
			}
		})
	}
}

func procStat(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return string(b)
}

func signalIgnoreTerm() { signalIgnore(syscall.SIGTERM) }

// TestAgentExitWithChildHoldingPipes: the agent exits while a child it left
// keeps its stdout and stderr open. The bridge must still notice, answer
// the pending request with the exit status, and end the child.
func TestAgentExitWithChildHoldingPipes(t *testing.T) {
	_, cw, sr, done := bridgeAgent(t, selfAgent(t, "exit-leaving-child"))
	out := bufio.NewReader(sr)
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var agentPid, childPid int
	if _, err := fmt.Sscanf(line, `{"jsonrpc":"2.0","method":"_test/pids","params":{"agent":%d,"child":%d}}`, &agentPid, &childPid); err != nil {
		t.Fatalf("parsing %q: %v", line, err)
	}
	fmt.Fprintln(cw, `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}`)
	resp, err := out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp, `"id":1`) || !strings.Contains(resp, "exit status 5") || !strings.Contains(resp, "worker lost") {
		t.Fatalf("client got %s, want an error naming exit status 5 and the stderr tail", resp)
	}
	err = runReturned(t, done, 15*time.Second, "bridge did not notice the agent's exit")
	var gone *AgentExitError
	if !errors.As(err, &gone) {
		t.Fatalf("Run = %v", err)
	}
	if alive(childPid) {
		t.Fatalf("the agent's child %d is still alive", childPid)
	}
}

// TestClientLeavesBusyAgent: the IDE sends an agent that is not reading
// (busy, or hung) more small messages, one at a time, than the pipe to it
// holds (1 MiB takes only some 770 writes of 1 KB: a page holds three), then
// closes its end. The bridge keeps reading meanwhile (up to maxWaiting
// messages, and maxWaitingBytes, wait behind the full pipe), notices the
// IDE has gone, and shuts the agent down.
func TestClientLeavesBusyAgent(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"_test/note","params":{"pad":"` + strings.Repeat("p", 1000) + `"}}` + "\n"
	clientLeavesDeafAgent(t, func(send func(string)) {
		for range 900 {
			send(msg)
			time.Sleep(50 * time.Microsecond) // one message per read
		}
	})
}

// TestClientLeavesDeafAgentBigThenSmall: a message larger than the pipe to
// an agent that does not read, then small ones, each read on its own.
func TestClientLeavesDeafAgentBigThenSmall(t *testing.T) {
	big := `{"jsonrpc":"2.0","method":"_test/note","params":{"pad":"` + strings.Repeat("p", 3<<20) + `"}}` + "\n"
	clientLeavesDeafAgent(t, func(send func(string)) {
		send(big)
		for range 20 {
			time.Sleep(2 * time.Millisecond)
			send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}` + "\n")
		}
	})
}

// TestClientLeavesSlowAgent: the IDE sends more than the pipe holds to an
// agent that is busy before it reads, and closes its end at once. The
// agent, let go only once the bridge is shutting it down, still gets every
// byte: the bridge waits for an agent that is slow as long as it takes
// something within the grace periods.
func TestClientLeavesSlowAgent(t *testing.T) {
	defer setGrace(time.Second, 2*time.Second)()
	out := filepath.Join(t.TempDir(), "got")
	cmd, release := heldAgent(t, out)
	var logs syncBuffer
	_, cw, _, done := bridgeAgentWith(t, cmd, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	msg := `{"jsonrpc":"2.0","method":"_test/note","params":{"pad":"` + strings.Repeat("p", 1000) + `"}}` + "\n"
	// More than the pipe holds, less than the pipe and the messages that
	// may wait: the IDE is done before the agent reads.
	stream := strings.Repeat(msg, (pipeSize+pipeSize/8)/len(msg))
	go func() {
		io.WriteString(cw, stream)
		cw.Close()
	}()
	waitFor(t, "the bridge to see the IDE leave", func() bool {
		return strings.Contains(logs.String(), "client closed its input; shutting the agent down")
	})
	release()
	agentGotAll(t, done, out, len(stream))
}

// TestClientLeavesDeafAgentBigMessage: the IDE sends an agent that is not
// reading one message larger than the pipe to it, then closes its end. The
// write to the agent cannot finish, but the bridge still notices the IDE
// has gone and shuts the agent down (which ends the write).
func TestClientLeavesDeafAgentBigMessage(t *testing.T) {
	msg := `{"jsonrpc":"2.0","method":"_test/note","params":{"pad":"` + strings.Repeat("p", 3<<20) + `"}}` + "\n"
	clientLeavesDeafAgent(t, func(send func(string)) { send(msg) })
}

// TestClientLeavesDeafAgentFlood: the IDE sends to an agent that never
// reads until the bridge stops reading it too (the agent's pipe and the
// messages that may wait are full), then closes its end. The bridge must
// notice without reading: the agent will never make room. What it takes in
// meanwhile is bounded in bytes, whatever the size of the messages: the
// agent's pipe, maxWaitingBytes, the write buffer, the batch the reader is
// handing over (what one read completed), the message being written and
// the one being read, and the IDE's pipe.
func TestClientLeavesDeafAgentFlood(t *testing.T) {
	for _, size := range []int{1000, 1 << 20} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			defer setGrace(200*time.Millisecond, time.Second)()
			agent, cw, _, done := bridgeAgent(t, selfAgent(t, "deaf"))
			msg := `{"jsonrpc":"2.0","method":"_test/note","params":{"pad":"` + strings.Repeat("p", size) + `"}}` + "\n"
			bound := pipeSize + maxWaitingBytes + writeBufferSize + blockSize + 3*len(msg) + 64<<10
			sent := floodUntilHeld(t, cw, msg, time.Second, bound)
			t.Logf("the bridge stopped reading after %d bytes", sent)
			start := time.Now()
			cw.Close()
			if err := runReturned(t, done, 10*time.Second, "bridge did not notice that the IDE closed its end"); err != nil {
				t.Fatalf("Run = %v, want nil (the client left)", err)
			}
			t.Logf("stopped %v after the IDE closed its end", time.Since(start).Round(time.Millisecond))
			if alive(agent.Pid()) {
				t.Errorf("agent %d still alive: %s", agent.Pid(), procStat(agent.Pid()))
			}
		})
	}
}

// floodUntilHeld writes msg to the bridge's input w until a write has
// waited longer than wait for the bridge to read, and returns the bytes the
// bridge took. It fails the test past bound bytes.
func floodUntilHeld(t *testing.T, w *os.File, msg string, wait time.Duration, bound int) int {
	t.Helper()
	sent := 0
	for {
		if err := w.SetWriteDeadline(time.Now().Add(wait)); err != nil {
			t.Fatal(err)
		}
		n, err := io.WriteString(w, msg)
		sent += n
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return sent
		}
		if err != nil {
			t.Fatal(err)
		}
		if sent > bound {
			t.Fatalf("the bridge took more than %d bytes for an agent that does not read", bound)
		}
	}
}

// clientLeavesDeafAgent runs the bridge with an agent that never reads its
// stdin, lets the IDE's side send what it will, closes the IDE's end, and
// checks that the bridge stops and no agent is left. send fails the test if
// the bridge stops reading the IDE for 10 s.
func clientLeavesDeafAgent(t *testing.T, talk func(send func(string))) {
	t.Helper()
	defer setGrace(200*time.Millisecond, time.Second)()
	agent, cw, _, done := bridgeAgent(t, selfAgent(t, "deaf"))
	if err := cw.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	n := 0
	talk(func(msg string) {
		n++
		if _, err := io.WriteString(cw, msg); err != nil {
			t.Fatalf("message %d: the bridge stopped reading the IDE: %v", n, err)
		}
	})
	cw.Close()
	runReturned(t, done, 10*time.Second, "bridge did not stop after the IDE closed its end")
	if alive(agent.Pid()) {
		t.Errorf("agent %d still alive: %s", agent.Pid(), procStat(agent.Pid()))
	}
}

// runReturned waits up to limit for the bridge's Run to return its error
// on done, and returns it; past limit it fails t with msg.
func runReturned(t *testing.T, done <-chan error, limit time.Duration, msg string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatal(msg)
		return nil
	}
}

// bridgeAgent starts the agent cmd and runs a bridge between it and pipes
// the test holds: it writes the IDE's side to toBridge and reads what the
// IDE gets from fromBridge; done yields Run's result.
func bridgeAgent(t *testing.T, cmd AgentCommand) (agent *Agent, toBridge, fromBridge *os.File, done <-chan error) {
	t.Helper()
	return bridgeAgentWith(t, cmd, Options{})
}

// bridgeAgentWith is bridgeAgent with a bridge made with opts.
func bridgeAgentWith(t *testing.T, cmd AgentCommand, opts Options) (agent *Agent, toBridge, fromBridge *os.File, done <-chan error) {
	t.Helper()
	agent, err := StartAgent(cmd)
	if err != nil {
		t.Fatal(err)
	}
	cr, cw := osPipe(t)
	sr, sw := osPipe(t)
	t.Cleanup(func() { cw.Close(); sr.Close() })
	result := make(chan error, 1)
	go func() { result <- New(opts).Run(context.Background(), Endpoint{In: cr, Out: sw}, agent) }()
	return agent, cw, sr, result
}

// agentGotAll waits for the bridge to stop (done) and checks that the
// agent, which counts what it reads into the file out, got all sent bytes.
func agentGotAll(t *testing.T, done <-chan error, out string, sent int) {
	t.Helper()
	runReturned(t, done, 20*time.Second, "bridge did not stop")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the agent did not report: %v", err)
	}
	if string(got) != strconv.Itoa(sent) {
		t.Fatalf("agent read %s bytes, want all %d the IDE sent", got, sent)
	}
}

// TestWatchHangupOnlyWhenStalled checks that a hang-up of the client's
// input ends its side only once the reader has been kept from reading for a
// while: otherwise the reader reads what is left and reports the end itself,
// after it. It runs on the fake clock of testing/synctest: "no end within
// three polls" is then exact, not a guess at how long the scheduler takes.
func TestWatchHangupOnlyWhenStalled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := &Session{b: New(Options{}), ended: make(chan *Ended, 2), started: time.Now()}
		probes := 0
		hungUp := func() bool { probes++; return true }
		var stalledSince atomic.Int64
		done := make(chan struct{})
		watched := make(chan struct{})
		go func() { s.watchHangup(hungUp, &stalledSince, done); close(watched) }()
		noEnd := func(when string) {
			t.Helper()
			time.Sleep(3 * hangupPoll)
			synctest.Wait() // the watch has looked three times and is waiting again
			select {
			case e := <-s.ended:
				t.Fatalf("ended %v %s", e, when)
			default:
			}
		}
		noEnd("while the reader was reading")
		// A stall that has only just begun is not one yet.
		stalledSince.Store(int64(time.Since(s.started) + time.Hour))
		noEnd(fmt.Sprintf("before the reader had been stalled for %v", hangupPoll))
		stalledSince.Store(int64(time.Since(s.started)) + 1)
		// Were no end to come, every goroutine of the bubble would be
		// blocked and synctest would fail the test.
		if e := <-s.ended; e.Side != ClientToAgent || e.Err != nil {
			t.Fatalf("ended %v, want the client side, cleanly", e)
		}
		<-watched
		if probes != 1 {
			t.Errorf("the input was probed %d times; want only once the reader had stalled", probes)
		}
		s.end(ClientToAgent, io.EOF) // the reader's own end, later: not reported twice
		select {
		case e := <-s.ended:
			t.Fatalf("a second end of the client side: %v", e)
		default:
		}
		close(done)
	})
}
