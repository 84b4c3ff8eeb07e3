// Package demo holds a scripted ACP agent and a scripted ACP client, built on
// the acp-go-sdk's connection and types. They power "acp-bridge demo" (a
// whole session with no external software) and serve as real ACP peers in
// the bridge's tests.
//
// The agent's turn: it streams text, reads the workspace's .env if there is
// one (without a tool call: a read a policy should refuse), reads a large
// file through the client
// (fs/read_text_file), reports the read as a tool call, asks permission to
// edit a file, writes it through the client if allowed, and ends the turn.
// Prompts starting with a command word change the script, for tests:
//
//	flood N   send N session/update notifications, then end the turn
//	crash     stream a little text, then exit with status 3 mid-turn
//	hang      stream a little text, then wait until cancelled
//	echo      stream the prompt text back
package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// Agent is the scripted demo agent.
type Agent struct {
	// Pace is a pause between streamed updates, to make the demo readable;
	// optional, zero means none.
	Pace time.Duration
	// Exit is called by the "crash" script; optional, defaults to os.Exit.
	Exit func(code int)

	conn *acp.Connection

	mu       sync.Mutex // guards sessions
	sessions map[string]*agentSession
	nextID   int
}

type agentSession struct {
	cwd    string
	cancel context.CancelFunc
}

// Serve runs the agent on the given streams until the peer disconnects.
func (a *Agent) Serve(in io.Reader, out io.Writer) {
	a.sessions = map[string]*agentSession{}
	a.conn = acp.NewConnection(a.handle, out, in)
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	<-a.conn.Done()
}

func (a *Agent) handle(ctx context.Context, method string, params json.RawMessage) (any, *acp.RequestError) {
	switch method {
	case acp.AgentMethodInitialize:
		return acp.InitializeResponse{
			ProtocolVersion: acp.ProtocolVersionNumber,
			AgentCapabilities: acp.AgentCapabilities{
				LoadSession:        false,
				PromptCapabilities: acp.PromptCapabilities{EmbeddedContext: true},
			},
			AgentInfo: &acp.Implementation{Name: "acp-bridge-demo", Version: "1.0.0"},
		}, nil
	case acp.AgentMethodAuthenticate:
		return acp.AuthenticateResponse{}, nil
	case acp.AgentMethodSessionNew:
		var p acp.NewSessionRequest
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, acp.NewInvalidParams(err.Error())
		}
		a.mu.Lock()
		a.nextID++
		id := "demo-session-" + strconv.Itoa(a.nextID)
		a.sessions[id] = &agentSession{cwd: p.Cwd}
		a.mu.Unlock()
		return acp.NewSessionResponse{SessionId: acp.SessionId(id)}, nil
	case acp.AgentMethodSessionCancel:
		var p acp.CancelNotification
		if err := json.Unmarshal(params, &p); err == nil {
			a.mu.Lock()
			if s := a.sessions[string(p.SessionId)]; s != nil && s.cancel != nil {
				s.cancel()
			}
			a.mu.Unlock()
		}
		return nil, nil
	case acp.AgentMethodSessionPrompt:
		var p acp.PromptRequest
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, acp.NewInvalidParams(err.Error())
		}
		return a.prompt(p)
	}
	if strings.HasPrefix(method, "_") {
		return map[string]any{"echo": method}, nil
	}
	return nil, acp.NewMethodNotFound(method)
}

func (a *Agent) prompt(p acp.PromptRequest) (any, *acp.RequestError) {
	sid := string(p.SessionId)
	a.mu.Lock()
	s := a.sessions[sid]
	if s == nil {
		a.mu.Unlock()
		return nil, acp.NewInvalidParams("unknown session " + sid)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	cwd := s.cwd
	a.mu.Unlock()
	defer cancel()

	text := promptText(p.Prompt)
	t := &turn{a: a, ctx: ctx, sid: p.SessionId}
	var err error
	switch word, arg, _ := strings.Cut(text, " "); word {
	case "flood":
		n, _ := strconv.Atoi(arg)
		err = t.flood(n)
	case "crash":
		t.say("Starting work...")
		exit := a.Exit
		if exit == nil {
			exit = os.Exit
		}
		exit(3)
	case "hang":
		t.say("Working on it...")
		<-ctx.Done()
		err = ctx.Err()
	case "echo":
		t.say(arg)
	default:
		err = t.script(cwd)
	}
	if ctx.Err() != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	if err != nil {
		return nil, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

func promptText(blocks []acp.ContentBlock) string {
	var b strings.Builder
	for _, c := range blocks {
		if c.Text != nil {
			b.WriteString(c.Text.Text)
		}
	}
	return strings.TrimSpace(b.String())
}

// turn is one prompt turn in progress.
type turn struct {
	a   *Agent
	ctx context.Context
	sid acp.SessionId
	err error
}

func (t *turn) update(u acp.SessionUpdate) {
	if t.err != nil {
		return
	}
	t.err = t.a.conn.SendNotification(t.ctx, acp.ClientMethodSessionUpdate, acp.SessionNotification{SessionId: t.sid, Update: u})
	if t.a.Pace > 0 {
		select {
		case <-time.After(t.a.Pace):
		case <-t.ctx.Done():
		}
	}
}

func (t *turn) say(text string) { t.update(acp.UpdateAgentMessageText(text)) }

func (t *turn) flood(n int) error {
	pad := strings.Repeat("x", 64)
	for i := 0; i < n && t.err == nil; i++ {
		t.say(fmt.Sprintf("chunk %d %s", i, pad))
	}
	return t.err
}

// script is the demo turn: read the workspace's .env if it has one (what a
// policy should refuse), read a large file, ask to edit, write, finish.
func (t *turn) script(cwd string) error {
	t.say("I'll look at the project first.")
	if _, err := os.Stat(cwd + "/.env"); err == nil {
		// Read quietly, without a tool call, as agents do that read files
		// through the client for their own purposes.
		_, err := acp.SendRequest[acp.ReadTextFileResponse](t.a.conn, t.ctx, acp.ClientMethodFsReadTextFile,
			acp.ReadTextFileRequest{SessionId: t.sid, Path: cwd + "/.env"})
		if err != nil {
			t.say("I could not read .env, so I'll do without it.")
		}
	}
	if content, ok := t.read("call_read", cwd+"/big.log", "big.log"); ok {
		t.say(fmt.Sprintf("big.log has %d lines (%d bytes).", strings.Count(content, "\n"), len(content)))
	}
	if t.err != nil {
		return t.err
	}

	editPath := cwd + "/notes.txt"
	newText := "Reviewed big.log.\n"
	t.update(acp.StartToolCall("call_edit", "Write notes.txt",
		acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: editPath}}),
		acp.WithStartRawInput(map[string]any{"path": editPath, "content": newText})))
	if t.err != nil {
		return t.err
	}
	perm, err := acp.SendRequest[acp.RequestPermissionResponse](t.a.conn, t.ctx, acp.ClientMethodSessionRequestPermission,
		acp.RequestPermissionRequest{
			SessionId: t.sid,
			ToolCall: acp.ToolCallUpdate{ToolCallId: "call_edit", Title: acp.Ptr("Write notes.txt"),
				Kind: acp.Ptr(acp.ToolKindEdit), RawInput: map[string]any{"path": editPath, "content": newText}},
			Options: []acp.PermissionOption{
				{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow", OptionId: "allow"},
				{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
			},
		})
	switch {
	case err != nil:
		return err
	case perm.Outcome.Cancelled != nil:
		t.update(acp.UpdateToolCall("call_edit", acp.WithUpdateStatus(acp.ToolCallStatusFailed)))
		return t.err
	case perm.Outcome.Selected != nil && perm.Outcome.Selected.OptionId == "allow":
		_, err := acp.SendRequest[acp.WriteTextFileResponse](t.a.conn, t.ctx, acp.ClientMethodFsWriteTextFile,
			acp.WriteTextFileRequest{SessionId: t.sid, Path: editPath, Content: newText})
		if err != nil {
			t.update(acp.UpdateToolCall("call_edit", acp.WithUpdateStatus(acp.ToolCallStatusFailed),
				acp.WithUpdateRawOutput(map[string]any{"error": err.Error()})))
			t.say("Writing notes.txt failed: " + err.Error())
			return t.err
		}
		t.update(acp.UpdateToolCall("call_edit", acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolDiffContent(editPath, newText)})))
		t.say("Done: notes.txt written.")
	default:
		t.update(acp.UpdateToolCall("call_edit", acp.WithUpdateStatus(acp.ToolCallStatusFailed)))
		t.say("Understood, I left notes.txt alone.")
	}
	return t.err
}

// read reads path through the client (fs/read_text_file), reported as the
// tool call id named "Read name"; ok is false if the client refused.
func (t *turn) read(id acp.ToolCallId, path, name string) (content string, ok bool) {
	t.update(acp.StartToolCall(id, "Read "+name,
		acp.WithStartKind(acp.ToolKindRead), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: path}}),
		acp.WithStartRawInput(map[string]any{"path": path})))
	if t.err != nil {
		return "", false
	}
	read, err := acp.SendRequest[acp.ReadTextFileResponse](t.a.conn, t.ctx, acp.ClientMethodFsReadTextFile,
		acp.ReadTextFileRequest{SessionId: t.sid, Path: path})
	if err != nil {
		t.update(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusFailed),
			acp.WithUpdateRawOutput(map[string]any{"error": err.Error()})))
		t.say("I could not read " + name + ": " + err.Error())
		return "", false
	}
	t.update(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateRawOutput(map[string]any{"bytes": len(read.Content), "lines": strings.Count(read.Content, "\n")})))
	return read.Content, true
}
