package governance

import (
	"encoding/json"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
)

// An agent's shell tool takes its command under a member of the agent's
// own spelling: Claude Code's Bash and Gemini CLI's run_shell_command
// take command, Codex's exec_command (unified exec) and Amp's Bash cmd,
// other tools commandLine, command_line, script or argv. An execute call
// whose command was under a member the bridge did not read was judged on
// its title, which the agent writes too: titled "echo ok" with
// {"cmd":"rm x"}, it was allowed by Bash(echo:*) and the agent ran rm x.
// So every member known to hold a command is judged as one, each of them
// when there are several; and any other member of an execute call that
// holds text (a string, or a list holding strings) and is not one the
// bridge reads or knows to say nothing about what runs (a description, a
// timeout, the call's id) may hold the command the agent runs: the call
// needs the person's approval, and the title shows that member and its
// text.

// commandKeys are the members in which agents' tools name the command they
// run, in the order the first one an input carries becomes its command:
// command, then the others known.
var commandKeys = []string{"command", "cmd", "cmdline", "cmdLine", "commandLine", "command_line", "shell_command",
	"shellCommand", "argv"}

// shellCommandKeys are the members that hold a command in an execute
// call's input only: in another tool's input they may be a program's text
// in another language.
var shellCommandKeys = []string{"script", "code"}

// describingKeys are the members of known agents' shell tools that say
// nothing about what runs or where: Claude Code's Bash (description,
// timeout, run_in_background, dangerouslyDisableSandbox), Gemini CLI's
// run_shell_command (description, is_background), Codex's exec and its
// approval requests (call_id, approval_id, turn_id, started_at_ms, reason,
// justification, parsed_cmd, proposed_execpolicy_amendment,
// available_decisions, sandbox_permissions, yield_time_ms,
// max_output_tokens, with_escalated_permissions, login, timeout_ms; its
// additional_permissions and network_approval_context widen what the
// command may reach, and are unread input).
var describingKeys = []string{"description", "reason", "justification", "title", "id", "call_id", "callId",
	"turn_id", "turnId", "approval_id", "started_at_ms", "available_decisions", "parsed_cmd", "proposed_execpolicy_amendment", "sandbox_permissions",
	"timeout", "timeout_ms", "yield_time_ms", "max_output_tokens", "is_background", "run_in_background",
	"dangerouslyDisableSandbox", "with_escalated_permissions", "login"}

// otherUseKeys are members the bridge reads as something other than a
// command or a path (a patch's body, a glob, an address): in a shell
// tool's input they may hold what it runs, and are unread input.
var otherUseKeys = []string{"input", "patch", "changes", "pattern", "url"}

// InputMember is a member of a tool call's input and its text, as JSON.
type InputMember struct {
	// Key is the member's name.
	Key string
	// Text is the member's value as compact JSON.
	Text string
}

// executesCommand reports whether req is a shell tool's call: an execute
// call, Claude Code's Bash, or a call of any kind whose tool's name says
// it runs commands (shellToolName).
func executesCommand(req *Request) bool {
	return req.Kind == "execute" || req.Tool == "Bash" || shellToolName(req.Tool)
}

// shellToolWords are the words whose presence in a tool's name (in lower
// case, without separators) says it runs commands: Gemini CLI's
// run_shell_command, Codex's shell, exec and exec_command, Cline's
// execute_command, Cursor's run_terminal_cmd, Goose's developer__shell.
var shellToolWords = []string{"shell", "bash", "terminal", "exec", "command", "cmd"}

// notShellTools are tools whose names hold one of shellToolWords and that
// run nothing: Claude Code's tools reading or ending a Bash run.
var notShellTools = []string{"BashOutput", "KillBash", "KillShell"}

// shellToolName reports whether a tool named name, not an MCP server's
// (whose rules name it), runs commands by its name.
func shellToolName(name string) bool {
	if name == "" || strings.HasPrefix(name, "mcp__") || slices.Contains(notShellTools, name) {
		return false
	}
	n := foldedMemberName(name)
	for _, w := range shellToolWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// readCommandMembers sets the commands req's input in names under every
// member of commandKeys (and, for an execute call, of shellCommandKeys):
// the first is req.Command unless the input's command member set it, the
// other different ones req.OtherCommands. A command member that holds no
// command line, and, for an execute call, any other member holding text
// the bridge neither reads nor knows (describingKeys), is in
// req.UnreadInput: the call needs approval.
func readCommandMembers(req *Request, in map[string]any) {
	if in == nil {
		return
	}
	keys := commandKeys
	execute := executesCommand(req)
	if execute {
		keys = append(slices.Clone(commandKeys), shellCommandKeys...)
	}
	from := "" // the member req.Command is read from
	if req.Command != "" {
		from = "command"
	}
	for _, k := range keys {
		v, ok := in[k]
		if !ok || v == nil {
			continue
		}
		c, ok := commandLine(v)
		switch {
		case !ok:
			req.UnreadInput = append(req.UnreadInput, InputMember{k, compactJSON(v)})
		case c == "" || k == "command":
			// The command member is read as fillFromInput reads it (with
			// its args).
		case req.Command == "":
			req.Command, from = c, k
		case c != req.Command && !slices.Contains(req.OtherCommands, c):
			req.OtherCommands = append(req.OtherCommands, c)
		}
	}
	readArgs(req, in, from, execute)
	if req.Command != "" {
		req.CommandUnknown = false
	}
	if !execute {
		return
	}
	var unread []string
	for k, v := range in {
		if slices.Contains(keys, k) || slices.Contains(describingKeys, k) || judgedInputKey(k) && !slices.Contains(otherUseKeys, k) ||
			slices.Contains(runDirKeys, k) || runDirLike(k) || !holdsText(v) {
			continue
		}
		unread = append(unread, k)
	}
	slices.Sort(unread) // one input is always judged alike
	for _, k := range unread {
		req.UnreadInput = append(req.UnreadInput, InputMember{k, compactJSON(in[k])})
	}
}

// commandLine returns the command line v holds: a string, or a list of
// strings (an argv, joined as a shell reads it back); false for anything
// else.
func commandLine(v any) (string, bool) {
	switch c := v.(type) {
	case string:
		return c, true
	case []any:
		words := make([]string, 0, len(c))
		for _, w := range c {
			s, ok := w.(string)
			if !ok {
				return "", false
			}
			words = append(words, s)
		}
		return shellJoin(words), true
	}
	return "", false
}

// holdsText reports whether v, a member's value, may hold a command: a
// non-empty string, or a list or object holding one at any depth.
func holdsText(v any) bool {
	for s := range stringsIn(v) {
		if s != "" {
			return true
		}
	}
	return false
}

// compactJSON returns v as compact JSON, the way the title shows it.
func compactJSON(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "(a value the bridge cannot show)"
	}
	return string(b)
}

// readArgs reads the args member of a tool's input in, beside the command
// req.Command was read from the member from ("" for none). An agent may
// run a command and its args as an argv, or join them unquoted into a
// shell line, as IDEs run terminal requests: the call is decided as each
// (Request.Argv), and its command is the quoted line. Args that are not a
// list of strings, or args beside no command in an execute call, are
// unread input.
func readArgs(req *Request, in map[string]any, from string, execute bool) {
	a, ok := in["args"]
	if !ok || a == nil {
		return
	}
	list, isList := a.([]any)
	words := make([]string, 0, len(list))
	for _, w := range list {
		s, ok := w.(string)
		if !ok {
			isList = false
			break
		}
		words = append(words, s)
	}
	switch {
	case !isList:
		if execute || from != "" {
			req.UnreadInput = append(req.UnreadInput, InputMember{"args", compactJSON(a)})
		}
	case len(words) == 0:
	case from == "":
		if execute {
			req.UnreadInput = append(req.UnreadInput, InputMember{"args", compactJSON(a)})
		}
	default:
		if from != "command" {
			req.Command += " " + shellJoin(words)
		}
		req.Argv = append(stringOrList(in[from]), words...)
	}
}

// readBareInput reads the input raw of a shell tool's call that is not an
// object: a string is its command line, as some agents' shell tools take
// their input ("ls"); any other value but null is unread input, since the
// agent may run it. It reads nothing for another call, or an input that
// is an object.
func readBareInput(req *Request, raw json.RawMessage) {
	if len(raw) == 0 || !executesCommand(req) {
		return
	}
	var v any
	if jsonv2.Unmarshal(raw, &v) != nil {
		req.UnreadInput = append(req.UnreadInput, InputMember{"rawInput", string(raw)})
		return
	}
	switch v := v.(type) {
	case nil, map[string]any:
	case string:
		if v != "" && req.Command == "" {
			req.Command, req.CommandUnknown = v, false
		}
	default:
		req.UnreadInput = append(req.UnreadInput, InputMember{"rawInput", compactJSON(v)})
	}
}
