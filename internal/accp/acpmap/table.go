package acpmap

import "github.com/acp-bridge/acp-bridge/internal/accp"

// codec converts one JSON field to a compact ACCP value and back. compact
// reports false when the JSON value does not have the shape the codec
// compacts; the field is then written verbatim.
type codec uint8

const (
	verbatim    codec = iota
	textBlock         // {"type":"text","text":S} -> S
	blocks            // [content block...], text blocks as strings
	toolContent       // tool call content: {"type":"content","content":{text block}} -> S
	locations         // [{"path":P}] -> [P]
)

// fieldMap moves the JSON value at path into the frame param key.
type fieldMap struct {
	key   string
	path  []string
	codec codec
}

// constMap is a JSON value a kind implies: removed on encode when present
// with that value, restored on decode.
type constMap struct {
	path  []string
	value string
}

// kind is one row of the mapping: which JSON-RPC messages it covers and the
// frame they become.
type kind struct {
	name   string // the ACP message, for documentation and stats
	from   string // header agent when the direction is unknown
	intent string
	op     string
	// method is the JSON-RPC method of requests and notifications, and for
	// response kinds the method of the request answered.
	method   string
	response bool
	update   string // session/update variant ("" for none)
	status   string // tool_call_update status ("" for any other)
	consts   []constMap
	// defaults are values of fields ACP requires that the frame leaves out
	// when they hold the default (section 3.3 rule 5) and that decoding
	// restores when absent.
	defaults []constMap
	// params are frame params with a fixed value (fail:error's code).
	params []accp.Field
	fields []fieldMap
	// session is set for messages that always carry params.sessionId; the
	// encoder then leaves sid out of the envelope while it stays the same.
	session bool
	// rest is the object whose fields the table does not name; they travel
	// in param "u", everything else left over in "x".
	rest []string
}

func p(s ...string) []string { return s }

var (
	cJSONRPC = constMap{p("jsonrpc"), "2.0"}
	upd      = p("params", "update")
)

func updatePath(field string) []string { return append(append([]string{}, upd...), field) }

// toolFields are the tool call fields shared by tool_call and
// tool_call_update, keyed with the TC profile's short names (tool, args,
// res, stat) where the profile has them.
var toolFields = []fieldMap{
	{"id", updatePath("toolCallId"), verbatim},
	{"title", updatePath("title"), verbatim},
	{"tool", updatePath("kind"), verbatim},
	{"stat", updatePath("status"), verbatim},
	{"c", updatePath("content"), toolContent},
	{"loc", updatePath("locations"), locations},
	{"args", updatePath("rawInput"), verbatim},
	{"res", updatePath("rawOutput"), verbatim},
	{"meta", updatePath("_meta"), verbatim},
}

func without(fields []fieldMap, key string) []fieldMap {
	var out []fieldMap
	for _, f := range fields {
		if f.key != key {
			out = append(out, f)
		}
	}
	return out
}

func update(name, intent, op string, fields ...fieldMap) kind {
	return kind{name: "session/update " + name, from: "agent", intent: intent, op: op, method: "session/update",
		update: name, fields: fields, session: true, rest: upd}
}

// sessionMethods always carry params.sessionId.
var sessionMethods = map[string]bool{
	"session/prompt": true, "session/cancel": true, "session/load": true, "session/request_permission": true,
	"fs/read_text_file": true, "fs/write_text_file": true, "terminal/create": true, "terminal/output": true,
	"terminal/wait_for_exit": true, "terminal/kill": true, "terminal/release": true,
}

func request(method, from, intent, op string, fields ...fieldMap) kind {
	return kind{name: method, from: from, intent: intent, op: op, method: method, fields: fields,
		session: sessionMethods[method], rest: p("params")}
}

func response(method, from, intent, op string, fields ...fieldMap) kind {
	return kind{name: method + " result", from: from, intent: intent, op: op, method: method, response: true,
		fields: fields, rest: p("result")}
}

func pf(key string, path ...string) fieldMap {
	return fieldMap{key, append([]string{"params"}, path...), verbatim}
}
func rf(key string, path ...string) fieldMap {
	return fieldMap{key, append([]string{"result"}, path...), verbatim}
}

// kinds is the mapping table. (intent, op) is unique across rows, so a
// frame names its row.
var kinds = []kind{
	update("user_message_chunk", "stream", "user", fieldMap{"c", updatePath("content"), textBlock}, fieldMap{"mi", updatePath("messageId"), verbatim}),
	update("agent_message_chunk", "stream", "msg", fieldMap{"c", updatePath("content"), textBlock}, fieldMap{"mi", updatePath("messageId"), verbatim}),
	update("agent_thought_chunk", "stream", "think", fieldMap{"c", updatePath("content"), textBlock}, fieldMap{"mi", updatePath("messageId"), verbatim}),
	update("tool_call", "req", "tool", toolFields...),
	func() kind {
		k := update("tool_call_update", "done", "tool", without(toolFields, "stat")...)
		k.status = "completed"
		k.name += " (completed)"
		return k
	}(),
	func() kind {
		k := update("tool_call_update", "fail", "error", without(toolFields, "stat")...)
		k.status = "failed"
		k.name += " (failed)"
		k.params = []accp.Field{{Key: "code", Val: accp.String(string(accp.CodeToolExecFailed))}}
		return k
	}(),
	func() kind {
		k := update("tool_call_update", "sync", "tool", toolFields...)
		k.name += " (other)"
		return k
	}(),
	update("plan", "sync", "plan", fieldMap{"e", updatePath("entries"), verbatim}),
	update("available_commands_update", "sync", "cmds", fieldMap{"cmds", updatePath("availableCommands"), verbatim}),
	update("current_mode_update", "sync", "mode", fieldMap{"mode", updatePath("currentModeId"), verbatim}),
	update("config_option_update", "sync", "config"),
	update("session_info_update", "sync", "info"),
	update("usage_update", "sync", "usage",
		fieldMap{"used", updatePath("used"), verbatim}, fieldMap{"size", updatePath("size"), verbatim},
		fieldMap{"cost", updatePath("cost"), verbatim}),
	// Any other variant, including unstable and future ones.
	{name: "session/update (other)", from: "agent", intent: "sync", op: "update", method: "session/update",
		update: "*", fields: []fieldMap{{"su", updatePath("sessionUpdate"), verbatim}}, session: true, rest: upd},

	request("session/prompt", "client", "req", "prompt", fieldMap{"p", p("params", "prompt"), blocks}),
	func() kind {
		k := response("session/prompt", "agent", "end", "prompt", rf("stop", "stopReason"), rf("use", "usage"))
		k.defaults = []constMap{{p("result", "stopReason"), "end_turn"}}
		return k
	}(),
	request("session/cancel", "client", "cancel", "prompt"),
	request("session/new", "client", "req", "new", pf("cwd", "cwd"), pf("mcp", "mcpServers")),
	response("session/new", "agent", "done", "new", rf("s", "sessionId")),
	request("session/load", "client", "req", "load", pf("cwd", "cwd"), pf("mcp", "mcpServers")),
	request("initialize", "client", "req", "init", pf("pv", "protocolVersion"), pf("caps", "clientCapabilities"), pf("info", "clientInfo")),
	response("initialize", "agent", "done", "init", rf("pv", "protocolVersion"), rf("caps", "agentCapabilities"), rf("info", "agentInfo"), rf("auth", "authMethods")),
	request("session/request_permission", "agent", "wait", "permit", pf("tc", "toolCall"), pf("opts", "options")),
	response("session/request_permission", "client", "ack", "permit", rf("out", "outcome", "outcome"), rf("opt", "outcome", "optionId")),
	request("fs/read_text_file", "agent", "req", "read", pf("path", "path"), pf("line", "line"), pf("limit", "limit")),
	response("fs/read_text_file", "client", "done", "read", rf("text", "content")),
	request("fs/write_text_file", "agent", "req", "write", pf("path", "path"), pf("text", "content")),
	response("fs/write_text_file", "client", "done", "write"),
	request("terminal/create", "agent", "req", "term", pf("cmd", "command"), pf("args", "args"), pf("env", "env"), pf("cwd", "cwd"), pf("lim", "outputByteLimit")),
	response("terminal/create", "client", "done", "term", rf("tid", "terminalId")),
	request("terminal/output", "agent", "req", "termout", pf("tid", "terminalId")),
	response("terminal/output", "client", "done", "termout", rf("out", "output"), rf("trunc", "truncated"), rf("exit", "exitStatus")),
	request("terminal/wait_for_exit", "agent", "req", "termwait", pf("tid", "terminalId")),
	response("terminal/wait_for_exit", "client", "done", "termwait", rf("code", "exitCode"), rf("sig", "signal")),
	request("terminal/kill", "agent", "req", "termkill", pf("tid", "terminalId")),
	request("terminal/release", "agent", "req", "termrel", pf("tid", "terminalId")),
	request("$/cancel_request", "", "cancel", "rpc", pf("rid", "requestId")),

	// Anything else.
	{name: "request (other)", intent: "req", op: "rpc", method: "*", fields: []fieldMap{{"m", p("method"), verbatim}, {"p", p("params"), verbatim}}},
	{name: "notification (other)", intent: "sync", op: "note", method: "*", fields: []fieldMap{{"m", p("method"), verbatim}, {"p", p("params"), verbatim}}},
	{name: "response (other)", intent: "done", op: "rpc", response: true, method: "*", fields: []fieldMap{rf("r")}},
	{name: "error response", intent: "fail", op: "rpc", response: true, method: "!", fields: []fieldMap{
		{"code", p("error", "code"), verbatim}, {"msg", p("error", "message"), verbatim}, {"data", p("error", "data"), verbatim}}},
	{name: "other JSON", intent: "sync", op: "json", fields: []fieldMap{{"raw", nil, verbatim}}},
}

// Operations returns the operations the mapping uses that are not core
// operations; a registry must know them to accept mapped frames.
func Operations() []string {
	seen := map[string]bool{runOp: true}
	out := []string{runOp}
	for _, k := range kinds {
		if !seen[k.op] {
			seen[k.op] = true
			out = append(out, k.op)
		}
	}
	return out
}

var byFrame = func() map[[2]string]*kind {
	m := map[[2]string]*kind{}
	for i := range kinds {
		k := &kinds[i]
		key := [2]string{k.intent, k.op}
		if m[key] == nil { // uniqueness is checked by TestKindsUnique
			m[key] = k
		}
	}
	return m
}()
