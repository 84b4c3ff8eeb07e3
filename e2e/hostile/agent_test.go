package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// agentConfig is what the hostile agent process is told (a JSON file named
// on its command line).
type agentConfig struct {
	Script    string `json:"script"`    // file of the raw bytes to send during the prompt
	Received  string `json:"received"`  // file every line received is appended to
	SessionID string `json:"sessionId"` // the session id session/new answers
	Name      string `json:"name"`      // agentInfo.name
	Workspace string `json:"workspace"` // where the agent runs commands it was allowed
	// AuthMethods is the initialize response's authMethods; when set, the
	// first session/new is answered that the person must log in.
	AuthMethods json.RawMessage `json:"authMethods,omitempty"`
	// Sessions, when set, is the agent's session/list answer's sessions;
	// the agent then says it lists and loads sessions, and answers
	// session/load of any of them.
	Sessions json.RawMessage `json:"sessions,omitempty"`
	// ListAnswer, when set, is the line (without its newline) the agent
	// answers session/list with, byte for byte (and, if the bridge answers
	// that line under the list's id as a refused request, a plain answer
	// listing no session); the agent then says it lists and loads
	// sessions, as with Sessions.
	ListAnswer string `json:"listAnswer,omitempty"`
	// EndTurn, when set, is the line (without its newline) the agent
	// answers the first prompt with, byte for byte, answeredIDPlaceholder
	// standing for the prompt's id; the lines of NextScript are then
	// sent in the second prompt's turn.
	EndTurn    string `json:"endTurn,omitempty"`
	NextScript string `json:"nextScript,omitempty"`
	// LoadAnswer, when set, is the line (without its newline) the agent
	// answers session/load with, byte for byte, answeredIDPlaceholder
	// standing for the request's id.
	LoadAnswer string `json:"loadAnswer,omitempty"`
	// Rollover has the agent answer a session/new after its first with
	// rolledSessionID (a rollover's fresh session), say it loads
	// sessions, and end each warm-up prompt (warmUpPrompt) at once.
	Rollover bool `json:"rollover,omitempty"`
	// ModeOption, when set, has the agent show its mode as a
	// configuration option (modeConfigOptions): every session it opens
	// starts in "auto", and it takes session/set_config_option of it.
	ModeOption string `json:"modeOption,omitempty"`
	// OpenedMode, when set, has the agent show its mode as a
	// configuration option too, opening the case's session in it (a
	// rollover's fresh session still starts in "auto").
	OpenedMode string `json:"openedMode,omitempty"`
	// RolledAnswer, when set, is the result the agent answers a
	// rollover's session/new with (a JSON object), in place of its own.
	RolledAnswer json.RawMessage `json:"rolledAnswer,omitempty"`
	// Stderr, when set, is written to the agent's stderr as it starts.
	Stderr string `json:"stderr,omitempty"`
	// ExitInTurn has the agent exit with status 1 once its turn's lines
	// are sent, leaving the prompt unanswered.
	ExitInTurn bool `json:"exitInTurn,omitempty"`
	// Protocol, when set, is the protocolVersion the agent answers
	// initialize with, whatever version it is asked for, as an agent that
	// speaks only that version does; otherwise 1.
	Protocol int `json:"protocol,omitempty"`
	// Caps, when set, are members added to the agentCapabilities of the
	// initialize answer (a JSON object), such as "nes": the agent then
	// answers nes/start with a session of its own.
	Caps json.RawMessage `json:"caps,omitempty"`
}

// withModeOption adds to result, a session/new or
// session/set_config_option result, the agent's mode option in mode, when
// the case has the agent show its mode so (agentConfig.ModeOption).
func (a *hostileAgent) withModeOption(result map[string]any, mode string) map[string]any {
	choice := a.modeChoice()
	if choice == "" {
		return result
	}
	result["configOptions"] = []any{map[string]any{"id": "mode", "name": "Mode", "category": "mode", "type": "select", "currentValue": mode,
		"options": []any{map[string]any{"value": "auto", "name": "Auto"}, map[string]any{"value": choice, "name": choice}}}}
	return result
}

// modeChoice is the mode besides "auto" the agent's mode option offers
// (agentConfig.ModeOption or OpenedMode), "" when it shows none.
func (a *hostileAgent) modeChoice() string {
	if a.cfg.ModeOption != "" {
		return a.cfg.ModeOption
	}
	return a.cfg.OpenedMode
}

// warmUpPrompt is the text of the prompts the IDE sends before its own
// under @rollover; the agent ends their turns at once, with some text.
const warmUpPrompt = "warm up"

// rolledSessionID is the id a Rollover agent gives the fresh session a
// rollover opens to continue session sid.
func rolledSessionID(sid string) string { return sid + "-rolled" }

// answeredIDPlaceholder stands for the id of the request a line of the
// case's answers (@end-turn, @load-answer).
const answeredIDPlaceholder = "{{REQID}}"

// syncID is the id of the request the agent sends after the attack; its
// answer means the IDE has handled everything sent before it. The agent
// waits for it as long as it takes: a run that never gets it is ended, and
// failed, by the IDE's deadline (ideTimeout), which kills the bridge; the
// agent's input then ends and it exits.
const syncID = "hostile-sync"

// nextSyncID is the id of the sync request of the second turn (EndTurn).
const nextSyncID = "hostile-sync-next"

// hostileAgent speaks ACP as an agent on stdin/stdout.
type hostileAgent struct {
	cfg    agentConfig
	script []byte
	perms  map[string]agentRun  // permission request id -> command to run, from the script
	writes map[string]fileWrite // permission request id -> file to write, from the script
	recv   *os.File
	synced chan struct{}
	// nextSynced is closed when the second turn's sync is answered.
	nextSynced chan struct{}
	// turns counts the prompts the agent took (only turn's goroutines,
	// one at a time, use it).
	turns   int
	outMu   sync.Mutex // guards out
	out     io.Writer
	stateMu sync.Mutex // guards cancelled, syncDone, creates
	cancelled,
	syncDone bool
	// creates are the script's terminal/create requests not yet answered,
	// by id: a line using a terminal waits for them, as a real agent
	// waits for the terminalId.
	creates map[string]chan struct{}
	// askedLogin: the first session/new was answered authRequired (only
	// the reading goroutine uses it).
	askedLogin bool
	// opened: a session/new was answered with the case's session id.
	opened bool
	// listID is the id of the session/list answered with cfg.ListAnswer,
	// until the bridge answers that line as a request it refused.
	listID json.RawMessage
	// offloaded is closed once an answer gave the agent an offload
	// reference, whose file is then offloadPath (guarded by stateMu).
	offloaded   chan struct{}
	offloadPath string
}

// offloadedPlaceholder stands, in a line of the script, for the file of
// the first offload reference an answer gave the agent: the line waits
// for that answer, as an agent reads the reference before using it.
const offloadedPlaceholder = "{{OFFLOADED}}"

// referenceFile finds the file an offload reference names in the text of
// an answer ("**File:** PATH" on a line of its own).
var referenceFile = regexp.MustCompile(`(?m)^\*\*File:\*\* (.+)$`)

// noteOffload keeps the file of the first offload reference in result.
func (a *hostileAgent) noteOffload(result json.RawMessage) {
	var r any
	if json.Unmarshal(result, &r) != nil {
		return
	}
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			texts = append(texts, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(r)
	for _, t := range texts {
		if f := referenceFile.FindStringSubmatch(t); f != nil {
			a.stateMu.Lock()
			if a.offloadPath == "" {
				a.offloadPath = f[1]
				close(a.offloaded)
			}
			a.stateMu.Unlock()
			return
		}
	}
}

// runAgent is the hostile agent's main; it returns the exit status.
func runAgent(configPath string) int {
	data, err := os.ReadFile(configPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile agent:", err)
		return 2
	}
	a := &hostileAgent{synced: make(chan struct{}), nextSynced: make(chan struct{}), out: os.Stdout, creates: map[string]chan struct{}{},
		offloaded: make(chan struct{})}
	if err := json.Unmarshal(data, &a.cfg); err != nil {
		fmt.Fprintln(os.Stderr, "hostile agent:", err)
		return 2
	}
	if a.script, err = os.ReadFile(a.cfg.Script); err != nil {
		fmt.Fprintln(os.Stderr, "hostile agent:", err)
		return 2
	}
	if a.cfg.Stderr != "" {
		fmt.Fprintln(os.Stderr, a.cfg.Stderr)
	}
	a.perms = permissionCommands(a.script)
	a.writes = permissionWrites(a.script)
	if a.recv, err = os.OpenFile(a.cfg.Received, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "hostile agent:", err)
		return 2
	}
	defer a.recv.Close()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			a.recv.Write(line)
			if line[len(line)-1] != '\n' {
				a.recv.Write([]byte("\n"))
			}
			a.handle(bytes.TrimSuffix(line, []byte("\n")))
		}
		if err != nil {
			return 0
		}
	}
}

// fileWrite is what an agent's own Write or Edit tool, or Codex's patch,
// does once allowed: write content to path (if any), then remove remove
// (if any: the file a patch moves away or deletes).
type fileWrite struct {
	path, content, remove string
}

// permissionRequests calls each with the id and the toolCall of every
// session/request_permission in the script, read leniently (the agent
// knows what it meant: JavaScript's trim, invalid UTF-8 dropped) into the
// toolCall type each caller needs.
func permissionRequests[T any](script []byte, each func(id string, toolCall T)) {
	for _, line := range bytes.Split(script, []byte("\n")) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ToolCall T `json:"toolCall"`
			} `json:"params"`
		}
		text := strings.TrimFunc(strings.ToValidUTF8(string(line), ""), jsWhitespace)
		if json.Unmarshal([]byte(text), &m) != nil || m.Method != "session/request_permission" {
			continue
		}
		each(string(m.ID), m.Params.ToolCall)
	}
}

// permissionWrites maps the ids of the script's permission requests whose
// rawInput names a file_path (Claude's Write and Edit tools) to the write
// the agent makes itself once allowed, read leniently as permissionCommands.
func permissionWrites(script []byte) map[string]fileWrite {
	writes := map[string]fileWrite{}
	permissionRequests(script, func(id string, tc struct {
		RawInput struct {
			FilePath  string `json:"file_path"`
			Content   string `json:"content"`
			NewString string `json:"new_string"`
			// MCP servers' and other agents' write tools: Serena's
			// create_text_file, JetBrains' create_new_file_with_text, a
			// target_file edit.
			RelativePath  string `json:"relative_path"`
			PathInProject string `json:"pathInProject"`
			TargetFile    string `json:"target_file"`
			Text          string `json:"text"`
			CodeEdit      string `json:"code_edit"`
		} `json:"rawInput"`
	}) {
		in := tc.RawInput
		for _, p := range []string{in.FilePath, in.RelativePath, in.PathInProject, in.TargetFile} {
			if p != "" {
				writes[id] = fileWrite{path: p, content: in.Content + in.NewString + in.Text + in.CodeEdit}
				break
			}
		}
	})
	// Codex's patches (codex-acp's rawInput: the changes it applies by
	// path): the first change of each, an add, a delete or a move.
	permissionRequests(script, func(id string, tc struct {
		RawInput struct {
			Changes map[string]struct {
				Type     string `json:"type"`
				Content  string `json:"content"`
				MovePath string `json:"move_path"`
			} `json:"changes"`
		} `json:"rawInput"`
	}) {
		for _, p := range slices.Sorted(maps.Keys(tc.RawInput.Changes)) {
			switch c := tc.RawInput.Changes[p]; {
			case c.Type == "add":
				writes[id] = fileWrite{path: p, content: c.Content}
			case c.Type == "delete":
				writes[id] = fileWrite{remove: p}
			case c.Type == "update" && c.MovePath != "":
				writes[id] = fileWrite{path: c.MovePath, content: "moved by the patch", remove: p}
			}
			break
		}
	})
	return writes
}

// agentRun is a command the agent runs itself once a permission request
// allows it: argv, in dir (the workspace when empty).
type agentRun struct {
	argv []string
	dir  string
}

// permissionCommands maps the ids of the script's permission requests to
// the argv they ask to run, read leniently (the agent knows what it meant):
// rawInput.command (or the first member of commandKeys it carries) as a
// shell line or as an argv array (Codex's form), else
// the title (Gemini's permission requests carry the command only there),
// run in the directory the input names (runDirKeys: Codex's workdir,
// Gemini CLI's dir_path, rawInput.cwd, ...), a relative one below the
// workspace, as those agents resolve it (permissionAnswered).
func permissionCommands(script []byte) map[string]agentRun {
	perms := map[string]agentRun{}
	permissionRequests(script, func(id string, call struct {
		Title    string          `json:"title"`
		RawInput json.RawMessage `json:"rawInput"`
	}) {
		var tc struct {
			Title    string
			RawInput map[string]json.RawMessage
		}
		tc.Title = call.Title
		var line string
		var argv []string
		var run agentRun
		var command json.RawMessage
		if json.Unmarshal(call.RawInput, &tc.RawInput) != nil && json.Unmarshal(call.RawInput, &line) == nil {
			// A tool whose input is its command line itself.
			command = call.RawInput
		}
		for _, k := range commandKeys {
			if c, ok := tc.RawInput[k]; ok {
				command = c
				break
			}
		}
		switch {
		case json.Unmarshal(command, &line) == nil && line != "":
			run.argv = []string{"bash", "-c", line}
		case json.Unmarshal(command, &argv) == nil && len(argv) > 0:
			run.argv = argv
		case tc.Title != "":
			run.argv = []string{"bash", "-c", tc.Title}
		default:
			return
		}
		// Args after a command: appended to an argv, or joined unquoted
		// to a line, as Zed joins a terminal's.
		var args []string
		if json.Unmarshal(tc.RawInput["args"], &args) == nil && len(args) > 0 && command != nil {
			if len(argv) > 0 {
				run.argv = append(run.argv, args...)
			} else {
				run.argv[2] += " " + strings.Join(args, " ")
			}
		}
		keys := append(slices.Clone(runDirKeys), slices.Sorted(maps.Keys(tc.RawInput))...)
		for _, k := range keys {
			if (slices.Contains(runDirKeys, k) || strings.HasSuffix(k, "_dir")) &&
				json.Unmarshal(tc.RawInput[k], &run.dir) == nil && run.dir != "" {
				break
			}
		}
		perms[id] = run
	})
	return perms
}

// commandKeys are the members in which agents' shell tools take the
// command they run, in the order the hostile agent takes them (the first
// it carries): command (Claude Code's Bash, Gemini CLI's
// run_shell_command, Codex's exec), cmd (Codex's exec_command, Amp's
// Bash), and other tools' spellings.
var commandKeys = []string{"command", "cmd", "cmdline", "commandLine", "command_line", "shell_command", "script", "argv", "code", "run", "input"}

// runDirKeys are the members in which agents' shell tools name the
// directory a command runs in, in the order the hostile agent takes them
// (the first it carries): Codex's workdir, Gemini CLI's dir_path (and its
// older directory), other agents' working_directory, workingDirectory,
// working_dir, workingDir, and cwd; else the first member, by name, whose
// name ends in _dir (a tool of the agent's own, such as exec_dir).
var runDirKeys = []string{"workdir", "dir_path", "directory", "working_directory", "workingDirectory", "working_dir", "workingDir", "cwd"}

func (a *hostileAgent) send(line []byte) {
	a.outMu.Lock()
	defer a.outMu.Unlock()
	a.out.Write(line)
}

func (a *hostileAgent) reply(id json.RawMessage, result any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	a.send(append(b, '\n'))
}

func (a *hostileAgent) handle(line []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	switch {
	case m.Method == "initialize":
		name := a.cfg.Name
		if name == "" {
			name = "hostile-agent"
		}
		methods := json.RawMessage(`[]`)
		if len(a.cfg.AuthMethods) > 0 {
			methods = a.cfg.AuthMethods
		}
		caps := map[string]any{"loadSession": false}
		if len(a.cfg.Sessions) > 0 || a.cfg.ListAnswer != "" || a.cfg.Rollover {
			caps = map[string]any{"loadSession": true, "sessionCapabilities": map[string]any{"list": map[string]any{}}}
		}
		if len(a.cfg.Caps) > 0 {
			var more map[string]any
			json.Unmarshal(a.cfg.Caps, &more)
			maps.Copy(caps, more)
		}
		a.reply(m.ID, map[string]any{
			"protocolVersion":   max(a.cfg.Protocol, 1),
			"agentCapabilities": caps,
			"agentInfo":         map[string]any{"name": name, "version": "1.0.0"},
			"authMethods":       methods,
		})
	case m.Method == "session/new" && len(a.cfg.AuthMethods) > 0 && !a.askedLogin:
		a.askedLogin = true
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": authRequired, "message": "Authentication required"}})
		a.send(append(b, '\n'))
	case m.Method == "session/new" && a.cfg.Rollover && a.opened && len(a.cfg.RolledAnswer) > 0:
		a.reply(m.ID, a.cfg.RolledAnswer)
	case m.Method == "session/new" && a.cfg.Rollover && a.opened:
		a.reply(m.ID, a.withModeOption(map[string]any{"sessionId": rolledSessionID(a.cfg.SessionID)}, "auto"))
	case m.Method == "session/new":
		a.opened = true
		mode := "auto"
		if a.cfg.OpenedMode != "" {
			mode = a.cfg.OpenedMode
		}
		a.reply(m.ID, a.withModeOption(map[string]any{"sessionId": a.cfg.SessionID}, mode))
	case m.Method == "session/set_config_option" && a.modeChoice() != "":
		var p struct {
			ConfigID string `json:"configId"`
			Value    string `json:"value"`
		}
		json.Unmarshal(m.Params, &p)
		a.reply(m.ID, a.withModeOption(map[string]any{}, p.Value))
	case m.Method == "session/list" && a.cfg.ListAnswer != "":
		a.listID = m.ID
		a.send([]byte(a.cfg.ListAnswer + "\n"))
	case m.Method == "" && a.listID != nil && string(m.ID) == string(a.listID):
		// The bridge refused the raw answer, taking it for a request of
		// the agent's under the IDE's id: a plain answer listing nothing
		// then, so the IDE is not left waiting.
		a.reply(a.listID, map[string]any{"sessions": []any{}})
		a.listID = nil
	case m.Method == "session/list" && len(a.cfg.Sessions) > 0:
		a.reply(m.ID, map[string]any{"sessions": a.cfg.Sessions})
	case m.Method == "session/load" && a.cfg.LoadAnswer != "":
		a.send([]byte(strings.ReplaceAll(a.cfg.LoadAnswer, answeredIDPlaceholder, string(m.ID)) + "\n"))
	case m.Method == "session/load" && (len(a.cfg.Sessions) > 0 || a.cfg.ListAnswer != "" || a.cfg.Rollover):
		a.reply(m.ID, map[string]any{})
	case m.Method == "session/prompt" && a.cfg.Rollover && strings.Contains(string(m.Params), warmUpPrompt):
		a.warmUp(m.ID, m.Params)
	case m.Method == "session/prompt":
		a.turns++
		if a.turns == 2 && a.cfg.EndTurn != "" {
			go a.nextTurn(m.ID)
		} else {
			go a.turn(m.ID)
		}
	case m.Method == "nes/start" && len(a.cfg.Caps) > 0:
		a.reply(m.ID, map[string]any{"sessionId": "nes-" + a.cfg.SessionID})
	case m.Method == "session/cancel":
		a.stateMu.Lock()
		a.cancelled = true
		a.stateMu.Unlock()
	case m.Method != "" && len(m.ID) > 0:
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": -32601, "message": "method not found"}})
		a.send(append(b, '\n'))
	case m.Method == "" && string(m.ID) == `"`+nextSyncID+`"`:
		close(a.nextSynced)
	case m.Method == "" && string(m.ID) == `"`+syncID+`"`:
		a.stateMu.Lock()
		if !a.syncDone {
			a.syncDone = true
			close(a.synced)
		}
		a.stateMu.Unlock()
	case m.Method == "":
		a.stateMu.Lock()
		if ch := a.creates[string(m.ID)]; ch != nil {
			delete(a.creates, string(m.ID))
			close(ch)
		}
		a.stateMu.Unlock()
		a.noteOffload(m.Result)
		a.permissionAnswered(m.ID, m.Result)
	}
}

// sendScript writes the script's bytes in order; a terminal/output,
// wait_for_exit, kill or release line is held until every earlier
// terminal/create of the script is answered, as a real agent learns the
// terminalId first (a create never answered holds the script until the
// IDE's deadline ends the run, as syncID says). A script with no create
// sends its lines at once.
func (a *hostileAgent) sendScript() {
	var pending []chan struct{}
	rest := a.script
	for len(rest) > 0 {
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		line := rest[:n]
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		text := strings.TrimFunc(strings.ToValidUTF8(string(line), ""), jsWhitespace)
		if json.Unmarshal([]byte(text), &m) == nil {
			switch m.Method {
			case "terminal/create":
				if len(m.ID) > 0 {
					ch := make(chan struct{})
					a.stateMu.Lock()
					a.creates[string(m.ID)] = ch
					a.stateMu.Unlock()
					pending = append(pending, ch)
				}
			case "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release":
				for _, ch := range pending {
					<-ch
				}
				pending = nil
			}
		}
		if bytes.Contains(line, []byte(offloadedPlaceholder)) {
			<-a.offloaded
			a.stateMu.Lock()
			path := jsonString(a.offloadPath)
			a.stateMu.Unlock()
			line = bytes.ReplaceAll(line, []byte(offloadedPlaceholder), []byte(path[1:len(path)-1]))
		}
		a.send(line)
		rest = rest[n:]
	}
}

// permissionAnswered carries out a permission request the answer allowed,
// as an agent that runs its own tools does: it writes the file the request
// names, else runs its command.
func (a *hostileAgent) permissionAnswered(id, result json.RawMessage) {
	ran, run := a.perms[string(id)]
	w, write := a.writes[string(id)]
	if !run && !write {
		return
	}
	var r struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	if json.Unmarshal(result, &r) != nil || r.Outcome.Outcome != "selected" || !strings.HasPrefix(r.Outcome.OptionID, "allow") {
		return
	}
	if write {
		if w.path != "" {
			if err := os.WriteFile(w.path, []byte(w.content), 0o644); err != nil {
				fmt.Fprintf(os.Stderr, "%s %v\n", agentWriteFailed, err)
			}
		}
		if w.remove != "" {
			if err := os.Remove(w.remove); err != nil {
				fmt.Fprintf(os.Stderr, "%s %v\n", agentWriteFailed, err)
			}
		}
		return
	}
	cmd := exec.Command(ran.argv[0], ran.argv[1:]...)
	cmd.Dir = a.cfg.Workspace
	if ran.dir != "" {
		cmd.Dir = ran.dir
		if !filepath.IsAbs(ran.dir) {
			cmd.Dir = filepath.Join(a.cfg.Workspace, ran.dir)
		}
	}
	if runCommand(cmd).overran {
		fmt.Fprintf(os.Stderr, "%s %q ran over %v and was ended: its effects may be missing\n", agentOverran, ran.argv, runTimeout)
	}
}

// agentOverran starts the agent's stderr line for a command runTimeout
// ended; the run fails on it (judge).
const agentOverran = "hostile agent: command"

// agentWriteFailed starts the agent's stderr line for a write it was allowed
// and could not make; the run fails on it (judge), since a case that finds
// the file unchanged would otherwise pass with nothing attempted.
const agentWriteFailed = "hostile agent: allowed write failed:"

// turn sends the attack, then the sync request, and ends the turn once the
// sync is answered.
func (a *hostileAgent) turn(id json.RawMessage) {
	a.sendScript()
	a.send([]byte(`{"jsonrpc":"2.0","id":"` + syncID + `","method":"_hostile/sync","params":{}}` + "\n"))
	<-a.synced
	if a.cfg.ExitInTurn {
		os.Exit(1)
	}
	a.stateMu.Lock()
	reason := "end_turn"
	if a.cancelled {
		reason = "cancelled"
	}
	a.stateMu.Unlock()
	if a.cfg.EndTurn != "" {
		a.send([]byte(strings.ReplaceAll(a.cfg.EndTurn, answeredIDPlaceholder, string(id)) + "\n"))
		return
	}
	a.reply(id, map[string]any{"stopReason": reason})
}

// warmUp ends a warm-up prompt's turn (Rollover) at once, after a few
// lines of text in the session it names, which give the summary of a
// checkpoint something to hold.
func (a *hostileAgent) warmUp(id, params json.RawMessage) {
	var p struct {
		SessionID json.RawMessage `json:"sessionId"`
	}
	json.Unmarshal(params, &p)
	a.send([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":` + string(p.SessionID) +
		`,"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":` + warmUpText + `}}}}` + "\n"))
	a.reply(id, map[string]any{"stopReason": "end_turn"})
}

// warmUpText is the text of a warm-up turn, as a JSON string: enough for a
// checkpoint's summary to be smaller than what it replaces.
var warmUpText = strconv.Quote(strings.Repeat("Looked at the workspace; nothing to change yet. ", 40))

// nextTurn is the second prompt's turn (EndTurn): the lines of NextScript,
// then a sync request, and the turn's end once the sync is answered.
func (a *hostileAgent) nextTurn(id json.RawMessage) {
	if next, err := os.ReadFile(a.cfg.NextScript); err == nil {
		a.send(next)
	}
	a.send([]byte(`{"jsonrpc":"2.0","id":"` + nextSyncID + `","method":"_hostile/sync","params":{}}` + "\n"))
	<-a.nextSynced
	a.reply(id, map[string]any{"stopReason": "end_turn"})
}
