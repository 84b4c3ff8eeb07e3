package governance

import (
	"context"
	"errors"
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
// refused. The agent's other MCP messages (initialize, tools/list, ...) pass.

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

// onMCPMessage judges an agent's mcp/message to the IDE (request or
// notification): a tools/call is decided as the MCP tool it calls.
func (x *Enforcer) onMCPMessage(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var p mcpMessageParams
	if err := decodeStrict(m, &p); err != nil {
		return x.refuseUnreadable(m, err)
	}
	if err := caseVariants(m.Params, "serverId", "method", "params"); err != nil {
		return x.refuseUnreadable(m, err)
	}
	if p.Method != "tools/call" {
		return next.Handle(ctx, m)
	}
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
	x.mu.Lock()
	srv, offered := x.mcpServers[p.ServerID]
	x.mu.Unlock()
	tool := mcpToolName(srv.name, call.Name)
	input := map[string]any{"serverId": p.ServerID, "tool": call.Name}
	if len(call.Arguments) > 0 {
		input["arguments"] = call.Arguments
	}
	var d Decision
	if !offered {
		tool = mcpToolName(p.ServerID, call.Name)
		d = Decision{Value: Deny, Ref: "mcp-server", Rule: "the agent calls only MCP servers the IDE offered in a session (built-in)",
			Reason: fmt.Sprintf("the agent called tool %q of MCP server %q, which no session the IDE opened offered", call.Name, p.ServerID)}
	} else {
		cwd, roots := x.sessionContext(srv.session)
		if len(roots) == 0 {
			roots = x.Roots(srv.session)
		}
		req := ToolCallRequest(ToolCall{Kind: "other", Title: tool, Tool: tool, RawInput: []byte(call.Arguments)}, cwd)
		req.Roots, req.Session = roots, srv.session
		d = x.decide(req)
	}
	what := fmt.Sprintf("the MCP tool %s the agent called through the IDE", tool)
	subj := audit.Subject{Kind: "tool", Ref: tool}
	ev := audit.Event{Actor: x.agent, Action: "tool.call", Subject: subj, Input: input, Policy: policyOf(d),
		Metadata: decisionMeta(d, srv.session, map[string]any{"method": m.Method})}
	if err := x.record(ev); err != nil {
		d = auditDenied(err)
	}
	if d.Value.NeedsApproval() && m.Kind == acpwire.KindRequest {
		ok, who, err := x.ask(ctx, m, srv.session, ActionToolCall, what, d, input)
		ans := map[string]any{"approved": ok, "approver": who}
		if err != nil {
			ans["error"] = err.Error()
		}
		if rerr := x.record(audit.Event{Actor: actorUser, Action: "approval.recorded", Subject: subj, Output: ans,
			Policy: policyOf(d), Metadata: decisionMeta(d, srv.session, map[string]any{"stage": ActionToolCall})}); rerr != nil {
			ok = false
		}
		if ok {
			return next.Handle(ctx, m)
		}
		if errors.Is(err, errRequestCancelled) {
			return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeRequestCancelled, "acp-bridge: %s: %v", what, err))
		}
		reason := "the person did not approve it"
		if err != nil {
			reason = fmt.Sprintf("approval could not be asked: %v", err)
		}
		d = Decision{Value: Deny, Ref: d.Ref, Rule: d.Rule, Reason: what + ": " + reason}
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	if d.Value == Allow {
		return next.Handle(ctx, m)
	}
	// A deny, or a notification (no answer to wait for) needing approval.
	if srv.session != "" {
		x.tell(srv.session, fmt.Sprintf("acp-bridge blocked %s: %s (rule: %s).", what, d.Reason, d.Rule))
	}
	if m.Kind != acpwire.KindRequest {
		return nil
	}
	return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge policy: %s", d.Reason).WithData(denialData(d)))
}
