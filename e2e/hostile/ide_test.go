package hostile

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ideConfig is what the executing IDE process is told (a JSON file named on
// its command line).
type ideConfig struct {
	Variant   string   `json:"variant"`   // js, go, sh, zed or zsh
	Bridge    []string `json:"bridge"`    // the bridge command line, agent included
	Workspace string   `json:"workspace"` // the bridge's cwd and the session's
	Approve   bool     `json:"approve"`   // answer permission requests with allow
	Result    string   `json:"result"`    // where to write the ideResult
	Stderr    string   `json:"stderr"`    // where the bridge's stderr goes
	// Timeout bounds the whole run (see ideTimeout); if zero, minIDETimeout.
	Timeout time.Duration `json:"timeout"`
	// ApproveShown, when set, has the person allow a permission request
	// only when what Zed shows of it (zedShows) is this text.
	ApproveShown string `json:"approveShown"`
	// LoadListed has the IDE, once its session is open, list the agent's
	// sessions and load the first in the directories the list gives it,
	// as a person picking it from Zed's history does (loadListed).
	LoadListed bool `json:"loadListed"`
	// Press, when set, has the person answer a permission request by
	// pressing the button Zed labels Press (the option of that name), or
	// dismissing it when none is.
	Press string `json:"press"`
	// DecideLate has the person answer permission requests only when the
	// agent's sync request arrives, after every attack line: what Zed
	// shows then is the call as the later updates left it, as a person
	// who takes a few seconds to read the card sees it.
	DecideLate bool `json:"decideLate"`
	// LastFirst has the person answer the requests DecideLate held latest
	// first.
	LastFirst bool `json:"lastFirst"`
	// MCPServer has the IDE offer its MCP server "ide" over ACP in the
	// session it opens, and serve the agent's mcp/message calls of its
	// open_uri tool (serveMCP).
	MCPServer bool `json:"mcpServer"`
	// PromptAgain has the IDE take any answer to its first prompt (the
	// agent ends that turn with a line of the case's, @end-turn) and
	// prompt again in the session, the second answer being the one
	// judged.
	PromptAgain bool `json:"promptAgain"`
	// Rollover has the IDE, once its session is open, prompt warmUpPrompt,
	// run /bridge-compress and prompt warmUpPrompt again, which rolls the
	// session over to a fresh agent session (compression), then load that
	// agent session by its id (rolledSessionID), as a person picking it
	// from the agent's history does, before its own prompt.
	Rollover bool `json:"rollover"`
	// ModeOption, when set, has the IDE set the agent's "mode"
	// configuration option to it once its session is open, before any
	// prompt, as the person picking a mode in Zed's selector.
	ModeOption string `json:"modeOption,omitempty"`
	// AgentExits: the agent exits in its turn, so the prompt is answered
	// with the bridge's error; its message is kept (ideResult.PromptError).
	AgentExits bool `json:"agentExits,omitempty"`
	// Protocol, when over 1, is the ACP protocol version the IDE asks for
	// in initialize, as an IDE on the TypeScript SDK's experimental v2 API
	// does: an answer naming another version ends the run before any
	// session (the SDK's mapV2InitializeResponse refuses it), and a
	// permission request is shown by its own title, the one v2 gives it
	// (zedShows).
	Protocol int `json:"protocol,omitempty"`
	// Opens are workspace files the person opens in the editor once the
	// session is open. When the agent's initialize answer asked for next
	// edit suggestions' document events (agentCapabilities.nes.events.
	// document.didOpen), the IDE starts NES (nes/start) and sends each
	// file's text in a document/didOpen, as an IDE on the TypeScript SDK's
	// experimental NES API does (openDocuments).
	Opens []string `json:"opens,omitempty"`
}

// ideResult is what the IDE saw and did.
type ideResult struct {
	Opened     []string     `json:"opened"`     // session ids session/new returned
	Seen       []string     `json:"seen"`       // session ids of messages it handled
	Asked      []string     `json:"asked"`      // permission requests (their toolCall)
	Updates    []seenUpdate `json:"updates"`    // session/update notifications
	Actions    []string     `json:"actions"`    // what it did for the agent
	StopReason string       `json:"stopReason"` // the prompt's answer
	Errors     []string     `json:"errors"`     // what went wrong in the harness or the bridge
	// ForgedWords are the user_message_chunks the IDE showed as the
	// person's own message while no session/load was under way, echoing
	// no block of the prompt it last sent (userWords): words the person
	// never sent, shown as theirs.
	ForgedWords []string `json:"forgedWords,omitempty"`
	// PromptError is the message of the error the prompt was answered
	// with, as the IDE shows it, when the agent exits in its turn.
	PromptError string        `json:"promptError,omitempty"`
	PeakRSSKB   int           `json:"peakRssKB"` // the bridge's VmHWM before it was told to stop
	Elapsed     time.Duration `json:"elapsed"`
}

// seenUpdate is one session/update as the person would see it.
type seenUpdate struct {
	Kind       string          `json:"kind"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	Status     string          `json:"status,omitempty"`
	Text       string          `json:"text,omitempty"`
	RawInput   json.RawMessage `json:"rawInput,omitempty"`
}

// minIDETimeout is the least time a whole run of the IDE is given.
const minIDETimeout = 40 * time.Second

// ideTimeout returns how long one run of the IDE may take: what is left
// before the test's deadline (go test -timeout) but a minute for the
// report, and at least minIDETimeout. A fixed 40 s was exceeded by runs
// that only waited for a core on a loaded machine; a run that hangs still
// fails, with the IDE's account of it, before the test binary's alarm.
func ideTimeout(t *testing.T) time.Duration {
	d := minIDETimeout
	if dl, ok := t.Deadline(); ok {
		d = max(d, time.Until(dl)-time.Minute)
	}
	return d
}

// executingIDE is an ACP client that does what reaches it.
type executingIDE struct {
	cfg       ideConfig
	rd        reader
	res       ideResult
	stdin     io.WriteCloser
	opened    map[string]bool
	terminals map[string]terminalRun
	calls     map[string]shownCall       // tool calls the updates announced, by id
	pending   map[string]chan ideMessage // our request id -> its answer
	late      []ideMessage               // permission requests waiting for the person (DecideLate)
	loads     map[string]bool            // ids of its session/load requests not yet answered
	prompt    []json.RawMessage          // the blocks of the prompt it last sent
	readEnded bool                       // the bridge's output has ended
	mu        sync.Mutex                 // guards res, pending, readEnded
	writeMu   sync.Mutex                 // guards writes to stdin
}

// runIDE is the executing IDE's main; it returns the exit status.
func runIDE(configPath string) int {
	data, err := os.ReadFile(configPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ide:", err)
		return 2
	}
	ide := &executingIDE{opened: map[string]bool{}, terminals: map[string]terminalRun{}, calls: map[string]shownCall{}, pending: map[string]chan ideMessage{}, loads: map[string]bool{}}
	if err := json.Unmarshal(data, &ide.cfg); err != nil {
		fmt.Fprintln(os.Stderr, "ide:", err)
		return 2
	}
	ide.rd = readerFor(ide.cfg.Variant)
	start := time.Now()
	if err := ide.session(); err != nil {
		ide.fail("%v", err)
	}
	ide.res.Elapsed = time.Since(start)
	out, _ := json.MarshalIndent(&ide.res, "", "  ")
	if err := os.WriteFile(ide.cfg.Result, out, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "ide:", err)
		return 2
	}
	return 0
}

func (ide *executingIDE) fail(format string, args ...any) {
	ide.mu.Lock()
	defer ide.mu.Unlock()
	ide.res.Errors = append(ide.res.Errors, fmt.Sprintf(format, args...))
}

// session starts the bridge, opens a session, sends one prompt and serves
// the agent's requests until the prompt is answered, then closes the
// bridge's stdin and waits for it.
func (ide *executingIDE) session() error {
	stderr, err := os.Create(ide.cfg.Stderr)
	if err != nil {
		return err
	}
	defer stderr.Close()
	cmd := exec.Command(ide.cfg.Bridge[0], ide.cfg.Bridge[1:]...)
	cmd.Dir = ide.cfg.Workspace
	cmd.Stderr = stderr
	ide.stdin, err = cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the bridge: %v", err)
	}
	exited := make(chan error, 1)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		ide.readLoop(stdout)
	}()
	go func() {
		<-readDone
		exited <- cmd.Wait()
	}()
	timeout := cmp.Or(ide.cfg.Timeout, minIDETimeout)
	deadline := time.AfterFunc(timeout, func() {
		ide.fail("the run took over %v: bridge killed", timeout)
		cmd.Process.Kill()
	})
	defer deadline.Stop()

	err = ide.converse()
	ide.res.PeakRSSKB = peakRSS(cmd.Process.Pid)
	if err != nil {
		ide.fail("%v", err)
	}
	ide.stdin.Close()
	if werr := <-exited; werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			ide.fail("bridge: %v", werr)
		}
	}
	return nil
}

// converse runs the client's side of the session.
func (ide *executingIDE) converse() error {
	// As Zed, the IDE says it runs the terminal logins of _meta
	// "terminal-auth" (see logIn) and shows the display-only terminals of
	// _meta "terminal_output".
	init, err := ide.call("0", "initialize", `{"protocolVersion":`+strconv.Itoa(max(ide.cfg.Protocol, 1))+`,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"_meta":{"terminal-auth":true,"terminal_output":true}},"clientInfo":{"name":"hostile-suite-ide","version":"1.0.0"}}`)
	if err != nil {
		return fmt.Errorf("initialize: %v", err)
	}
	if ide.cfg.Protocol > 1 {
		var r struct {
			Result struct {
				ProtocolVersion int `json:"protocolVersion"`
			} `json:"result"`
		}
		if ide.rd.params(init, &r) != nil || r.Result.ProtocolVersion != ide.cfg.Protocol {
			ide.action("initialize for protocol version %d answered %s: closing, as the v2 API does", ide.cfg.Protocol, init)
			return nil
		}
	}
	ws, _ := json.Marshal(ide.cfg.Workspace)
	servers := `[]`
	if ide.cfg.MCPServer {
		servers = `[{"type":"acp","name":"ide","serverId":"` + mcpServerID + `"}]`
	}
	ans, err := ide.openSession(init, `{"cwd":`+string(ws)+`,"mcpServers":`+servers+`}`)
	if err != nil {
		return fmt.Errorf("session/new: %v", err)
	}
	sn := sessionOpened(ans) // the reader marked it opened (handle)
	if sn == "" {
		return fmt.Errorf("session/new answered %s", ans)
	}
	if ide.cfg.LoadListed {
		loaded, err := ide.loadListed()
		if err != nil {
			return err
		}
		if loaded != "" {
			sn = loaded
		}
	}
	sid, _ := json.Marshal(sn)
	if err := ide.openDocuments(init); err != nil {
		return err
	}
	if ide.cfg.ModeOption != "" {
		value, _ := json.Marshal(ide.cfg.ModeOption)
		ans, err := ide.call("m1", "session/set_config_option", `{"sessionId":`+string(sid)+`,"configId":"mode","value":`+string(value)+`}`)
		if err != nil {
			return fmt.Errorf("session/set_config_option: %v", err)
		}
		ide.action("set the mode option to %s: %s", value, ans)
	}
	if ide.cfg.Rollover {
		if err := ide.rollOver(string(sid)); err != nil {
			return err
		}
	}
	ans, err = ide.call("2", "session/prompt", `{"sessionId":`+string(sid)+`,"prompt":[{"type":"text","text":"go"}]}`)
	if err != nil {
		return fmt.Errorf("session/prompt: %v", err)
	}
	var pr struct {
		Result struct {
			StopReason string `json:"stopReason"`
		} `json:"result"`
	}
	if ide.cfg.PromptAgain {
		ans, err = ide.call("5", "session/prompt", `{"sessionId":`+string(sid)+`,"prompt":[{"type":"text","text":"again"}]}`)
		if err != nil {
			return fmt.Errorf("second session/prompt: %v", err)
		}
	}
	if ide.cfg.AgentExits {
		var failed struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		json.Unmarshal(ans, &failed)
		if failed.Error.Message == "" {
			return fmt.Errorf("session/prompt answered %s, not with an error for the agent's exit", ans)
		}
		ide.res.PromptError = failed.Error.Message
		return nil
	}
	json.Unmarshal(ans, &pr)
	ide.res.StopReason = pr.Result.StopReason
	if pr.Result.StopReason == "" {
		return fmt.Errorf("session/prompt answered %s", ans)
	}
	return nil
}

// rollOver has compression roll session sid (JSON) over to a fresh agent
// session and loads that agent session by its id (see ideConfig.Rollover).
func (ide *executingIDE) rollOver(sid string) error {
	for i, text := range []string{warmUpPrompt, "/bridge-compress", warmUpPrompt} {
		if _, err := ide.call(fmt.Sprintf("r%d", i), "session/prompt", `{"sessionId":`+sid+`,"prompt":[{"type":"text","text":"`+text+`"}]}`); err != nil {
			return fmt.Errorf("session/prompt %q: %v", text, err)
		}
	}
	var id string
	json.Unmarshal([]byte(sid), &id)
	rolled, _ := json.Marshal(rolledSessionID(id))
	ws, _ := json.Marshal(ide.cfg.Workspace)
	ans, err := ide.call("r3", "session/load", `{"sessionId":`+string(rolled)+`,"cwd":`+string(ws)+`,"mcpServers":[]}`)
	if err != nil {
		return fmt.Errorf("session/load: %v", err)
	}
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	json.Unmarshal(ans, &r)
	if len(r.Error) > 0 {
		ide.action("session/load of %s refused: %s", rolled, r.Error)
		return nil
	}
	ide.mu.Lock()
	ide.opened[rolledSessionID(id)] = true
	ide.mu.Unlock()
	ide.action("loaded the rollover's session %s", rolled)
	return nil
}

// call sends a request and waits for its answer (read by encoding/json: the
// bridge's own answers are not what is under test).
func (ide *executingIDE) call(id, method, params string) ([]byte, error) {
	ch := make(chan ideMessage, 1)
	ide.mu.Lock()
	if ide.readEnded {
		ide.mu.Unlock()
		return nil, errors.New("the bridge closed its output first")
	}
	ide.pending[`"`+id+`"`] = ch
	switch method {
	case "session/load":
		ide.loads[`"`+id+`"`] = true
	case "session/prompt":
		var p struct {
			Prompt []json.RawMessage `json:"prompt"`
		}
		json.Unmarshal([]byte(params), &p)
		ide.prompt = p.Prompt
	}
	ide.mu.Unlock()
	line := `{"jsonrpc":"2.0","id":"` + id + `","method":"` + method + `","params":` + params + "}\n"
	if err := ide.write(line); err != nil {
		return nil, err
	}
	msg, ok := <-ch
	if !ok {
		return nil, errors.New("the bridge closed its output first")
	}
	return msg.params, nil
}

// readLoop handles each line from the bridge in order, as the variant's
// client reads it.
func (ide *executingIDE) readLoop(r io.Reader) {
	defer func() {
		ide.mu.Lock()
		ide.readEnded = true
		for id, ch := range ide.pending {
			close(ch)
			delete(ide.pending, id)
		}
		ide.mu.Unlock()
	}()
	in := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			ide.handle(bytes.TrimSuffix(line, []byte("\n")))
		}
		if err != nil {
			return
		}
	}
}

func (ide *executingIDE) handle(line []byte) {
	msg := ide.rd.read(line)
	switch msg.kind {
	case "response":
		ide.mu.Lock()
		ch, ok := ide.pending[string(msg.id)]
		delete(ide.pending, string(msg.id))
		delete(ide.loads, string(msg.id)) // the replay is over as the answer is read
		if ok && string(msg.id) == `"`+sessionNewID+`"` {
			// Opened as the response is read, in turn with what follows
			// it, as a client's reader does: a session/update the bridge
			// sends right after it is for a session the IDE has.
			if sid := sessionOpened(line); sid != "" {
				ide.opened[sid] = true
				ide.res.Opened = append(ide.res.Opened, sid)
			}
		}
		ide.mu.Unlock()
		if ok {
			// The whole line, so call's caller can read result or error.
			msg.params = append(json.RawMessage(nil), line...)
			ch <- msg
		}
	case "notification":
		if msg.method == "session/update" {
			ide.update(msg)
		}
	case "request":
		if msg.invalid != "" {
			ide.answer(msg.id, nil, &rpcError{Code: -32602, Message: msg.invalid})
			return
		}
		if ide.cfg.DecideLate && msg.method == "session/request_permission" {
			// Shown now, answered when the attack is over.
			ide.sawSession(msg.params)
			var p permissionParams
			if err := ide.rd.params(msg.params, &p); err != nil {
				ide.answer(msg.id, nil, &rpcError{Code: -32602, Message: err.Error()})
				return
			}
			ide.mergedCall(p.ToolCall)
			ide.late = append(ide.late, msg)
			return
		}
		if msg.method == "_hostile/sync" {
			if ide.cfg.LastFirst {
				slices.Reverse(ide.late)
			}
			for _, late := range ide.late {
				result, rpcErr := ide.decide(late)
				ide.answer(late.id, result, rpcErr)
			}
			ide.late = nil
		}
		result, rpcErr := ide.serve(msg)
		ide.answer(msg.id, result, rpcErr)
	}
}

// sessionNewID is the id of the IDE's session/new request.
const sessionNewID = "1"

// sessionOpened returns the sessionId of a session/new response line, or "".
func sessionOpened(line []byte) string {
	var sn struct {
		Result struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &sn) != nil {
		return ""
	}
	return sn.Result.SessionID
}

// sawSession records the session id of a message the IDE handled.
func (ide *executingIDE) sawSession(params json.RawMessage) {
	var p sessionParams
	if ide.rd.params(params, &p) != nil {
		return
	}
	ide.mu.Lock()
	defer ide.mu.Unlock()
	if p.SessionID != "" && !ide.opened[p.SessionID] {
		ide.res.Seen = append(ide.res.Seen, p.SessionID)
	}
}

func (ide *executingIDE) update(msg ideMessage) {
	ide.sawSession(msg.params)
	var p updateParams
	if err := ide.rd.params(msg.params, &p); err != nil {
		return
	}
	u := seenUpdate{Kind: p.Update.SessionUpdate, ToolCallID: p.Update.ToolCallID, Status: p.Update.Status, RawInput: p.Update.RawInput}
	if u.Kind == "tool_call" || u.Kind == "tool_call_update" || ide.cfg.Variant == "go" && goSDKToolCall(msg.params) {
		ide.keepCall(msg.params)
	}
	if u.Kind == "agent_message_chunk" {
		u.Text = chunkText(ide.rd, p.Update.Content)
	}
	ide.mu.Lock()
	ide.res.Updates = append(ide.res.Updates, u)
	ide.userWords(msg.params, p.Update.SessionUpdate, p.Update.Content)
	ide.mu.Unlock()
}

// rpcError is a JSON-RPC error the IDE answers with.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// serve does what a request asks, for real.
func (ide *executingIDE) serve(msg ideMessage) (any, *rpcError) {
	ide.sawSession(msg.params)
	bad := func(err error) (any, *rpcError) {
		return nil, &rpcError{Code: -32602, Message: err.Error()}
	}
	switch msg.method {
	case "fs/read_text_file":
		var p readParams
		if err := ide.rd.params(msg.params, &p); err != nil {
			return bad(err)
		}
		data, err := os.ReadFile(p.Path)
		ide.action("read %q: %v", p.Path, err)
		if err != nil {
			return nil, &rpcError{Code: -32002, Message: err.Error()}
		}
		return map[string]any{"content": string(data)}, nil
	case "fs/write_text_file":
		var p writeParams
		if err := ide.rd.params(msg.params, &p); err != nil {
			return bad(err)
		}
		err := writeText(ide.cfg.Variant, p.Path, p.Content)
		ide.action("write %q: %v", p.Path, err)
		if err != nil {
			return nil, &rpcError{Code: -32603, Message: err.Error()}
		}
		return map[string]any{}, nil
	case "terminal/create":
		var p terminalParams
		if err := ide.rd.params(msg.params, &p); err != nil {
			return bad(err)
		}
		run := runTerminal(ide.cfg.Variant, p)
		ide.mu.Lock()
		id := "term-" + strconv.Itoa(len(ide.terminals)+1)
		ide.terminals[id] = run
		ide.mu.Unlock()
		ide.action("terminal %q %q env=%v cwd=%q: exit %d %s", p.Command, p.Args, p.Env, p.Cwd, run.exitCode, run.err)
		if run.overran {
			ide.fail("terminal %q %q ran over %v and was ended: its effects may be missing", p.Command, p.Args, runTimeout)
		}
		return map[string]any{"terminalId": id}, nil
	case "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release":
		var p terminalRef
		if err := ide.rd.params(msg.params, &p); err != nil {
			return bad(err)
		}
		ide.mu.Lock()
		run, ok := ide.terminals[p.TerminalID]
		ide.mu.Unlock()
		if !ok {
			return nil, &rpcError{Code: -32002, Message: "no such terminal"}
		}
		exit := map[string]any{"exitCode": run.exitCode, "signal": nil}
		switch msg.method {
		case "terminal/output":
			return map[string]any{"output": run.output, "truncated": false, "exitStatus": exit}, nil
		case "terminal/wait_for_exit":
			return exit, nil
		}
		return map[string]any{}, nil
	case "mcp/message":
		if !ide.cfg.MCPServer {
			break
		}
		return serveMCP(msg.params)
	case "session/request_permission":
		var p permissionParams
		if err := ide.rd.params(msg.params, &p); err != nil {
			return bad(err)
		}
		ide.mergedCall(p.ToolCall)
		return ide.answerPermission(p)
	}
	return nil, &rpcError{Code: -32601, Message: "method not found: " + msg.method}
}

// decide answers a permission request DecideLate held, by what Zed shows
// of its call now.
func (ide *executingIDE) decide(msg ideMessage) (any, *rpcError) {
	var p permissionParams
	if err := ide.rd.params(msg.params, &p); err != nil {
		return nil, &rpcError{Code: -32602, Message: err.Error()}
	}
	return ide.answerPermission(p)
}

// answerPermission is the person's answer to a permission request whose
// call the IDE has taken in (mergedCall), by what Zed shows of it now.
func (ide *executingIDE) answerPermission(p permissionParams) (any, *rpcError) {
	ide.mu.Lock()
	ide.res.Asked = append(ide.res.Asked, string(p.ToolCall))
	ide.mu.Unlock()
	if ide.cfg.Press != "" {
		for _, o := range p.Options {
			if o.Name == ide.cfg.Press {
				return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": o.OptionID}}, nil
			}
		}
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
	}
	want := []string{"reject_once", "reject_always"}
	if ide.cfg.Approve || ide.cfg.ApproveShown != "" && ide.shows(p) == ide.cfg.ApproveShown {
		want = []string{"allow_once", "allow_always"}
	}
	for _, kind := range want {
		for _, o := range p.Options {
			if o.Kind == kind {
				return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": o.OptionID}}, nil
			}
		}
	}
	return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
}

func (ide *executingIDE) action(format string, args ...any) {
	ide.mu.Lock()
	defer ide.mu.Unlock()
	ide.res.Actions = append(ide.res.Actions, fmt.Sprintf(format, args...))
}

func (ide *executingIDE) answer(id json.RawMessage, result any, e *rpcError) {
	m := map[string]any{"jsonrpc": "2.0", "id": id}
	if len(id) == 0 {
		m["id"] = nil
	}
	if e != nil {
		m["error"] = e
	} else {
		m["result"] = result
	}
	b, _ := json.Marshal(m)
	ide.write(string(b) + "\n")
}

func (ide *executingIDE) write(line string) error {
	ide.writeMu.Lock()
	defer ide.writeMu.Unlock()
	_, err := io.WriteString(ide.stdin, line)
	return err
}

// peakRSS is a process's VmHWM in KiB, or -1.
func peakRSS(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// zedShows returns what Zed shows the person of a permission request's
// tool call, as the IDE holds the call now (mergedCall took the request in
// when it arrived, and updates since): the card's label, the call's
// title. Zed renders an "execute" call's title as the command line and an
// "edit" call's as it is written; for other kinds it shows the title's
// first line, followed by "…" when there are more (ToolCall::from_acp in
// acp_thread). The rawInput is never in view: an execute call, an edit
// call and a call with diff content never show it (should_show_raw_input
// in Zed's thread view), and for the others it waits behind a closed "View
// Raw Input" disclosure the person has to open.
func (ide *executingIDE) zedShows(toolCall json.RawMessage) string {
	u, _, ok := ide.callFields(toolCall)
	if !ok {
		return ""
	}
	ide.mu.Lock()
	tc := ide.calls[u.ID]
	ide.mu.Unlock()
	if tc.Kind == "execute" || tc.Kind == "edit" {
		return tc.Title
	}
	if first, _, more := strings.Cut(tc.Title, "\n"); more {
		return first + "…"
	}
	return tc.Title
}

// openDocuments has the person open ide.cfg.Opens in the editor: when
// init, the agent's initialize answer as the IDE got it, asks for
// document/didOpen events of next edit suggestions, the IDE starts an NES
// session and sends each file's full text under it.
func (ide *executingIDE) openDocuments(init json.RawMessage) error {
	if len(ide.cfg.Opens) == 0 {
		return nil
	}
	var r struct {
		Result struct {
			AgentCapabilities struct {
				Nes *struct {
					Events *struct {
						Document *struct {
							DidOpen map[string]any `json:"didOpen"`
						} `json:"document"`
					} `json:"events"`
				} `json:"nes"`
			} `json:"agentCapabilities"`
		} `json:"result"`
	}
	err := ide.rd.params(init, &r)
	nes := r.Result.AgentCapabilities.Nes
	if err != nil || nes == nil || nes.Events == nil || nes.Events.Document == nil || nes.Events.Document.DidOpen == nil {
		ide.action("the person opened %q; the agent asked for no document events", ide.cfg.Opens)
		return nil
	}
	ws, _ := json.Marshal(ide.cfg.Workspace)
	ans, err := ide.call("n0", "nes/start", `{"workspaceUri":`+string(ws)+`}`)
	if err != nil {
		return fmt.Errorf("nes/start: %v", err)
	}
	var started struct {
		Result struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	}
	if ide.rd.params(ans, &started) != nil || started.Result.SessionID == "" {
		ide.action("nes/start answered %s", ans)
		return nil
	}
	for i, name := range ide.cfg.Opens {
		path := filepath.Join(ide.cfg.Workspace, name)
		text, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("opening %s: %v", name, err)
		}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "document/didOpen", "params": map[string]any{
			"sessionId": started.Result.SessionID, "uri": "file://" + path, "languageId": "plaintext", "version": i + 1, "text": string(text)}})
		if err := ide.write(string(b) + "\n"); err != nil {
			return fmt.Errorf("document/didOpen: %v", err)
		}
		ide.action("sent document/didOpen of %s", name)
	}
	return nil
}

// shows returns what the IDE shows the person of permission request p:
// under protocol version 2, the request's own title (the v2 request
// carries a title and a subject, and no toolCall, which the v2 schema
// drops); otherwise what Zed shows of its tool call (zedShows).
func (ide *executingIDE) shows(p permissionParams) string {
	if ide.cfg.Protocol > 1 {
		return p.Title
	}
	return ide.zedShows(p.ToolCall)
}

// loadListed asks the agent for its sessions and, as a person picking the
// first entry of Zed's history does, loads it in the directories the list
// gave it (Zed keeps a listed session's cwd and additionalDirectories as
// the thread's folders and loads it in them). It returns the session
// loaded, or "" when the list holds none or the load was refused.
func (ide *executingIDE) loadListed() (string, error) {
	ans, err := ide.call("3", "session/list", `{}`)
	if err != nil {
		return "", fmt.Errorf("session/list: %v", err)
	}
	var l struct {
		Result struct {
			Sessions []struct {
				SessionID             string   `json:"sessionId"`
				Cwd                   string   `json:"cwd"`
				AdditionalDirectories []string `json:"additionalDirectories"`
			} `json:"sessions"`
		} `json:"result"`
	}
	if ide.rd.params(ans, &l) != nil || len(l.Result.Sessions) == 0 {
		ide.action("session/list: no session to load")
		return "", nil
	}
	s := l.Result.Sessions[0]
	p := map[string]any{"sessionId": s.SessionID, "cwd": s.Cwd, "mcpServers": []any{}}
	if len(s.AdditionalDirectories) > 0 {
		p["additionalDirectories"] = s.AdditionalDirectories
	}
	params, _ := json.Marshal(p)
	// The session is the IDE's from the load on, as in Zed, which keeps
	// the thread before it asks so that the agent's replay of its history
	// (session/update, and any request in its name) reaches it; a load
	// that fails takes it away again.
	ide.mu.Lock()
	wasOpen := ide.opened[s.SessionID]
	ide.opened[s.SessionID] = true
	ide.mu.Unlock()
	ans, err = ide.call("4", "session/load", string(params))
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if err == nil {
		json.Unmarshal(ans, &r)
	}
	if err != nil || len(r.Error) > 0 {
		ide.mu.Lock()
		ide.opened[s.SessionID] = wasOpen
		ide.mu.Unlock()
	}
	if err != nil {
		return "", fmt.Errorf("session/load: %v", err)
	}
	if len(r.Error) > 0 {
		ide.action("session/load of %s refused: %s", s.SessionID, r.Error)
		return "", nil
	}
	ide.action("loaded listed session %s in %s", s.SessionID, s.Cwd)
	return s.SessionID, nil
}

// writeText writes an fs/write_text_file's content as the variant's IDE
// does: the JavaScript ones make the missing parent directories first, as
// the e2e TypeScript client does (fs.mkdir of path.dirname, recursive, on
// the path as given: path.dirname drops the last element and cleans
// nothing, so "d/new/../l/x" makes d/new), then write; the Go one writes
// only.
func writeText(variant, path, content string) error {
	if i := strings.LastIndexByte(path, '/'); variant != "go" && i > 0 {
		if err := mkdirParents(path[:i]); err != nil {
			return err
		}
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// mkdirParents is Node's fs.mkdir(dir, {recursive: true}) on Linux: dir
// is made, its parent first (the text before its last "/") when that is
// missing, and one that exists passes when it is, or leads to, a
// directory (stat, not lstat).
func mkdirParents(dir string) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrNotExist) {
		if i := strings.LastIndexByte(dir, '/'); i > 0 {
			if err := mkdirParents(dir[:i]); err != nil {
				return err
			}
		}
		err = os.Mkdir(dir, 0o755)
	}
	if errors.Is(err, fs.ErrExist) {
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return nil
		}
	}
	return err
}
