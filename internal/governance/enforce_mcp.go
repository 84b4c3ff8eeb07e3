package governance

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// MCP over ACP: the IDE may offer MCP servers of its own in session/new
// (and load, resume, fork), entries {"type":"acp","name":...,"serverId":...}
// of mcpServers, whose tools the agent calls by sending the IDE an
// mcp/message request {"serverId":...,"method":"tools/call","params":
// {"name":...,"arguments":...}}. The IDE runs such a tool for the agent
// without asking anyone (the TypeScript SDK routes the request to the
// server registered under serverId), so a call that reached it unjudged
// would escape the policy's mcp__server__tool rules and every path and
// command rule its arguments meet. Each tools/call the agent sends is
// therefore decided as the tool call mcp__<server name>__<tool> (Claude
// Code's name for an MCP tool) with the call's arguments as its input: a
// deny refuses it, a decision needing approval asks the person in the
// session that offered the server, and a serverId no session offered is
// refused. The agent's other MCP messages are judged as enforce_mcp_methods.go
// says.

// mcpServerDecl is an entry of a session request's mcpServers, as far as
// the bridge reads it: only ACP-transport servers (type "acp") carry a
// serverId the agent can reach through the IDE.
type mcpServerDecl struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	ServerID string `json:"serverId"`
}

// mcpServer is an MCP server the IDE offered over ACP, and the session
// whose request offered it.
type mcpServer struct {
	name, session string
}

// mcpMessageParams are the params of mcp/message.
type mcpMessageParams struct {
	ServerID string         `json:"serverId"`
	Method   string         `json:"method"`
	Params   jsontext.Value `json:"params"`
}

// mcpToolCallParams are the inner params of an MCP tools/call.
type mcpToolCallParams struct {
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

// offerMCPServersLocked remembers the ACP-transport MCP servers of decls as
// offered in session sid. x.mu held.
func (x *Enforcer) offerMCPServersLocked(sid string, decls []mcpServerDecl) {
	for _, d := range decls {
		if d.Type != "acp" || d.ServerID == "" {
			continue
		}
		if x.mcpServers == nil {
			x.mcpServers = map[string]mcpServer{}
		}
		x.mcpServers[d.ServerID] = mcpServer{name: d.Name, session: sid}
	}
}

// mcpToolName is Claude Code's name for tool of MCP server server:
// mcp__server__tool, each part with every character but ASCII letters,
// digits, _ and - replaced by _, as Claude Code names them.
func mcpToolName(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
				return r
			}
			return '_'
		}, s)
	}
	return "mcp__" + clean(server) + "__" + clean(tool)
}

// caseVariants returns an error when the JSON object obj has a member
// whose name differs from one of names only in case: the bridge reads
// names case-exactly, a Go peer (encoding/json) reads such a member as
// the name, the last one winning.
func caseVariants(obj []byte, names ...string) error {
	members, err := rawjson.Members(obj)
	if err != nil {
		return nil // not an object: the strict decoding refused it already
	}
	for _, mem := range members {
		for _, n := range names {
			if mem.Key != n && strings.EqualFold(mem.Key, n) {
				return fmt.Errorf("%w: member %q reads as %q to a peer matching names case-insensitively", errUnreadable, mem.Key, n)
			}
		}
	}
	return nil
}

// mcpOfferedRule is the built-in rule refusing a message to an MCP server
// no session offered.
const mcpOfferedRule = "the agent calls only MCP servers the IDE offered in a session (built-in)"

// mcpJudged is what the bridge makes of one judged MCP message: the
// decision, and how the audit log and the person see it.
type mcpJudged struct {
	d      Decision
	action string
	subj   audit.Subject
	what   string
	input  map[string]any
}

// onMCPMessage judges an agent's mcp/message to the IDE (request or
// notification): a tools/call is decided as the MCP tool it calls, a
// resource with a file:// URI as a read of that file, the MCP protocol's
// own messages pass, and any other method needs the person's approval.
func (x *Enforcer) onMCPMessage(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p mcpMessageParams
	if err := decodeStrict(m, &p); err != nil {
		return x.refuseUnreadable(m, err)
	}
	if err := caseVariants(m.Params, "serverId", "method", "params"); err != nil {
		return x.refuseUnreadable(m, err)
	}
	if mcpPlainMethods[p.Method] {
		return next.Handle(ctx, m)
	}
	x.mu.Lock()
	srv, offered := x.mcpServers[p.ServerID]
	x.mu.Unlock()
	var j mcpJudged
	switch {
	case p.Method == "tools/call":
		var call mcpToolCallParams
		if err := unmarshalStrict(p.Params, &call); err != nil || len(p.Params) == 0 {
			return x.refuseUnreadable(m, fmt.Errorf("%w: a tools/call whose params are not an object naming the tool: %v", errUnreadable, err))
		}
		if err := caseVariants(p.Params, "name", "arguments"); err != nil {
			return x.refuseUnreadable(m, err)
		}
		if call.Name == "" {
			return x.refuseUnreadable(m, fmt.Errorf("%w: a tools/call names no tool", errUnreadable))
		}
		j = x.judgeMCPToolCall(srv, offered, p.ServerID, call)
	case mcpResourceMethods[p.Method]:
		var res mcpResourceParams
		if err := unmarshalStrict(p.Params, &res); err != nil || len(p.Params) == 0 {
			return x.refuseUnreadable(m, fmt.Errorf("%w: a %s whose params are not an object naming the resource: %v", errUnreadable, p.Method, err))
		}
		if err := caseVariants(p.Params, "uri"); err != nil {
			return x.refuseUnreadable(m, err)
		}
		j = x.judgeMCPResource(srv, p.ServerID, p.Method, res.URI)
	default:
		j = mcpJudged{d: mcpNeedsApproval(p.Method, srv.name), action: ActionToolCall,
			subj:  audit.Subject{Kind: "mcp", Ref: srv.name + " " + p.Method},
			what:  fmt.Sprintf("the MCP request %q the agent sent to the IDE's server %q", p.Method, srv.name),
			input: map[string]any{"serverId": p.ServerID, "method": p.Method}}
		if len(p.Params) > 0 {
			j.input["params"] = p.Params
		}
	}
	if !offered && p.Method != "tools/call" {
		j.d = Decision{Value: Deny, Ref: "mcp-server", Rule: mcpOfferedRule,
			Reason: fmt.Sprintf("the agent sent %q to MCP server %q, which no session the IDE opened offered", p.Method, p.ServerID)}
	}
	return x.enforceMCP(ctx, m, next, srv.session, j)
}

// judgeMCPToolCall decides a tools/call as the tool call
// mcp__<server name>__<tool> with the call's arguments as its input.
func (x *Enforcer) judgeMCPToolCall(srv mcpServer, offered bool, serverID string, call mcpToolCallParams) mcpJudged {
	tool := mcpToolName(srv.name, call.Name)
	if !offered {
		tool = mcpToolName(serverID, call.Name)
	}
	j := mcpJudged{action: ActionToolCall, subj: audit.Subject{Kind: "tool", Ref: tool},
		what:  fmt.Sprintf("the MCP tool %s the agent called through the IDE", tool),
		input: map[string]any{"serverId": serverID, "tool": call.Name}}
	if len(call.Arguments) > 0 {
		j.input["arguments"] = call.Arguments
	}
	if !offered {
		j.d = Decision{Value: Deny, Ref: "mcp-server", Rule: mcpOfferedRule,
			Reason: fmt.Sprintf("the agent called tool %q of MCP server %q, which no session the IDE opened offered", call.Name, serverID)}
	} else {
		cwd, roots := x.sessionContext(srv.session)
		req := ToolCallRequest(ToolCall{Kind: "other", Title: tool, Tool: tool, RawInput: []byte(call.Arguments)}, cwd)
		req.Roots, req.Session = roots, srv.session
		files, err := mcpArgumentFiles(call.Arguments)
		req.Paths = appendNew(req.Paths, files...)
		j.d = x.decide(req)
		if err != nil {
			j.d = Decision{Value: Deny, Ref: "mcp-resource", Rule: mcpFileURIRule, Reason: err.Error()}
		}
	}
	return j
}

// judgeMCPResource decides a resources/read, subscribe or unsubscribe: a
// file:// URI as a read of every path it may name (the strictest decision
// wins), a file URI that cannot be placed is refused, and any other URI
// needs the person's approval.
func (x *Enforcer) judgeMCPResource(srv mcpServer, serverID, method, uri string) mcpJudged {
	j := mcpJudged{action: ActionFSRead, subj: audit.Subject{Kind: "file", Ref: uri},
		what:  fmt.Sprintf("reading %s through the IDE's MCP server %q", uri, srv.name),
		input: map[string]any{"serverId": serverID, "method": method, "uri": uri}}
	paths, isFile, err := mcpFilePaths(uri)
	switch {
	case err != nil:
		j.d = Decision{Value: Deny, Ref: "mcp-resource", Rule: mcpFileURIRule, Reason: err.Error()}
	case !isFile:
		j.action, j.subj.Kind = ActionToolCall, "mcp"
		j.d = mcpNeedsApproval(method, srv.name)
		j.d.Reason = fmt.Sprintf("the agent asked the IDE's MCP server %q for the resource %q, which the policy cannot place", srv.name, uri)
	default:
		cwd, roots := x.sessionContext(srv.session)
		j.subj.Path = paths[0]
		j.d = x.decide(Request{Action: ActionFSRead, Cwd: cwd, Roots: roots, Session: srv.session, Paths: paths})
	}
	return j
}

// enforceMCP records the decision j on m and carries it out: the message
// passes when allowed or approved, and is refused (a request answered
// -32600, a notification dropped) otherwise, the person told why.
func (x *Enforcer) enforceMCP(ctx context.Context, m *acpwire.Message, next acpwire.Handler, session string, j mcpJudged) error {
	d, what, subj := j.d, j.what, j.subj
	ev := audit.Event{Actor: x.agent, Action: j.action, Subject: subj, Input: j.input, Policy: policyOf(d),
		Metadata: decisionMeta(d, session, map[string]any{"method": m.Method})}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	if d.Value.NeedsApproval() && m.Kind == acpwire.KindRequest {
		return x.passIfApproved(ctx, m, next, approvalAsk{session: session, action: j.action, what: what, d: d, input: j.input, subj: subj})
	}
	if d.Value == Allow {
		return next.Handle(ctx, m)
	}
	// A deny, or a notification (no answer to wait for) needing approval.
	if session != "" {
		x.tell(session, fmt.Sprintf("acp-bridge blocked %s: %s (rule: %s).", what, d.Reason, d.Rule))
	}
	if m.Kind != acpwire.KindRequest {
		return nil
	}
	return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge policy: %s", d.Reason).WithData(denialData(d)))
}
