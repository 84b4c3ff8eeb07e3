package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/acpwire/acpwiretest"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/crashtest"
)

// permFloodLogEnv names the file the permflood agent appends, one line per
// permission response it has read: "<toolCallId> <optionId>".
const permFloodLogEnv = "PERMFLOOD_LOG"

// permFloodAgent is the fake agent of TestCrashBridgeAudit. It answers
// initialize and session/new, and on session/prompt floods the bridge until
// it dies: session/update notifications (message chunks, read tool calls
// and their completions) interleaved with session/request_permission
// requests, half of them for reads the policy allows and half for
// "rm -rf" commands it denies. It does not wait for the answers. Each
// permission response it reads is a decision that took effect: it appends
// the toolCallId and the chosen option to $PERMFLOOD_LOG at once, with one
// write on an O_APPEND file, so the line survives the agent's own death.
func permFloodAgent() {
	side := agentSideLog("permflood", permFloodLogEnv)
	var mu sync.Mutex // guards out
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	send := func(line string) {
		mu.Lock()
		out.WriteString(line)
		out.WriteByte('\n')
		mu.Unlock()
	}
	flush := func() {
		mu.Lock()
		out.Flush()
		mu.Unlock()
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	var cwd string // the session's, from session/new
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Cwd string `json:"cwd"`
			} `json:"params"`
			Result struct {
				Outcome struct {
					Outcome  string `json:"outcome"`
					OptionID string `json:"optionId"`
				} `json:"outcome"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":1,"agentCapabilities":{}}}`)
			flush()
		case "session/new":
			cwd = m.Params.Cwd
			send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"sessionId":"crash"}}`)
			flush()
		case "session/prompt":
			go permFlood(cwd, send, flush)
		case "":
			// A response to one of our permission requests: the decision
			// takes effect now.
			var id string
			if json.Unmarshal(m.ID, &id) != nil || !strings.HasPrefix(id, "tc-") {
				continue
			}
			opt := m.Result.Outcome.OptionID
			if opt == "" {
				opt = m.Result.Outcome.Outcome
			}
			if _, err := side.WriteString(id + " " + opt + "\n"); err != nil {
				fmt.Fprintln(os.Stderr, "permflood:", err)
				os.Exit(2)
			}
		}
	}
}

// permFlood writes the heavy stream of permFloodAgent until the process
// dies. The read paths are absolute, inside the session's cwd (the policy
// denies relative paths: the IDE would open them against its own directory).
func permFlood(cwd string, send func(string), flush func()) {
	const session = `"sessionId":"crash"`
	chunk := strings.Repeat("streaming text ", 20)
	for i := 0; ; i++ {
		for j := range 8 {
			send(`{"jsonrpc":"2.0","method":"session/update","params":{` + session + `,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + chunk + strconv.Itoa(j) + `"}}}}`)
		}
		path, _ := json.Marshal(filepath.Join(cwd, "src", fmt.Sprintf("file%d.go", i)))
		for j := range 4 {
			rd := fmt.Sprintf("rd-%d-%d", i, j)
			send(`{"jsonrpc":"2.0","method":"session/update","params":{` + session + `,"update":{"sessionUpdate":"tool_call","toolCallId":"` + rd + `","title":"Read file","kind":"read","status":"in_progress","rawInput":{"path":` + string(path) + `}}}}`)
			send(`{"jsonrpc":"2.0","method":"session/update","params":{` + session + `,"update":{"sessionUpdate":"tool_call_update","toolCallId":"` + rd + `","status":"completed","rawOutput":{"content":"package main\n` + chunk + `"}}}}`)
		}
		id := fmt.Sprintf("tc-%d", i)
		var toolCall string
		if i%2 == 0 {
			toolCall = `{"toolCallId":"` + id + `","title":"Read file","kind":"read","status":"pending","rawInput":{"path":` + string(path) + `}}`
		} else {
			toolCall = `{"toolCallId":"` + id + `","title":"Remove build output","kind":"execute","status":"pending","rawInput":{"command":"rm -rf build-` + strconv.Itoa(i) + `"}}`
		}
		send(`{"jsonrpc":"2.0","id":"` + id + `","method":"session/request_permission","params":{` + session + `,"toolCall":` + toolCall +
			`,"options":[{"optionId":"allow","name":"Allow once","kind":"allow_once"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`)
		flush()
	}
}

// TestCrashBridgeAudit is issue 6's crash-safety acceptance test with the
// whole bridge: 100 runs (20 with -short), each starting acp-bridge with a
// policy and an audit log in front of the permflood agent, playing the IDE
// (initialize, session/new, session/prompt, reading everything the bridge
// sends), and SIGKILLing the bridge at a random moment after the first
// permission decision took effect at the agent. Every other run rotates the
// log every 32 KiB (--audit-max-bytes). Then the agent must be gone
// (the bridge's parent-death signal), audit.Repair and audit.Verify must
// pass on the whole chain (from GENESIS), and every decision the agent
// received must be in the log as the bridge's permission-stage tool.call
// record for that toolCallId, with the decision the agent got.
//
// It runs in parallel with the package's other parallel tests: most of its
// time is spent waiting on its processes (a decision to reach the agent,
// the kill, the agent's death), not on a core.
func TestCrashBridgeAudit(t *testing.T) {
	t.Parallel()
	runs := crashtest.Runs()
	exe := crashtest.Executable(t)
	root := t.TempDir()
	var mu sync.Mutex
	var done, decisions, torn, records, messages, maxFiles int
	start := time.Now()
	crashtest.Run(t, runs, func(_, run int, rng *rand.Rand) error {
		dir := filepath.Join(root, fmt.Sprintf("run-%d", run))
		delay := time.Duration(rng.IntN(100_000)) * time.Microsecond
		res, err := crashBridgeOnce(exe, dir, delay, run%2 == 1)
		if err != nil {
			return fmt.Errorf("kill %v after the first decision: %v", delay, err)
		}
		mu.Lock()
		done++
		decisions += res.decisions
		records += res.records
		messages += res.messages
		maxFiles = max(maxFiles, res.files)
		if res.torn {
			torn++
		}
		mu.Unlock()
		return nil
	})
	t.Logf("%d of %d runs in %v: the IDE read %d messages; %d decisions took effect and were found in the log; %d records verified; %d torn last lines repaired; up to %d files per chain",
		done, runs, time.Since(start).Round(time.Millisecond), messages, decisions, records, torn, maxFiles)
}

type crashResult struct {
	decisions int  // decisions the agent received (all found in the log)
	records   int  // records in the repaired log
	torn      bool // Repair found a torn last line
	messages  int  // lines the IDE read from the bridge
	files     int  // files of the chain
}

// crashBridgeOnce runs one bridge in dir, kills it delay after the agent
// received its first decision, and checks the log. With rotate the log
// rotates every 32 KiB, so kills also land around rotations.
func crashBridgeOnce(exe, dir string, delay time.Duration, rotate bool) (crashResult, error) {
	var res crashResult
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return res, err
	}
	policy := filepath.Join(dir, "GOVERNANCE.md")
	body := "---\nschema: governance.workspace/v1\nname: crash\ntitle: Crash\ndescription: D\nversion: 1.0.0\nrules:\n" +
		"  default: deny\n  deny: [Bash(rm -rf:*)]\n  allow: [Read]\n---\n"
	if err := os.WriteFile(policy, []byte(body), 0o644); err != nil {
		return res, err
	}
	logFile := filepath.Join(dir, "audit.jsonl")
	side := filepath.Join(dir, "decisions.txt")
	args := []string{"--policy", policy, "--audit", logFile, "--adapter", "none", "--log-level", "error"}
	if rotate {
		args = append(args, "--audit-max-bytes", "32768")
	}
	args = append(args, "--", "env", "-u", "ACP_BRIDGE_TEST_MAIN", "ACP_BRIDGE_TEST_AGENT=permflood", permFloodLogEnv+"="+side, exe)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "ACP_BRIDGE_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, stdout, err := acpwiretest.StartPiped(cmd)
	if err != nil {
		return res, err
	}
	// The IDE reads everything; the bridge answers every permission
	// request itself, so none may reach it.
	asked := make(chan string, 1)
	readDone := make(chan int, 1) // the reader ends even when no one takes its count
	go func() {
		n := 0
		defer func() { readDone <- n }()
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			line, err := r.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				return
			}
			n++
			if bytes.Contains(line, []byte(`"method":"session/request_permission"`)) {
				select {
				case asked <- string(line):
				default:
				}
			}
		}
	}()
	cwd, _ := json.Marshal(ws)
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":`+string(cwd)+`,"mcpServers":[]}}`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"crash","prompt":[{"type":"text","text":"go"}]}}`+"\n")

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	// Kill the bridge delay after the first decision took effect. The
	// bridge must not exit before; only one that is stuck takes
	// acpwiretest.DefaultTimeout (10 s was not enough for a bridge and an
	// agent starting at a load average of 60 on 2 cores).
	deadline := time.Now().Add(acpwiretest.DefaultTimeout)
	for {
		if fi, err := os.Stat(side); err == nil && fi.Size() > 0 {
			break
		}
		select {
		case err := <-waited:
			return res, fmt.Errorf("the bridge exited (%v) before a decision reached the agent; stderr:\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-waited
			return res, fmt.Errorf("no decision reached the agent in %v; bridge stderr:\n%s", acpwiretest.DefaultTimeout, stderr.String())
		}
		time.Sleep(time.Millisecond) // nothing to wait on: poll
	}
	time.Sleep(delay)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return res, err
	}
	err = <-waited
	res.messages = <-readDone
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		return res, fmt.Errorf("the bridge was not killed by SIGKILL (%v); stderr:\n%s", err, stderr.String())
	}
	select {
	case line := <-asked:
		return res, fmt.Errorf("a permission request reached the IDE, the policy did not decide it: %s", line)
	default:
	}

	// The agent dies with the bridge (parent-death signal). Until it is
	// gone it may still append to the side file.
	mark := permFloodLogEnv + "=" + side
	deadline = time.Now().Add(acpwiretest.DefaultTimeout)
	for gone := false; !gone; {
		gone = len(acpwire.ProcessesWithEnv(mark)) == 0
		if !gone && time.Now().After(deadline) {
			return res, fmt.Errorf("the agent outlived the killed bridge: pids %v", acpwire.ProcessesWithEnv(mark))
		}
		time.Sleep(2 * time.Millisecond)
	}

	rep, err := audit.Repair(logFile)
	if err != nil {
		return res, err
	}
	res.torn = rep.Torn
	files, err := filepath.Glob(logFile + ".*")
	if err != nil {
		return res, err
	}
	if _, err := os.Stat(logFile); err == nil {
		files = append(files, logFile) // absent after a kill between rotating and creating the next file
	}
	res.files = len(files)
	sum, err := audit.Verify(files...)
	if err != nil {
		return res, fmt.Errorf("after repair: %v", err)
	}
	if !sum.Genesis {
		return res, fmt.Errorf("the chain in %v does not start at GENESIS: a file is missing", files)
	}
	res.records = sum.Records

	// The bridge's permission decisions, by toolCallId.
	logged := map[string]string{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return res, err
		}
		for line := range bytes.Lines(b) {
			var r struct {
				Action string `json:"action"`
				Policy struct {
					Decision string `json:"decision"`
				} `json:"policy"`
				Metadata struct {
					Stage    string `json:"stage"`
					ToolCall struct {
						ToolCallID string `json:"toolCallId"`
					} `json:"toolCall"`
				} `json:"metadata"`
			}
			if err := json.Unmarshal(line, &r); err != nil {
				return res, fmt.Errorf("%s: %v", name, err)
			}
			if r.Action == "tool.call" && r.Metadata.Stage == "permission" {
				logged[r.Metadata.ToolCall.ToolCallID] = r.Policy.Decision
			}
		}
	}
	b, err := os.ReadFile(side)
	if err != nil {
		return res, err
	}
	for line := range strings.Lines(string(b)) {
		id, opt, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok {
			return res, fmt.Errorf("side file line %q", line)
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(id, "tc-"))
		want := map[bool]string{true: "allow", false: "deny"}[n%2 == 0]
		if got := map[string]string{"allow": "allow", "reject": "deny"}[opt]; got != want {
			return res, fmt.Errorf("the agent got %q for %s, want the policy's %s", opt, id, want)
		}
		d, ok := logged[id]
		switch {
		case !ok:
			return res, fmt.Errorf("the decision on %s took effect (%s) but is not in the audit log (%d permission records)", id, opt, len(logged))
		case d != want:
			return res, fmt.Errorf("the log records %s for %s, the agent got %s", d, id, want)
		}
		res.decisions++
	}
	return res, nil
}
