package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

var update = flag.Bool("update", false, "rewrite ../testdata/transcripts/*.jsonl from this run")

// suiteEnv is what every scenario needs: node, the bridge binary, the
// installed peers and the client.
type suiteEnv struct {
	node   string // node executable
	bridge string // acp-bridge binary under test
	bin    string // e2e/node_modules/.bin
	client string // e2e/client/client.mjs
}

var (
	suiteOnce  sync.Once
	suite      suiteEnv
	suiteErr   error
	suiteSkip  string
	builtDir   string // temporary directory of a bridge built by the suite
	marker     = "ACP_E2E_RUN"
	runCounter int
	runMu      sync.Mutex // guards runCounter
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// needSuite returns the suite environment, or skips the test when the suite
// is not enabled.
func needSuite(t *testing.T) *suiteEnv {
	t.Helper()
	if os.Getenv("ACP_BRIDGE_E2E") != "1" {
		t.Skip("end-to-end suite not enabled: run scripts/e2e.sh (or set ACP_BRIDGE_E2E=1)")
	}
	suiteOnce.Do(initSuite)
	if suiteSkip != "" {
		t.Skip(suiteSkip)
	}
	if suiteErr != nil {
		t.Fatal(suiteErr)
	}
	return &suite
}

func initSuite() {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "true" && os.Getenv("E2E_SKIP_NO_NODE") == "1" {
			suiteSkip = "node not found on PATH; skipped because E2E_SKIP_NO_NODE=1"
			return
		}
		suiteErr = errors.New("node not found on PATH: the e2e suite needs Node.js >= 20 (outside CI, E2E_SKIP_NO_NODE=1 skips it)")
		return
	}
	root, err := filepath.Abs(".")
	if err != nil {
		suiteErr = err
		return
	}
	bin := filepath.Join(root, "node_modules", ".bin")
	for _, b := range []string{"claude-agent-acp", "gemini"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			suiteErr = fmt.Errorf("%s is not installed: run e2e/install.sh first", b)
			return
		}
	}
	bridge := os.Getenv("ACP_BRIDGE_BIN")
	if bridge == "" {
		dir, err := os.MkdirTemp("", "acp-bridge-e2e-bin")
		if err != nil {
			suiteErr = err
			return
		}
		builtDir = dir
		bridge = filepath.Join(dir, "acp-bridge")
		out, err := exec.Command("go", "build", "-o", bridge, "../cmd/acp-bridge").CombinedOutput()
		if err != nil {
			suiteErr = fmt.Errorf("building the bridge: %v\n%s", err, out)
			return
		}
	}
	suite = suiteEnv{node: node, bridge: bridge, bin: bin, client: filepath.Join(root, "client", "client.mjs")}
}

// agentSpec says how to run one real agent offline against the fake model.
type agentSpec struct {
	name string
	// command is the agent's executable under node_modules/.bin and its arguments.
	command []string
	// env is the agent's environment besides PATH, HOME and the run marker.
	env func(modelURL string) []string
	// setupHome prepares the isolated HOME.
	setupHome func(home string) error
	// The agent's own names for its read, write and shell tools, which
	// the steps read, write and shell call.
	readTool, writeTool, shellTool string
	// writeNeedsExisting: the agent's write tool fails on a new file when
	// the client serves fs/* (see geminiAgent).
	writeNeedsExisting bool
	// writesThroughClient: the agent writes files with fs/write_text_file
	// when the client offers it (Gemini) rather than itself (Claude Code).
	writesThroughClient bool
}

// claudeAgent is Claude Code through @agentclientprotocol/claude-agent-acp
// (0.49.0, which runs Claude Code 2.1.185's native binary).
//
// Offline it needs ANTHROPIC_BASE_URL pointing at the fake server (it first
// probes HEAD / there) and some ANTHROPIC_API_KEY (without one session/prompt
// fails with "Authentication required"). CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
// keeps the run deterministic and fast: without it Claude Code also asks the
// model for a session title (a side request racing the main turn) and tries
// to send telemetry, and a one-turn session took 8.4 s instead of about 1 s.
// IS_SANDBOX=1 is Claude Code's switch for running as root with permissive
// modes; the auto-updater and telemetry switches are belts and braces. An
// empty HOME is enough: no login, no ~/.claude.json. With these, only
// main-conversation requests reached the fake server in our runs.
var claudeAgent = agentSpec{
	name:    "claude",
	command: []string{"claude-agent-acp"},
	env: func(url string) []string {
		return []string{
			"ANTHROPIC_BASE_URL=" + url,
			"ANTHROPIC_API_KEY=fake",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_AUTOUPDATER=1",
			"DISABLE_TELEMETRY=1",
			"DISABLE_ERROR_REPORTING=1",
			"IS_SANDBOX=1",
		}
	},
	setupHome: func(string) error { return nil },
	readTool:  "Read",
	writeTool: "Write",
	shellTool: "Bash",
}

// geminiSettings is ~/.gemini/settings.json for an offline, quiet Gemini CLI.
const geminiSettings = `{
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "security": {"folderTrust": {"enabled": false}}
}
`

// geminiAgent is Gemini CLI 0.61 in ACP mode (gemini --acp).
//
// Offline it needs GOOGLE_GEMINI_BASE_URL (read by gemini-cli's content
// generator; when set the CLI picks its "gateway" auth type, so session/new
// needs no authenticate call, and it alone was enough for a text turn).
// GEMINI_API_KEY, GEMINI_CLI_TRUST_WORKSPACE=true (folder trust: an untrusted
// workspace runs in restricted mode when the feature is on) and settings.json
// with telemetry, usage statistics and auto-update off keep it from trying
// anything else. It sends side requests to a flash-lite model (the model
// router's classifiers) that the fake server answers with parseable JSON.
// The gemini launcher relaunches itself as a child node process that
// inherits its stdio.
//
// Gemini CLI 0.61 cannot create a new file through the client's fs: before
// writing it reads the file with fs/read_text_file, and its ACP connection
// rejects with the JSON-RPC error object itself (not an Error), so the
// "Resource not found" (-32002) answer fails its ENOENT check and the write
// fails ("Error checking existing file: Resource not found: ...") without
// asking permission. Scenarios that write therefore overwrite an existing
// file with Gemini.
var geminiAgent = agentSpec{
	writeNeedsExisting:  true,
	writesThroughClient: true,
	name:                "gemini",
	command:             []string{"gemini", "--acp"},
	env: func(url string) []string {
		return []string{
			"GOOGLE_GEMINI_BASE_URL=" + url,
			"GEMINI_API_KEY=fake",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
			"NO_BROWSER=true",
		}
	},
	setupHome: func(home string) error {
		dir := filepath.Join(home, ".gemini")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "settings.json"), []byte(geminiSettings), 0o644)
	},
	readTool:  "read_file",
	writeTool: "write_file",
	shellTool: "run_shell_command",
}

var agents = []*agentSpec{&claudeAgent, &geminiAgent}

// read is a step calling the agent's read tool on path.
func (a *agentSpec) read(path string) fakemodel.Step {
	return fakemodel.Tool(a.readTool, map[string]any{"file_path": path})
}

// write is a step calling the agent's write tool to write content to path.
func (a *agentSpec) write(path, content string) fakemodel.Step {
	return fakemodel.Tool(a.writeTool, map[string]any{"file_path": path, "content": content})
}

// shell is a step calling the agent's shell tool to run command.
func (a *agentSpec) shell(command string) fakemodel.Step {
	return fakemodel.Tool(a.shellTool, map[string]any{"command": command, "description": "Run " + command})
}

// clientScript is the test client's script (see client/client.mjs).
type clientScript struct {
	FS         *bool  `json:"fs,omitempty"`
	Terminal   bool   `json:"terminal,omitempty"`
	Permission string `json:"permission,omitempty"`
	Prompts    []any  `json:"prompts"` // a string, or []contentBlock
	TimeoutMs  int    `json:"timeoutMs,omitempty"`
	// SessionMeta is the IDE's own _meta on session/new; optional.
	SessionMeta map[string]any `json:"sessionMeta,omitempty"`
	// Load opens an existing session instead of calling session/new;
	// optional.
	Load *sessionLoad `json:"load,omitempty"`
	// Mode is a modeId the client sets with session/set_mode once the
	// session is open, before the prompts; optional.
	Mode string `json:"mode,omitempty"`
	// Model is a modelId the client sets with session/set_model after the
	// mode; optional.
	Model string `json:"model,omitempty"`
	// Config are the configuration options the client sets, each with
	// session/set_config_option ({"configId": ..., "value": ...}), after
	// the mode; optional.
	Config []map[string]any `json:"config,omitempty"`
	// AwaitToolResponses makes the client wait, once the prompts are
	// answered, for the late update carrying each Claude Code tool call's
	// result (up to 10 s) before it shuts the agent down.
	AwaitToolResponses bool `json:"awaitToolResponses,omitempty"`
}

// sessionLoad names the stored session a client script opens and the
// request it opens it with: "session/load" (the default) or
// "session/resume".
type sessionLoad struct {
	SessionID string `json:"sessionId"`
	Method    string `json:"method,omitempty"`
}

// textPrompts makes a prompt list of plain texts.
func textPrompts(texts ...string) []any {
	out := make([]any, len(texts))
	for i, t := range texts {
		out[i] = t
	}
	return out
}

// clientSummary is what the client prints on exit.
type clientSummary struct {
	OK          bool     `json:"ok"`
	SessionID   string   `json:"sessionId"`
	StopReasons []string `json:"stopReasons"`
	Permissions int      `json:"permissions"`
	Error       *string  `json:"error"`
	AgentExit   *struct {
		Code   *int    `json:"code"`
		Signal *string `json:"signal"`
	} `json:"agentExit"`
}

// workspace is a test's directory layout. Runs that must be compared reuse
// one workspace so that absolute paths in the messages agree.
type workspace struct {
	base, home, ws string
}

func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	base := t.TempDir()
	if os.Getenv("E2E_KEEP") == "1" {
		var err error
		if base, err = os.MkdirTemp("", "acp-e2e-"+strings.ReplaceAll(t.Name(), "/", "_")+"-"); err != nil {
			t.Fatal(err)
		}
		t.Logf("keeping %s", base)
	}
	return &workspace{base: base, home: filepath.Join(base, "home"), ws: filepath.Join(base, "ws")}
}

// path returns the absolute path of a workspace file.
func (w *workspace) path(rel string) string { return filepath.Join(w.ws, rel) }

// runOptions describe one client session.
type runOptions struct {
	name       string // names the run's logs: "direct", "bridge", ...
	bridge     bool   // put acp-bridge between client and agent
	bridgeArgs []string
	script     fakemodel.Script
	client     clientScript
	files      map[string]string // workspace files, by relative path
	// keepHome leaves HOME as an earlier run left it (the agent's stored
	// sessions, for a run that loads one); by default start empties it.
	keepHome bool
	// prep, when set, runs in the workspace once its files are written,
	// before the bridge starts (a git repository the run needs, say).
	prep func(ws string) error
}

// run is one client session against one agent.
type run struct {
	t          *testing.T
	s          *suiteEnv
	agent      *agentSpec
	w          *workspace
	opts       runOptions
	model      *fakemodel.Server
	marker     string
	cmd        *exec.Cmd
	stdout     bytes.Buffer
	stderrPath string
	transcript string        // client transcript path
	record     string        // bridge --record path, when bridged
	timeout    time.Duration // the client's whole-run limit (runTimeout)
	done       chan struct{}
	waitErr    error
}

// start resets the workspace, starts a fake model server and the client.
func start(t *testing.T, s *suiteEnv, a *agentSpec, w *workspace, o runOptions) *run {
	t.Helper()
	for _, d := range []string{w.home, w.ws} {
		if d == w.home && o.keepHome {
			continue
		}
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.setupHome(w.home); err != nil {
		t.Fatalf("setting up HOME: %v", err)
	}
	for rel, content := range o.files {
		p := w.path(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if o.prep != nil {
		if err := o.prep(w.ws); err != nil {
			t.Fatal(err)
		}
	}
	logs := filepath.Join(w.base, "logs-"+o.name)
	if err := os.RemoveAll(logs); err != nil { // the bridge appends to --record
		t.Fatal(err)
	}
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	model, err := fakemodel.Start(fakemodel.Options{Script: o.script, LogFile: filepath.Join(logs, "model-requests.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })

	m := newMarker()

	r := &run{t: t, s: s, agent: a, w: w, opts: o, model: model, marker: m, done: make(chan struct{}),
		stderrPath: filepath.Join(logs, "stderr.log"), transcript: filepath.Join(logs, "client-transcript.jsonl")}
	if o.client.TimeoutMs == 0 {
		o.client.TimeoutMs = int(runTimeout(t).Milliseconds())
	}
	r.timeout = time.Duration(o.client.TimeoutMs) * time.Millisecond
	cs, err := json.Marshal(o.client)
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(logs, "client-script.json")
	if err := os.WriteFile(scriptPath, cs, 0o644); err != nil {
		t.Fatal(err)
	}
	agentCmd := append([]string{filepath.Join(s.bin, a.command[0])}, a.command[1:]...)
	if o.bridge {
		r.record = filepath.Join(logs, "bridge-record.jsonl")
		// The bridge's own bound on the agent's start (--initialize-timeout,
		// a product limit) is not what these scenarios test: it gets the
		// run's whole time, so a start slowed by a loaded machine is waited
		// for.
		pre := []string{s.bridge, "--record", r.record, "--log-file", filepath.Join(logs, "bridge.log"), "--log-level", "debug",
			"--initialize-timeout", r.timeout.String()}
		pre = append(pre, o.bridgeArgs...)
		agentCmd = append(append(pre, "--"), agentCmd...)
	}
	args := append([]string{s.client, "--script", scriptPath, "--transcript", r.transcript, "--cwd", w.ws, "--"}, agentCmd...)
	r.cmd = exec.Command(s.node, args...)
	r.cmd.Dir = w.ws
	// A clean environment: nothing of the developer's or CI's own
	// credentials or agent settings reaches the agents.
	r.cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + w.home,
		"LANG=C.UTF-8",
		"TERM=dumb",
		marker + "=" + m,
	}, a.env(model.URL())...)
	r.cmd.Stdout = &r.stdout
	stderr, err := os.Create(r.stderrPath)
	if err != nil {
		t.Fatal(err)
	}
	r.cmd.Stderr = stderr
	if err := r.cmd.Start(); err != nil {
		stderr.Close()
		t.Fatalf("starting client: %v", err)
	}
	go func() {
		r.waitErr = r.cmd.Wait()
		stderr.Close()
		close(r.done)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
		for _, pid := range r.leftovers() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return r
}

// minRunTimeout is the least time one client run is given.
const minRunTimeout = 90 * time.Second

// reportTime is what a run leaves of the test's time for its report: the
// client's exit after its own timeout, and the test's failure.
const reportTime = 2 * time.Minute

// runTimeout returns how long one client run may take: what is left before
// the test's deadline (go test -timeout) but reportTime, and at least
// minRunTimeout. Fixed bounds (90 s for a run, 60 s for a real agent's
// start) were exceeded by runs that only waited for a core on a loaded
// machine; a run that hangs still fails, with the client's account of it,
// before the test binary's alarm.
func runTimeout(t *testing.T) time.Duration {
	d := minRunTimeout
	if dl, ok := t.Deadline(); ok {
		d = max(d, time.Until(dl)-reportTime)
	}
	return d
}

// newMarker returns a value for the ACP_E2E_RUN variable unique to one run.
func newMarker() string {
	runMu.Lock()
	defer runMu.Unlock()
	runCounter++
	return fmt.Sprintf("%d-%d", os.Getpid(), runCounter)
}

// wait waits for the client to exit and returns its summary.
func (r *run) wait() clientSummary {
	r.t.Helper()
	select {
	case <-r.done:
	case <-time.After(r.timeout + reportTime/2):
		r.cmd.Process.Kill()
		<-r.done
		r.t.Fatalf("%s: client did not exit within %v of its own timeout (%v)\n%s", r.opts.name, reportTime/2, r.timeout, r.stderrTail())
	}
	var sum clientSummary
	if err := json.Unmarshal(bytes.TrimSpace(r.stdout.Bytes()), &sum); err != nil {
		r.t.Fatalf("%s: client summary %q: %v (exit %v)\n%s", r.opts.name, r.stdout.String(), err, r.waitErr, r.stderrTail())
	}
	return sum
}

// mustSucceed waits and fails the test unless every prompt got a response.
func (r *run) mustSucceed() clientSummary {
	r.t.Helper()
	sum := r.wait()
	if !sum.OK {
		msg := ""
		if sum.Error != nil {
			msg = *sum.Error
		}
		r.t.Fatalf("%s/%s: client failed: %s (stop reasons %v)\n%s", r.agent.name, r.opts.name, msg, sum.StopReasons, r.stderrTail())
	}
	return sum
}

func (r *run) stderrTail() string {
	b, _ := os.ReadFile(r.stderrPath)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return "--- client/agent stderr (tail) ---\n" + string(b)
}

// leftovers lists the processes still alive that carry this run's marker in
// their environment: the client, the bridge, the agent and anything the agent
// started (they all inherit it).
func (r *run) leftovers() []int { return markedProcesses(r.marker) }

// markedProcesses lists the live processes whose environment has the run
// marker m.
func markedProcesses(m string) []int { return acpwire.ProcessesWithEnv(marker + "=" + m) }

// noLeftovers fails the test if processes of this run outlive it by more
// than a grace period.
func (r *run) noLeftovers() {
	r.t.Helper()
	noLeftovers(r.t, r.agent.name+"/"+r.opts.name, r.marker)
}

// noLeftovers fails t if processes with marker m outlive a grace period.
func noLeftovers(t *testing.T, what, m string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := markedProcesses(m)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			var desc []string
			for _, p := range pids {
				cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
				desc = append(desc, fmt.Sprintf("%d %s", p, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
			}
			t.Errorf("%s: processes left behind:\n%s", what, strings.Join(desc, "\n"))
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// line is one transcript line, in the format shared by the client and the
// bridge's --record.
type line struct {
	Dir     string          `json:"dir"`
	Msg     json.RawMessage `json:"msg"`
	NonJSON *string         `json:"nonjson"`
	// Bridge is set on --record entries for messages the bridge received
	// but did not pass on as they were (answered, replaced, dropped).
	Bridge string `json:"bridge"`
}

func readTranscript(t *testing.T, path string) []line {
	t.Helper()
	return readJSONL[line](t, path)
}

// messages returns the raw messages one peer received, in order: lines that
// were not JSON (the bridge never forwards them) and the recording's entries
// for messages the bridge held back are left out.
func messages(ls []line, dir string) []string {
	var out []string
	for _, l := range ls {
		if l.Dir == dir && l.NonJSON == nil && l.Bridge == "" {
			out = append(out, string(l.Msg))
		}
	}
	return out
}

const (
	toAgent  = "client_to_agent"
	toClient = "agent_to_client"
)

// waitFor polls cond until it holds or the run ends: the client's own
// timeout (r.timeout) bounds the wait, and the run's timeout once more in
// case the client does not keep to it.
func (r *run) waitFor(what string, cond func() bool) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			r.t.Fatalf("%s/%s: timed out after %v waiting for %s\n%s", r.agent.name, r.opts.name, r.timeout, what, r.stderrTail())
		case <-r.done:
			r.t.Fatalf("%s/%s: client exited while waiting for %s\n%s", r.agent.name, r.opts.name, what, r.stderrTail())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
