package governance

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// The agent uses only the terminals the IDE created for it, in the
// session it created them for: a terminal id comes from the IDE's
// response to a terminal/create that passed the bridge. terminal/output,
// wait_for_exit, kill and release naming any other id (another session's
// terminal, one the IDE made for itself, a guessed "term-1") are refused,
// and so is a tool call whose content shows such a terminal.

// terminalKey is the key of a terminal in Enforcer.terminals.
func terminalKey(sid, tid string) string { return sid + "\x00" + tid }

// onTerminalCreated records the terminal id of an IDE's response to a
// terminal/create for the session the request named.
func (x *Enforcer) onTerminalCreated(m *acpwire.Message) {
	if m.Request == nil {
		return
	}
	sid, _ := m.Request.GetString("params", "sessionId")
	tid, ok := m.GetString("result", "terminalId")
	if sid == "" || !ok || tid == "" {
		return
	}
	x.mu.Lock()
	if x.opened.has(sid) {
		x.rememberTerminalLocked(sid, tid)
	}
	x.mu.Unlock()
}

// knownTerminal reports whether the IDE created terminal tid for session
// sid through the bridge.
func (x *Enforcer) knownTerminal(sid, tid string) bool {
	if strings.IndexByte(tid, 0) >= 0 {
		return false // no IDE names a terminal so; its key could be another's
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.terminals[terminalKey(sid, tid)]
}

// checkTerminalUse refuses m, an agent's terminal/output, wait_for_exit,
// kill or release, unless it names a terminal the IDE created for its
// session; it records every such request, allowed or not (terminal/output
// hands the agent what the command printed).
func (x *Enforcer) checkTerminalUse(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	sid, _ := m.GetString("params", "sessionId")
	tid, ok := m.GetString("params", "terminalId")
	if ok && tid != "" && x.knownTerminal(sid, tid) {
		x.append(audit.Event{Actor: x.agent, Action: "terminal.use", Subject: audit.Subject{Kind: "terminal", Ref: tid},
			Input: map[string]any{"method": m.Method}, Metadata: map[string]any{"session": sid}})
		return next.Handle(ctx, m)
	}
	d := Decision{Value: Deny, Ref: "terminal-scope", Rule: "the agent uses only terminals the IDE created for it in the same session",
		Reason: fmt.Sprintf("a %s from the agent names terminal %q, which the IDE did not create for session %q through the bridge", m.Method, tid, sid)}
	x.refuseMessage(m, sid, d)
	if m.Kind == acpwire.KindRequest {
		return x.send.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidRequest, "acp-bridge: %s", d.Reason).WithData(denialData(d)))
	}
	return nil
}

// refuseMessage records a refused agent message.
func (x *Enforcer) refuseMessage(m *acpwire.Message, sid string, d Decision) {
	sum := sha256.Sum256(m.Raw)
	ev := audit.Event{Actor: x.agent, Action: "message.refused", Subject: audit.Subject{Kind: "message", Ref: m.Method},
		Input:  map[string]any{"method": m.Method, "kind": m.Kind.String(), "direction": m.Dir.String(), "size": len(m.Raw), "sha256": hex.EncodeToString(sum[:])},
		Policy: policyOf(d), Metadata: decisionMeta(d, sid, nil)}
	if err := x.record(ev); err != nil {
		x.log.Error("refusal could not be recorded; refusing anyway", "method", m.Method, "err", err)
	}
}

// foreignTerminal returns the first of terminals, the terminal ids a tool
// call's content shows, that the IDE did not create for session sid (nor
// show for it as a display terminal, enforce_displayterm.go), and whether
// there is one.
func (x *Enforcer) foreignTerminal(sid string, terminals []string) (string, bool) {
	for _, tid := range terminals {
		if !x.shownTerminal(sid, tid) {
			return tid, true
		}
	}
	return "", false
}

// bridgeCallPrefix starts the toolCallIds of the bridge's own permission
// requests; the agent's tool calls may not use it.
const bridgeCallPrefix = "acp-bridge-"

// approvalNonce is part of the toolCallId of each of the bridge's own
// permission requests, new for each run, so an agent cannot name the
// bridge's next ask before it is made (the acp-bridge- namespace is
// refused to the agent as well).
var approvalNonce = func() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	return hex.EncodeToString(b[:])
}()

// toolCallRefusal returns the decision refusing an agent's tool call (a
// tool_call, tool_call_update or permission request's toolCall) in session
// sid: one whose id is in the bridge's namespace, so the IDE could take it
// for (or take the bridge's ask for) the agent's call, or whose content
// shows a terminal (terminals, from readContent) the IDE did not create
// for the session. A session
// being loaded replays tool calls of earlier runs, so its terminals are
// not checked.
func (x *Enforcer) toolCallRefusal(sid, id string, terminals []string) (Decision, bool) {
	if strings.HasPrefix(strings.ToLower(id), bridgeCallPrefix) {
		return Decision{Value: Deny, Ref: "tool-call-id-reserved", Rule: "toolCallIds starting with acp-bridge- are the bridge's own",
			Reason: fmt.Sprintf("the agent's tool call %q uses the bridge's own toolCallId namespace", id)}, true
	}
	x.mu.Lock()
	s := x.sessions[sid]
	loading := s != nil && s.loading > 0
	x.mu.Unlock()
	if loading {
		return Decision{}, false
	}
	if tid, bad := x.foreignTerminal(sid, terminals); bad {
		return Decision{Value: Deny, Ref: "terminal-scope", Rule: "the agent uses only terminals the IDE created for it in the same session",
			Reason: fmt.Sprintf("the agent's tool call %q shows terminal %q, which the IDE did not create for session %q through the bridge", id, tid, sid)}, true
	}
	return Decision{}, false
}
