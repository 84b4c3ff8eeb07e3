package governance

import "fmt"

// Value is a policy decision: allow, deny, require-approval or escalate.
type Value string

// The four AIP-7 decisions.
const (
	Allow           Value = "allow"
	RequireApproval Value = "require-approval"
	Escalate        Value = "escalate"
	Deny            Value = "deny"
)

// rank orders decisions from least to most strict; the stricter decision wins
// when several apply.
func (v Value) rank() int {
	switch v {
	case Allow:
		return 0
	case RequireApproval:
		return 1
	case Escalate:
		return 2
	default: // Deny, and anything unknown: fail closed
		return 3
	}
}

// Stricter reports whether v is stricter than w.
func (v Value) Stricter(w Value) bool { return v.rank() > w.rank() }

// NeedsApproval reports whether v asks a person before the action proceeds.
func (v Value) NeedsApproval() bool { return v == RequireApproval || v == Escalate }

// parseValue reads a decision as written in a policy file. "ask" is the
// Claude Code spelling of require-approval.
func parseValue(s string) (Value, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "deny":
		return Deny, nil
	case "require-approval", "ask":
		return RequireApproval, nil
	case "escalate":
		return Escalate, nil
	}
	return "", fmt.Errorf("unknown decision %q (want allow, deny, require-approval, ask or escalate)", s)
}

// Action names the kind of operation a Request asks about, in AIP-7's
// dot-separated action classes.
const (
	ActionToolCall       = "tool.call"
	ActionFSRead         = "fs.read"
	ActionFSWrite        = "fs.write"
	ActionTerminalCreate = "terminal.create"
	ActionSessionNew     = "session.new"
)

// Request describes one operation to decide on. Only the fields that apply
// need to be set: a file read has a path, a shell command has a command line.
type Request struct {
	// Action is one of the Action* constants.
	Action string
	// Tool is the agent's own name for the tool (Claude Code's "Bash",
	// "Read", an MCP tool's "mcp__server__tool"), if known.
	Tool string
	// Kind is the ACP tool kind (read, edit, delete, move, search, execute,
	// think, fetch, switch_mode, other), if known.
	Kind string
	// Title is the human-readable title the agent gave the tool call.
	Title string
	// Paths are the files or directories the operation touches, absolute
	// or relative to Cwd.
	Paths []string
	// Command is a shell command line, for commands; for a terminal
	// request, its command.
	Command string
	// Argv is a terminal request's command and args as sent. The request
	// is decided as this argv (a client that execs it), as the shell line
	// an IDE that joins them unquoted runs (Zed: bash -i -c "(command
	// args...)") and as Command; the strictest decision wins.
	Argv []string
	// Env are the environment variables a terminal request sets.
	Env []EnvVar
	// URL is the address a fetch reaches.
	URL string
	// PromptURLs are the addresses a fetch tool without a url member
	// reaches: each URL its prompt names (Gemini CLI's web_fetch),
	// decided as URL is for a fetch-kind call.
	PromptURLs []string `json:",omitempty"`
	// Cwd is the working directory relative paths and commands run in.
	Cwd string
	// OtherCwds are the other directories a call's command may run in:
	// those its input names beside Cwd, and the session's when only a
	// member whose name looks like a directory's names one
	// (tool_workdir.go). The command is decided in each, the strictest
	// decision standing.
	OtherCwds []string `json:",omitempty"`
	// RunDirUnclear says, in the user's words, why the bridge cannot tell
	// where a call's command runs (its input names two directories, or one
	// it cannot place): the call needs approval.
	RunDirUnclear string `json:",omitempty"`
	// OtherCommands are the other command lines a call's input names
	// beside Command, under other members that hold one (tool_command.go):
	// each is decided, the strictest decision standing.
	OtherCommands []string `json:",omitempty"`
	// UnreadInput are the members of a shell tool's input that may hold
	// what it runs and that the bridge does not read (tool_command.go):
	// the call needs approval, its title showing each.
	UnreadInput []InputMember `json:",omitempty"`
	// Roots are the workspace roots for this request. The engine's own
	// roots, when it has any, take precedence; if neither is set, Cwd is
	// the root.
	Roots []string
	// CommandUnknown says the operation runs a command the bridge cannot
	// see (an execute tool call whose input has not arrived yet).
	CommandUnknown bool
	// Session is the ACP session the request belongs to, if known; a read
	// of one of its offloads is allowed (Engine.SetOffloadReader).
	Session string `json:",omitempty"`
	// NoCwd says a terminal request names no cwd: the client runs it in a
	// directory of its own choosing (its own working directory), not the
	// session's, so nothing it names can be judged.
	NoCwd bool
	// Searched are the directories a tool call reads every file beneath
	// without naming them (Claude Code's Grep, Gemini CLI's grep_search
	// and read_many_files): each is walked as "grep -r" is, and a file
	// there the policy refuses reading refuses the call (decide_search.go).
	Searched []Search `json:",omitempty"`
	// Mentioned are the strings of a tool's input, at any depth, that a
	// tool the bridge does not know may open as files under member names
	// that do not say so ({"target": "/ws/.env"}): absolute, "~/..." or
	// relative to Cwd. Each that reads as a path is decided as a read and
	// a write where a rule naming paths, self-protection, a per-process
	// location or a hard link restricts it, and says nothing elsewhere
	// (mentioned.go).
	Mentioned []string `json:",omitempty"`
	// MentionedTooMany says the input held more such strings than the
	// bridge judges: the call needs approval.
	MentionedTooMany bool `json:",omitempty"`
	// InputHidden says the call's input is not shown to the bridge (Gemini
	// CLI leaves a long one out of the text it shows instead): the call
	// needs approval.
	InputHidden bool `json:",omitempty"`
}

// Decision is the engine's answer for a Request.
type Decision struct {
	// Value is the decision.
	Value Value
	// Rule is the rule that made the decision, as written, with the file
	// and line it comes from, e.g. "deny Read(**/.env) (GOVERNANCE.md:12)".
	Rule string
	// Ref is a slug naming the rule for audit records (policy.ref): a
	// policy's slug, "rules-deny-2" for the second compact deny rule,
	// "default" or "workspace-roots".
	Ref string
	// Reason says in a sentence what was decided about which subject.
	Reason string
	// Advisories lists warn- and info-severity policies that matched
	// without affecting Value.
	Advisories []string
	// Subjects lists each thing the request was decided on (every command
	// a command line runs, every variable it sets, every path) with its
	// own decision, in the order decided.
	Subjects []Subject
}

// EnvVar is one environment variable of a terminal request.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Subject is the decision about one subject of a request.
type Subject struct {
	// What names the subject ("running \"rm -rf x\"", "setting BASH_ENV").
	What string
	// Value, Rule and Reason are its decision, as in Decision.
	Value  Value
	Rule   string
	Reason string
	// Details say how a command was read: its forms, the words in them
	// that are not static, and notes.
	Details []string
}

// String returns the decision, its rule and its reason on one line.
func (d Decision) String() string {
	return fmt.Sprintf("%s: %s [%s]", d.Value, d.Reason, d.Rule)
}
