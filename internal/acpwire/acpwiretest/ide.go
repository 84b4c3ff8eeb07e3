package acpwiretest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// IDE is the IDE's side of a whole bridge program (the acp-bridge command,
// run in-process or as a process) over real pipes: the test writes the
// IDE's lines to the program's stdin and reads the lines it writes to
// stdout. Every line the program writes is kept, read or not, so a test can
// also ask whether a message ever reached the IDE.
type IDE struct {
	t      testing.TB
	opts   IDEOptions
	stderr Buffer
	done   chan struct{} // closed when the program has ended
	err    error         // how it ended; set before done is closed

	wmu   sync.Mutex // guards writes to stdin, so that lines never interleave
	stdin io.WriteCloser
	out   io.Closer // the IDE's end of the program's stdout

	mu      sync.Mutex    // guards lines, eof, arrived and lastID
	lines   []string      // what the program wrote to stdout
	eof     bool          // stdout has ended
	arrived chan struct{} // closed and replaced when a line arrives or stdout ends
	lastID  int           // the last id Request used

	nextLine int // the next line Next returns; only the test goroutine uses it

	// Timeout bounds each wait; zero means DefaultTimeout.
	Timeout time.Duration
}

// IDEOptions configure an IDE; the zero value is an IDE that answers
// nothing on its own.
type IDEOptions struct {
	// Answer is given each line the program sends and returns the IDE's
	// reply, or "" for none: an IDE that answers the agent's requests
	// (file reads, permissions) by script. It runs on the goroutine that
	// reads the program's output, so it must not wait on the test.
	// Optional.
	Answer func(line string) string
}

// RunIDE runs main with the zero IDEOptions (see IDEOptions.Run).
func RunIDE(t testing.TB, main func(stdin io.Reader, stdout, stderr io.Writer) error) *IDE {
	t.Helper()
	return IDEOptions{}.Run(t, main)
}

// StartIDE starts cmd with the zero IDEOptions (see IDEOptions.Start).
func StartIDE(t testing.TB, cmd *exec.Cmd) *IDE {
	t.Helper()
	return IDEOptions{}.Start(t, cmd)
}

// Run runs main, a program's entry point over the given standard streams,
// in a goroutine over real pipes, the test playing the IDE. When the test
// ends its stdin is closed and main must return.
func (o IDEOptions) Run(t testing.TB, main func(stdin io.Reader, stdout, stderr io.Writer) error) *IDE {
	t.Helper()
	inR, inW := pipe(t)
	outR, outW := pipe(t)
	ide := newIDE(t, o, inW)
	ide.out = outR
	ended := make(chan error, 1)
	go func() {
		err := main(inR, outW, &ide.stderr)
		outW.Close()
		inR.Close()
		ended <- err
	}()
	go func() {
		ide.read(outR) // to EOF, so that Received is whole once Wait returns
		ide.end(<-ended)
	}()
	t.Cleanup(func() {
		inW.Close()
		ide.wait("to return")
		outR.Close()
	})
	return ide
}

// Start starts cmd, whose standard streams must not be set, with its
// stdin and stdout as the IDE's pipes. When the test ends its stdin is
// closed, and it is killed if it has not exited by the timeout.
func (o IDEOptions) Start(t testing.TB, cmd *exec.Cmd) *IDE {
	t.Helper()
	ide := newIDE(t, o, nil)
	cmd.Stderr = &ide.stderr
	stdin, stdout, err := StartPiped(cmd)
	if err != nil {
		t.Fatal(err)
	}
	ide.stdin = stdin
	ide.out = stdout
	go func() {
		ide.read(stdout) // to EOF before Wait, which closes the pipe
		ide.end(cmd.Wait())
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-ide.done:
		case <-time.After(ide.timeout()):
			cmd.Process.Kill()
			<-ide.done
			t.Errorf("%s did not exit within %v of its stdin closing; killed", cmd.Path, ide.timeout())
		}
	})
	return ide
}

func newIDE(t testing.TB, o IDEOptions, stdin io.WriteCloser) *IDE {
	return &IDE{t: t, opts: o, stdin: stdin, done: make(chan struct{}), arrived: make(chan struct{})}
}

func (ide *IDE) end(err error) {
	ide.err = err
	close(ide.done)
}

// read keeps every line of r until it ends.
func (ide *IDE) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimSuffix(line, "\n")
		ide.mu.Lock()
		if line != "" {
			ide.lines = append(ide.lines, line)
		}
		ide.eof = err != nil
		close(ide.arrived)
		ide.arrived = make(chan struct{})
		ide.mu.Unlock()
		if err != nil {
			return
		}
		if ide.opts.Answer != nil {
			if reply := ide.opts.Answer(line); reply != "" {
				ide.write(reply) // an error shows as the program's
			}
		}
	}
}

// Send writes line, without its newline, as the IDE. The test fails if the
// program has ended or does not read it in time.
func (ide *IDE) Send(line string) {
	ide.t.Helper()
	wrote := make(chan error, 1)
	go func() { wrote <- ide.write(line) }()
	select {
	case err := <-wrote:
		if err != nil {
			ide.t.Fatalf("writing %.200s to the bridge: %v\nstderr:\n%s", line, err, ide.Stderr())
		}
	case <-ide.done:
		ide.t.Fatalf("the bridge ended (%v) before reading %.200s\nstderr:\n%s", ide.err, line, ide.Stderr())
	case <-time.After(ide.timeout()):
		ide.t.Fatalf("timed out after %v writing %.200s to the bridge\nstderr:\n%s", ide.timeout(), line, ide.Stderr())
	}
}

func (ide *IDE) write(line string) error {
	ide.wmu.Lock()
	defer ide.wmu.Unlock()
	_, err := io.WriteString(ide.stdin, line+"\n")
	return err
}

// Request sends a JSON-RPC request for method with params (JSON) and
// returns its id: 1, 2, ... as JSON, so a test that also writes requests of
// its own should give them string ids.
func (ide *IDE) Request(method, params string) (id string) {
	ide.t.Helper()
	ide.mu.Lock()
	ide.lastID++
	id = strconv.Itoa(ide.lastID)
	ide.mu.Unlock()
	ide.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`)
	return id
}

// Response waits for the response to the request with id (JSON), among
// every line the IDE has received, and returns it.
func (ide *IDE) Response(id string) string {
	ide.t.Helper()
	return ide.WaitLine("the response to request "+id, func(line string) bool {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		return json.Unmarshal([]byte(line), &m) == nil && m.Method == nil && string(m.ID) == id
	})
}

// Call sends a request (see Request) and returns the response to it.
func (ide *IDE) Call(method, params string) string {
	ide.t.Helper()
	return ide.Response(ide.Request(method, params))
}

// WaitLine waits until a line the IDE has received, since the start,
// satisfies cond, and returns the first that does.
func (ide *IDE) WaitLine(what string, cond func(line string) bool) string {
	ide.t.Helper()
	var found string
	ide.await(what, func(lines []string) bool {
		for _, l := range lines {
			if cond(l) {
				found = l
				return true
			}
		}
		return false
	})
	return found
}

// Lines returns every line the IDE has received so far.
func (ide *IDE) Lines() []string {
	ide.mu.Lock()
	defer ide.mu.Unlock()
	return slices.Clone(ide.lines)
}

// Next returns the next line the IDE receives, without its newline.
func (ide *IDE) Next() string {
	ide.t.Helper()
	lines := ide.await("a message", func(lines []string) bool { return len(lines) > ide.nextLine })
	ide.nextLine++
	return lines[ide.nextLine-1]
}

// Until returns the lines the IDE receives from the next one up to and
// including the first that contains want.
func (ide *IDE) Until(want string) []string {
	ide.t.Helper()
	var end int
	lines := ide.await(fmt.Sprintf("a message containing %q", want), func(lines []string) bool {
		for end = ide.nextLine; end < len(lines); end++ {
			if strings.Contains(lines[end], want) {
				return true
			}
		}
		return false
	})
	got := lines[ide.nextLine : end+1]
	ide.nextLine = end + 1
	return got
}

// await waits until cond holds of the lines received so far, and returns
// them; the test fails if stdout ends first or the wait times out.
func (ide *IDE) await(what string, cond func([]string) bool) []string {
	ide.t.Helper()
	timeout := time.After(ide.timeout())
	for {
		ide.mu.Lock()
		lines, eof, arrived := ide.lines, ide.eof, ide.arrived
		ide.mu.Unlock()
		switch {
		case cond(lines):
			return lines
		case eof:
			ide.t.Fatalf("the bridge closed its stdout before sending %s; the IDE got:\n%s\nstderr:\n%s", what, strings.Join(lines, "\n"), ide.Stderr())
		}
		select {
		case <-arrived:
		case <-timeout:
			ide.t.Fatalf("timed out after %v waiting for %s; the IDE got:\n%s\nstderr:\n%s", ide.timeout(), what, strings.Join(lines, "\n"), ide.Stderr())
		}
	}
}

// Received returns every line the IDE has received so far, each with its
// newline.
func (ide *IDE) Received() string {
	ide.mu.Lock()
	defer ide.mu.Unlock()
	var b strings.Builder
	for _, l := range ide.lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// Stderr returns what the program has written to its stderr so far.
func (ide *IDE) Stderr() string { return ide.stderr.String() }

// WaitFor waits until cond holds, checking it every few milliseconds: for
// what the test can only observe by looking (a file an agent writes). The
// test fails, showing the program's stderr, if it does not hold in time.
func (ide *IDE) WaitFor(what string, cond func() bool) {
	ide.t.Helper()
	deadline := time.Now().Add(ide.timeout())
	for !cond() {
		if time.Now().After(deadline) {
			ide.t.Fatalf("timed out after %v waiting for %s\nstderr:\n%s", ide.timeout(), what, ide.Stderr())
		}
		time.Sleep(5 * time.Millisecond) // nothing to wait on: poll
	}
}

// Hangup closes the IDE's end of the program's stdout, as an IDE that quit
// without a word: the program's next write fails.
func (ide *IDE) Hangup() { ide.out.Close() }

// Close closes the program's stdin: the IDE has left.
func (ide *IDE) Close() { ide.stdin.Close() }

// Wait closes the program's stdin and returns how the program ended (for a
// process, an *exec.ExitError when it exited non-zero). The test fails if
// it does not end in time.
func (ide *IDE) Wait() error {
	ide.t.Helper()
	ide.stdin.Close()
	ide.wait("to end")
	return ide.err
}

// WaitExit returns how the program ended, once it ends on its own (its
// stdin left open, as after a signal). The test fails if it does not end
// in time.
func (ide *IDE) WaitExit() error {
	ide.t.Helper()
	ide.wait("to end")
	return ide.err
}

func (ide *IDE) wait(what string) {
	ide.t.Helper()
	select {
	case <-ide.done:
	case <-time.After(ide.timeout()):
		ide.t.Fatalf("timed out after %v waiting for the bridge %s\nstderr:\n%s", ide.timeout(), what, ide.Stderr())
	}
}

func (ide *IDE) timeout() time.Duration {
	if ide.Timeout > 0 {
		return ide.Timeout
	}
	return DefaultTimeout
}

// Buffer is a strings.Builder safe for concurrent use: a program's
// stderr, written by its goroutines while the test reads it.
type Buffer struct {
	mu sync.Mutex // guards b
	b  strings.Builder
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
