package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// ToolCall is a tool call an agent reports from inside itself, through a
// hook, before it runs the tool.
type ToolCall struct {
	// Agent is the adapter that received it ("claude").
	Agent string
	// Tool is the agent's real tool name ("Read", "Bash").
	Tool string
	// Input is the tool's input exactly as the agent reported it.
	Input json.RawMessage
	// Cwd is the agent's working directory.
	Cwd string
	// SessionID is the agent's session id; for claude-agent-acp it is the
	// ACP session id.
	SessionID string
	// ToolUseID is the agent's id for the call.
	ToolUseID string
	// Mode is the agent's permission mode as the hook payload gives it
	// (Claude Code's permission_mode: "default", "acceptEdits",
	// "bypassPermissions", ...); empty when the payload gives none.
	Mode string
}

// Verdict is what the bridge tells the agent about one tool call.
type Verdict string

// Verdicts. NoOpinion leaves the call to the agent's own permission flow
// (which the wire-level enforcement sees when it asks the client).
const (
	Allow     Verdict = "allow"
	Deny      Verdict = "deny"
	Ask       Verdict = "ask"
	NoOpinion Verdict = ""
)

// Decision is the bridge's answer to a ToolCall.
type Decision struct {
	Verdict Verdict
	// Reason is shown to the model on deny and to the user on ask.
	Reason string
	// UpdatedInput, when set, replaces the tool's input.
	UpdatedInput json.RawMessage
	// Context is extra text for the model about this call.
	Context string
	// Rule, PolicyRef and PolicyDecision say which policy rule decided and
	// what it decided (allow, deny, require-approval, escalate), for the
	// audit record; optional.
	Rule, PolicyRef, PolicyDecision string
}

// Decider decides tool calls reported by agents' hooks. Implementations are
// safe for concurrent use; a returned error makes the hook deny.
type Decider interface {
	DecideTool(ctx context.Context, c ToolCall) (Decision, error)
}

// DeciderFunc adapts a function to Decider.
type DeciderFunc func(ctx context.Context, c ToolCall) (Decision, error)

// DecideTool calls f(ctx, c).
func (f DeciderFunc) DecideTool(ctx context.Context, c ToolCall) (Decision, error) { return f(ctx, c) }

// HookRequest is what the hook client sends the bridge: one JSON line.
type HookRequest struct {
	// Agent names the agent whose hook this is ("claude").
	Agent string `json:"agent"`
	// Event is the agent's hook payload exactly as the hook received it.
	Event json.RawMessage `json:"event"`
}

// HookResponse is the bridge's answer: one JSON line.
type HookResponse struct {
	// Decision is the verdict; empty is no opinion.
	Decision Verdict `json:"decision"`
	// Reason explains it (to the model on deny, to the user on ask).
	Reason string `json:"reason,omitempty"`
	// UpdatedInput, when set, is a JSON object that replaces the tool's
	// input.
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	// Context is extra text for the model.
	Context string `json:"context,omitempty"`
}

// maxHookMessage bounds one hook request (a Write's content travels in it).
const maxHookMessage = 64 << 20

// hookReadTimeout bounds how long a hook connection may take to send its
// request.
const hookReadTimeout = 30 * time.Second

// HookServer answers hook clients on a Unix socket that only the bridge's
// user can reach: the socket is created 0600 inside a fresh 0700 directory.
type HookServer struct {
	dir, path string
	ln        net.Listener
	decider   Decider
	logger    *slog.Logger
	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// ListenHook creates the private socket and starts answering with d.
func ListenHook(d Decider, logger *slog.Logger) (*HookServer, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	base := ""
	// A Unix socket path must fit in 108 bytes; a long TMPDIR would not.
	if len(os.TempDir()) > 60 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "acp-bridge-hook-")
	if err != nil {
		return nil, fmt.Errorf("creating the hook socket directory: %v", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("securing the hook socket directory: %v", err)
	}
	path := filepath.Join(dir, "hook.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("listening on the hook socket: %v", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("securing the hook socket: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &HookServer{dir: dir, path: path, ln: ln, decider: d, logger: logger, ctx: ctx, cancel: cancel}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// SocketPath is the socket's path.
func (s *HookServer) SocketPath() string { return s.path }

// Close stops accepting, cancels decisions in flight, waits for them and
// removes the socket directory.
func (s *HookServer) Close() error {
	var err error
	s.closeOnce.Do(func() {
		err = s.ln.Close()
		s.cancel()
		s.wg.Wait()
		if rerr := os.RemoveAll(s.dir); err == nil {
			err = rerr
		}
	})
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

func (s *HookServer) accept() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				s.logger.Error("hook server: accept", "err", err)
			}
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serve(conn)
		}()
	}
}

// serve answers one hook request. Whatever goes wrong, the answer is a
// deny: a hook call the bridge cannot decide must not run.
func (s *HookServer) serve(conn net.Conn) {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(hookReadTimeout))
	line, err := bufio.NewReaderSize(io.LimitReader(conn, maxHookMessage+1), 64<<10).ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		s.logger.Warn("hook server: reading request", "err", err)
		return
	}
	resp := s.answer(line)
	b, _ := json.Marshal(resp)
	conn.SetWriteDeadline(time.Now().Add(hookReadTimeout))
	if _, err := conn.Write(append(b, '\n')); err != nil {
		s.logger.Warn("hook server: writing response", "err", err)
	}
}

// decodeStrict decodes raw into v with case-exact member names, refusing
// a duplicate name at any depth and invalid UTF-8: what the bridge judges
// is then what the agent's own reader (JavaScript's JSON.parse, which
// keeps the last duplicate) reads, or nothing.
func decodeStrict(raw []byte, v any) error { return jsonv2.Unmarshal(raw, v) }

func (s *HookServer) answer(line []byte) HookResponse {
	var req HookRequest
	if err := decodeStrict(line, &req); err != nil {
		return HookResponse{Decision: Deny, Reason: "acp-bridge: malformed hook request"}
	}
	call, event, err := parseHookEvent(req)
	if err != nil {
		s.logger.Warn("hook server: bad hook payload", "agent", req.Agent, "err", err)
		return HookResponse{Decision: Deny, Reason: "acp-bridge: " + err.Error()}
	}
	if event != "PreToolUse" {
		return HookResponse{}
	}
	d, err := s.decider.DecideTool(s.ctx, call)
	if err != nil {
		s.logger.Error("hook server: decision failed; denying", "tool", call.Tool, "err", err)
		return HookResponse{Decision: Deny, Reason: "acp-bridge: policy decision failed: " + err.Error()}
	}
	s.logger.Debug("hook decision", "agent", call.Agent, "tool", call.Tool, "decision", string(d.Verdict), "reason", d.Reason)
	return HookResponse{Decision: d.Verdict, Reason: d.Reason, UpdatedInput: d.UpdatedInput, Context: d.Context}
}

// claudeHookEvent is the part of a Claude Code hook payload the bridge reads.
type claudeHookEvent struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	// PermissionMode is optional in Claude Code's hook input.
	PermissionMode string `json:"permission_mode"`
}

// parseHookEvent reads a hook payload into a ToolCall and returns the hook
// event's name.
func parseHookEvent(req HookRequest) (ToolCall, string, error) {
	switch req.Agent {
	case Claude, "":
		var ev claudeHookEvent
		if err := decodeObject(bytes.TrimSpace(req.Event), &ev); err != nil {
			return ToolCall{}, "", fmt.Errorf("hook payload: %v", err)
		}
		if ev.HookEventName == "" {
			ev.HookEventName = "PreToolUse"
		}
		if ev.HookEventName == "PreToolUse" && ev.ToolName == "" {
			return ToolCall{}, "", errors.New("hook payload has no tool_name")
		}
		input := ev.ToolInput
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		return ToolCall{Agent: Claude, Tool: ev.ToolName, Input: input, Cwd: ev.Cwd, SessionID: ev.SessionID, ToolUseID: ev.ToolUseID,
			Mode: ev.PermissionMode}, ev.HookEventName, nil
	}
	return ToolCall{}, "", fmt.Errorf("unknown agent %q", req.Agent)
}

// AskHook sends req to the bridge listening on socket and returns its
// answer. Any failure is an error; the caller denies.
func AskHook(ctx context.Context, socket string, req HookRequest) (HookResponse, error) {
	if socket == "" {
		return HookResponse{}, errors.New("no bridge socket given")
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return HookResponse{}, fmt.Errorf("reaching the bridge: %v", err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	b, err := json.Marshal(req)
	if err != nil {
		return HookResponse{}, err
	}
	if _, err := conn.Write(append(b, '\n')); err != nil {
		return HookResponse{}, fmt.Errorf("sending to the bridge: %v", err)
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		return HookResponse{}, fmt.Errorf("reading the bridge's answer: %v", err)
	}
	var resp HookResponse
	if err := json.Unmarshal(line, &resp); err != nil {
		return HookResponse{}, fmt.Errorf("the bridge's answer: %v", err)
	}
	switch resp.Decision {
	case Allow, Deny, Ask, NoOpinion:
	default:
		return HookResponse{}, fmt.Errorf("the bridge answered an unknown decision %q", resp.Decision)
	}
	if u := bytes.TrimSpace(resp.UpdatedInput); len(u) > 0 && (u[0] != '{' || !json.Valid(u)) {
		return HookResponse{}, errors.New("the bridge answered an updated input that is not a JSON object")
	}
	return resp, nil
}

// ClaudeHookOutput returns what the hook prints on stdout for Claude Code's
// PreToolUse: {"hookSpecificOutput":{"hookEventName":"PreToolUse",
// "permissionDecision":..., "permissionDecisionReason":..., "updatedInput":...,
// "additionalContext":...}}. It returns nil when the bridge has nothing to
// say (Claude's own permission flow applies).
func ClaudeHookOutput(r HookResponse) []byte {
	if r.Decision == NoOpinion && len(r.UpdatedInput) == 0 && r.Context == "" {
		return nil
	}
	type specific struct {
		HookEventName            string          `json:"hookEventName"`
		PermissionDecision       Verdict         `json:"permissionDecision,omitempty"`
		PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
		UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
		AdditionalContext        string          `json:"additionalContext,omitempty"`
	}
	out := struct {
		HookSpecificOutput specific `json:"hookSpecificOutput"`
	}{specific{
		HookEventName:            "PreToolUse",
		PermissionDecision:       r.Decision,
		PermissionDecisionReason: r.Reason,
		UpdatedInput:             r.UpdatedInput,
		AdditionalContext:        r.Context,
	}}
	b, err := json.Marshal(out)
	if err != nil {
		// Never let an answer that cannot be written become no answer,
		// which Claude would take as no objection.
		b, _ = json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
			"permissionDecision": Deny, "permissionDecisionReason": "acp-bridge: the bridge's answer could not be encoded"}})
	}
	return b
}
