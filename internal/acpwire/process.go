package acpwire

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Shutdown timings of Run. Variables only so tests can shorten them (see
// setGrace in export_test.go); nothing else sets them.
var (
	// stdinGrace is how long an agent gets to exit after its stdin is
	// closed before it is sent SIGTERM.
	stdinGrace = 2 * time.Second
	// termGrace is how long an agent gets after SIGTERM before SIGKILL.
	termGrace = 5 * time.Second
	// agentExitGrace is how long the bridge keeps reading an exited
	// agent's output before ending the processes that hold it open.
	agentExitGrace = 500 * time.Millisecond
)

// pipeSize is the buffer the bridge asks for (where it can) on the pipes it
// creates to the agent and on the pipe it writes the IDE's messages to. The
// default 64 KiB makes a fast agent and the bridge, and the bridge and the
// IDE, wake each other every 64 KiB; 1 MiB (Linux's default pipe-max-size)
// cuts those wake-ups.
const pipeSize = 1 << 20

// stderrTailLines is how many of the agent's last stderr lines are kept for
// error messages.
const stderrTailLines = 20

// AgentCommand says how to start the agent.
type AgentCommand struct {
	// Path is the program; it is looked up in PATH if it has no slash.
	Path string
	// Args are the arguments after the program name.
	Args []string
	// Env is the environment; nil means the bridge's own.
	Env []string
	// Dir is the working directory; empty means the bridge's own.
	Dir string
	// Stderr receives a copy of everything the agent writes to stderr;
	// optional.
	Stderr io.Writer
	// Logger receives lifecycle events; optional.
	Logger *slog.Logger
}

// Agent is a running agent process. Its stdin, stdout and stderr are pipes;
// stderr is drained continuously so the agent never blocks on it.
type Agent struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	logger *slog.Logger

	done       chan struct{} // closed when the process has been waited for
	waitErr    error         // set before done is closed
	stderrDone chan struct{} // closed when the agent's stderr has been read to its end
	stderrRead atomic.Int64  // lines of stderr copied so far

	mu    sync.Mutex // guards tail, known
	tail  []string
	known map[int]bool // every descendant of the agent seen so far
	mark  string       // the environment entry every descendant inherits

	stopOnce sync.Once
}

// StartAgent starts the agent directly (no shell). On Linux the agent gets
// SIGKILL if the bridge dies, and the bridge becomes the subreaper of the
// agent's descendants, so none outlive it unnoticed.
func StartAgent(c AgentCommand) (*Agent, error) {
	if c.Path == "" {
		return nil, errors.New("no agent command given")
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	setSubreaper()
	cmd := exec.Command(c.Path, c.Args...)
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	// Descendants inherit this mark, so the ones the agent leaves behind
	// can be found even if they were never seen while it ran.
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	mark := agentMarkVar + "=" + hex.EncodeToString(nonce[:])
	cmd.Env = append(env[:len(env):len(env)], mark)
	cmd.Dir = c.Dir
	cmd.SysProcAttr = sysProcAttr()
	// Plain OS pipes, so that waiting for the process never waits for them
	// (a descendant of the agent may hold stdout and stderr open long after
	// the agent itself has exited) and so that they can be grown.
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("agent stdin: %v", err)
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return nil, fmt.Errorf("agent stdout: %v", err)
	}
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		stdoutR.Close()
		stdoutW.Close()
		return nil, fmt.Errorf("agent stderr: %v", err)
	}
	// 1 MiB both ways: a fast agent writes on while the bridge reads, and
	// what the IDE sends an agent that is busy (not reading) waits in the
	// pipe, so the bridge still reads on and notices when the IDE goes away.
	growPipe(stdoutR)
	growPipe(stdin)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	err = cmd.Start()
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()
	if err != nil {
		stdin.Close()
		stdoutR.Close()
		stderrR.Close()
		return nil, fmt.Errorf("starting agent %q: %w", c.Path, err)
	}
	a := &Agent{cmd: cmd, stdin: stdin, stdout: stdoutR, logger: logger, done: make(chan struct{}),
		stderrDone: make(chan struct{}), known: map[int]bool{}, mark: mark}
	go a.watchTree()
	logger.Info("agent started", "pid", cmd.Process.Pid, "path", c.Path, "args", c.Args)
	go a.drainStderr(stderrR, c.Stderr)
	go func() {
		a.waitErr = cmd.Wait()
		// What the agent wrote to stderr before it exited is copied
		// before its exit is reported, so a bridge that exits with its
		// agent does not lose the last lines (often the reason it
		// ended). A descendant still holding the pipe open keeps it
		// from ending: once the copy has made no progress for
		// stderrFlushWait, or after stderrFlushLimit, the exit is
		// reported anyway.
		a.awaitStderr(stderrFlushWait, stderrFlushLimit)
		logger.Info("agent exited", "pid", cmd.Process.Pid, "status", a.status())
		close(a.done)
	}()
	return a, nil
}

// Stdin is the agent's standard input.
func (a *Agent) Stdin() io.WriteCloser { return a.stdin }

// Stdout is the agent's standard output.
func (a *Agent) Stdout() io.Reader { return a.stdout }

// closeStdout stops reading the agent's output. The bridge does this when
// the agent has exited but something it left behind keeps the pipe open.
func (a *Agent) closeStdout() { _ = a.stdout.Close() }

// Pid is the agent's process id.
func (a *Agent) Pid() int { return a.cmd.Process.Pid }

// Done is closed when the agent process has exited.
func (a *Agent) Done() <-chan struct{} { return a.done }

// ExitStatus describes how the agent exited ("exit status 1", "signal:
// killed"); it is empty while the agent runs.
func (a *Agent) ExitStatus() string {
	select {
	case <-a.done:
		return a.status()
	default:
		return ""
	}
}

// ExitedCleanly reports whether the agent exited with status 0.
func (a *Agent) ExitedCleanly() bool {
	select {
	case <-a.done:
		return a.waitErr == nil
	default:
		return false
	}
}

func (a *Agent) status() string {
	if a.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(a.waitErr, &ee) {
		return ee.ProcessState.String()
	}
	return a.waitErr.Error()
}

// StderrTail returns the agent's last lines of stderr.
func (a *Agent) StderrTail() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.tail...)
}

// stderrFlushWait is how long an exited agent's report waits for its
// stderr's copy to move on before giving up on the rest; stderrFlushLimit
// bounds the whole wait, however fast a descendant keeps writing (see
// StartAgent).
const (
	stderrFlushWait  = time.Second
	stderrFlushLimit = 10 * time.Second
)

// awaitStderr waits until the agent's stderr has been copied to its end,
// or its copy has made no progress for idle, or limit has passed. A
// machine too busy to copy the last lines within idle still gets them
// all, as long as the copy moves.
func (a *Agent) awaitStderr(idle, limit time.Duration) {
	deadline := time.After(limit)
	t := time.NewTimer(idle)
	defer t.Stop()
	last := a.stderrRead.Load()
	for {
		select {
		case <-a.stderrDone:
			return
		case <-deadline:
			return
		case <-t.C:
			n := a.stderrRead.Load()
			if n == last {
				return
			}
			last = n
			t.Reset(idle)
		}
	}
}

func (a *Agent) drainStderr(r io.ReadCloser, copyTo io.Writer) {
	defer close(a.stderrDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if len(line) > 0 {
			if copyTo != nil {
				_, _ = io.WriteString(copyTo, line)
			}
			a.mu.Lock()
			a.tail = append(a.tail, strings.TrimRight(line, "\r\n"))
			if len(a.tail) > stderrTailLines {
				a.tail = a.tail[len(a.tail)-stderrTailLines:]
			}
			a.mu.Unlock()
			a.stderrRead.Add(1)
		}
		if err != nil {
			return
		}
	}
}

// Stop shuts the agent down: close its stdin, wait stdinGrace, send SIGTERM
// to it and its descendants, wait termGrace, then SIGKILL whatever is left.
// Descendants that outlived the agent are terminated the same way. Stop
// returns when the agent has exited; it is safe to call more than once.
func (a *Agent) Stop(stdinGrace, termGrace time.Duration) {
	a.stopOnce.Do(func() { a.stop(stdinGrace, termGrace) })
	<-a.done
}

func (a *Agent) stop(stdinGrace, termGrace time.Duration) {
	a.noteTree()
	_ = a.stdin.Close()
	if waitTimeout(a.done, stdinGrace) {
		a.reapOrphans(termGrace)
		return
	}
	a.noteTree()
	tree := a.leftovers()
	a.logger.Info("agent still running after stdin closed; sending SIGTERM", "pid", a.Pid(), "descendants", len(tree))
	signalAll(append([]int{a.Pid()}, tree...), syscall.SIGTERM)
	if !waitTimeout(a.done, termGrace) {
		a.logger.Warn("agent still running after SIGTERM; sending SIGKILL", "pid", a.Pid())
		a.noteTree()
		signalAll(append([]int{a.Pid()}, a.leftovers()...), syscall.SIGKILL)
		<-a.done
	}
	a.reapOrphans(termGrace)
}

// watchTree keeps a record of the agent's descendants while it runs, so
// those it leaves behind when it exits (reparented to the bridge, its
// subreaper) can still be found.
func (a *Agent) watchTree() {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		a.noteTree()
		select {
		case <-a.done:
			return
		case <-t.C:
		}
	}
}

func (a *Agent) noteTree() {
	tree := descendants(a.Pid())
	a.mu.Lock()
	for _, p := range tree {
		a.known[p] = true
	}
	a.mu.Unlock()
}

// leftovers returns the descendants of the agent that still live: those
// seen while it ran and those that carry its environment mark.
func (a *Agent) leftovers() []int {
	marked := ProcessesWithEnv(a.mark)
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, p := range marked {
		if p != a.Pid() {
			a.known[p] = true
		}
	}
	var out []int
	for p := range a.known {
		if alive(p) {
			out = append(out, p)
		} else {
			delete(a.known, p)
		}
	}
	return out
}

// reapOrphans terminates and reaps the processes the agent left behind.
func (a *Agent) reapOrphans(termGrace time.Duration) {
	left := a.leftovers()
	if len(left) == 0 {
		return
	}
	a.logger.Info("terminating processes the agent left behind", "pids", left)
	signalAll(left, syscall.SIGTERM)
	deadline := time.Now().Add(termGrace)
	for time.Now().Before(deadline) {
		reap(left)
		if len(a.leftovers()) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	left = a.leftovers()
	signalAll(left, syscall.SIGKILL)
	for i := 0; i < 50 && len(a.leftovers()) > 0; i++ {
		reap(left)
		time.Sleep(10 * time.Millisecond)
	}
}

// agentMarkVar names the environment variable that marks an agent's
// process tree.
const agentMarkVar = "ACP_BRIDGE_AGENT_MARK"

// ProcessesWithEnv lists the live processes, other than the calling one,
// whose environment holds the whole entry "NAME=VALUE": an agent's
// descendants, which all inherit its mark (and a test's, which gives the
// program under test a marker entry, to find processes left behind once it
// has ended). It reads /proc, so it finds none elsewhere.
func ProcessesWithEnv(entry string) []int {
	want := []byte(entry)
	var pids []int
	for _, dir := range procDirs() {
		f := dir + "/environ"
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, want) {
			continue
		}
		for e := range bytes.SplitSeq(b, []byte{0}) {
			if !bytes.Equal(e, want) {
				continue
			}
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(f))); err == nil && pid != os.Getpid() {
				pids = append(pids, pid)
			}
			break
		}
	}
	return pids
}

// procDirs lists the directories of /proc whose names start with a digit,
// one per process, sorted as filepath.Glob("/proc/[0-9]*") sorts them. It
// reads /proc alone: a Glob of "/proc/[0-9]*/environ" also lists every
// process's own directory, which costs the kernel a dentry per entry, and
// each is invalidated again when that process is reaped.
func procDirs() []string {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var dirs []string
	for _, n := range names {
		if n != "" && '0' <= n[0] && n[0] <= '9' {
			dirs = append(dirs, "/proc/"+n)
		}
	}
	slices.Sort(dirs)
	return dirs
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:])
	if len(f) == 0 || f[0] == "Z" || f[0] == "X" {
		reap([]int{pid})
		return false
	}
	return true
}

func waitTimeout(done <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

func signalAll(pids []int, sig syscall.Signal) {
	for _, p := range pids {
		_ = syscall.Kill(p, sig)
	}
}

// descendants lists the live descendants of pid, found through /proc.
// Zombies are left out: they are dead and only wait to be reaped. It walks
// down from pid through each process's list of children, which reads a few
// files per process of the agent's tree; where the kernel keeps no such
// lists, it reads the parent of every process on the machine instead.
func descendants(pid int) []int {
	if out, ok := descendantsByChildren(pid); ok {
		return out
	}
	return descendantsByScan(pid)
}

// descendantsByChildren walks the tree below pid through
// /proc/PID/task/TID/children (one list per thread: a child belongs to the
// thread that started it). It reports false when the kernel does not
// provide those lists.
func descendantsByChildren(pid int) ([]int, bool) {
	return walkTree(pid, func(p int) ([]int, bool) {
		kids, ok := childrenOf(p)
		return slices.DeleteFunc(kids, func(c int) bool { return !alive(c) }), ok // a zombie, or gone since
	})
}

// walkTree lists the processes below pid, breadth first, as children finds
// each one's children; it reports false as soon as children does.
func walkTree(pid int, children func(int) ([]int, bool)) ([]int, bool) {
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		kids, ok := children(queue[0])
		if !ok {
			return nil, false
		}
		queue = append(queue[1:], kids...)
		out = append(out, kids...)
	}
	return out, true
}

// childrenOf lists the children of pid. A process that is gone has none;
// false means the kernel keeps no lists of children.
func childrenOf(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		_, statErr := os.Stat("/proc/self/task")
		return nil, statErr == nil // no /proc at all: no lists either
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Stat(dir + t.Name()); serr == nil {
				return nil, false // the thread is there but has no list
			}
			continue // the thread ended
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out, true
}

// descendantsByScan finds the tree below pid from the parent of every
// process on the machine.
func descendantsByScan(pid int) []int {
	children := map[int][]int{}
	for _, dir := range procDirs() {
		b, err := os.ReadFile(dir + "/stat")
		if err != nil {
			continue
		}
		// Format: pid (comm) state ppid ...; comm may contain spaces.
		s := string(b)
		close := strings.LastIndexByte(s, ')')
		if close < 0 {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 || fields[0] == "Z" || fields[0] == "X" {
			continue
		}
		child, err1 := strconv.Atoi(strings.TrimSpace(s[:strings.IndexByte(s, ' ')]))
		ppid, err2 := strconv.Atoi(fields[1])
		if err1 == nil && err2 == nil {
			children[ppid] = append(children[ppid], child)
		}
	}
	out, _ := walkTree(pid, func(p int) ([]int, bool) { return children[p], true })
	return out
}
