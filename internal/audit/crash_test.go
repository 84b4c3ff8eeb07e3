package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/crashtest"
	"github.com/acp-bridge/acp-bridge/internal/leakcheck"
)

// crashChildEnv makes the test binary act as a process that writes an audit
// log under heavy traffic until it is killed (see TestCrashSafety).
const crashChildEnv = "AUDIT_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path, os.Getenv("AUDIT_CRASH_RUN")))
	}
	os.Exit(leakcheck.Main(m)) // fails the run if a test leaves goroutines running
}

// crashChild appends from four goroutines as fast as it can while the main
// goroutine records decisions with AppendSync; after each AppendSync
// returns it reports "decided <ref>" on stdout, which is the moment the
// decision would take effect.
func crashChild(path, run string) int {
	l, err := Open(path, Options{MaxBytes: 64 << 10})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 3
	}
	agent := Actor{ID: "agent:claude-code", Role: "operator"}
	for g := range 4 {
		go func() {
			for i := 0; ; i++ {
				ev := Event{Actor: agent, Action: "session.update", Subject: Subject{Kind: "tool-call", Ref: fmt.Sprintf("traffic-%s-%d-%d", run, g, i)},
					Input:    map[string]any{"chunk": strings.Repeat("data ", i%50), "token": "ghp_" + strings.Repeat("x", 36)},
					Metadata: map[string]any{"session": "sess-" + run}}
				if err := l.Append(ev); err != nil {
					fmt.Fprintln(os.Stderr, "append:", err)
					os.Exit(4)
				}
			}
		}()
	}
	for i := 0; ; i++ {
		ref := fmt.Sprintf("decision-%s-%d", run, i)
		ev := Event{Actor: Actor{ID: "acp-bridge", Role: "system"}, Action: "policy.decision", Subject: Subject{Kind: "tool-call", Ref: ref},
			Policy: &Policy{Ref: "deny-dotenv", Decision: DecisionDeny}, Metadata: map[string]any{"session": "sess-" + run}}
		if err := l.AppendSync(ev); err != nil {
			fmt.Fprintln(os.Stderr, "append sync:", err)
			return 5
		}
		// Unbuffered: the line is in the pipe before the next decision.
		fmt.Fprintf(os.Stdout, "decided %s\n", ref)
	}
}

// TestCrashSafety kills a process writing the log at random moments (100
// times; 20 with -short) and checks that, after Repair, every file
// verifies and every decision whose AppendSync returned is in the log.
// Each log directory serves two runs, so the second child also continues a
// chain that a SIGKILL cut. The kill comes within 10 ms of the first
// confirmed decision and the log rotates every 64 KiB: a run crosses
// several rotations, and what it writes, every byte of which is verified
// again, stays small.
func TestCrashSafety(t *testing.T) {
	runs := crashtest.Runs()
	exe := crashtest.Executable(t)
	root := t.TempDir()
	var mu sync.Mutex
	var decided, torn, maxFiles int
	crashtest.Run(t, runs, func(w, run int, rng *rand.Rand) error {
		// Consecutive runs of one worker share a directory.
		dir := filepath.Join(root, fmt.Sprintf("log-%d-%d", w, run/crashtest.Workers/2))
		os.MkdirAll(dir, 0o700)
		path := filepath.Join(dir, "audit.jsonl")
		refs, tornLine, files, err := crashOnce(exe, path, fmt.Sprint(run), time.Duration(rng.IntN(10_000))*time.Microsecond)
		if err != nil {
			return err
		}
		mu.Lock()
		decided += len(refs)
		if tornLine {
			torn++
		}
		maxFiles = max(maxFiles, files)
		mu.Unlock()
		return nil
	})
	t.Logf("%d runs, %d decisions confirmed and found, %d torn lines repaired, up to %d files per chain", runs, decided, torn, maxFiles)
	if decided == 0 {
		t.Error("no decision was confirmed in any run: the kill comes too early to test anything")
	}
}

// firstDecisionTimeout bounds the wait for a crash child's first confirmed
// decision: only a child that is stuck takes that long. The wait ends as
// soon as the line is there; a fixed 10 s is less than a process may wait
// for a core to start on a loaded machine (cmd/acp-bridge's crash test
// needed more than 10 s for a bridge at a load average of 60 on 2 cores).
const firstDecisionTimeout = 60 * time.Second

// crashOnce starts a child writing path, kills it after delay (counted
// from its first confirmed decision), then repairs, verifies and looks for
// every confirmed decision.
func crashOnce(exe, path, run string, delay time.Duration) (refs []string, torn bool, nfiles int, err error) {
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path, "AUDIT_CRASH_RUN="+run)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, 0, err
	}
	if err := cmd.Start(); err != nil {
		return nil, false, 0, err
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var timer <-chan time.Time
	deadline := time.After(firstDecisionTimeout)
	killed := false
	for !killed {
		select {
		case line, ok := <-lines:
			if !ok {
				cmd.Wait()
				return nil, false, 0, fmt.Errorf("child exited early: %s", stderr.String())
			}
			refs = append(refs, strings.TrimPrefix(line, "decided "))
			if timer == nil {
				timer = time.After(delay)
			}
		case <-timer:
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		case <-deadline:
			cmd.Process.Kill()
			cmd.Wait()
			return nil, false, 0, fmt.Errorf("child confirmed no decision in %v: %s", firstDecisionTimeout, stderr.String())
		}
	}
	// What the child wrote to the pipe before it died is still there.
	for line := range lines {
		refs = append(refs, strings.TrimPrefix(line, "decided "))
	}
	cmd.Wait()

	res, err := Repair(path)
	if err != nil {
		return nil, false, 0, err
	}
	var files []string
	if _, err := os.Stat(path); err == nil {
		files = append(files, path)
	}
	rot, err := rotatedFiles(path)
	if err != nil {
		return nil, false, 0, err
	}
	for _, r := range rot {
		files = append(files, r.name)
	}
	if _, err := Verify(files...); err != nil {
		return nil, false, 0, fmt.Errorf("after repair: %v", err)
	}
	found := make(map[string]bool)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, false, 0, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r struct {
				Subject Subject `json:"subject"`
			}
			if json.Unmarshal(sc.Bytes(), &r) == nil && strings.HasPrefix(r.Subject.Ref, "decision-") {
				found[r.Subject.Ref] = true
			}
		}
		f.Close()
	}
	for _, ref := range refs {
		if !found[ref] {
			return nil, false, 0, fmt.Errorf("decision %s was confirmed but is not in the log", ref)
		}
	}
	return refs, res.Torn, len(files), nil
}
