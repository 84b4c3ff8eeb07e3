package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// PermissionAnswer says how the demo client answers permission requests.
type PermissionAnswer string

// The answers a Client can give.
const (
	AnswerAllow  PermissionAnswer = "allow"
	AnswerReject PermissionAnswer = "reject"
	// AnswerCancel sends session/cancel while the request is pending and
	// answers it "cancelled", as ACP asks of a client that cancels.
	AnswerCancel PermissionAnswer = "cancel"
)

// Client is the scripted demo client: it serves fs/* from Root, answers
// permission requests with Answer, and logs a readable account of the
// session to Log.
type Client struct {
	// Root is the directory fs/* requests may touch.
	Root string
	// Answer is how permission requests are answered; optional, defaults
	// to AnswerAllow.
	Answer PermissionAnswer
	// Log receives one line per event; optional. Lines are written as the
	// SDK delivers events, which is not always the order they arrived in.
	Log io.Writer
	// AwaitCommands makes Start return only once the session's commands
	// have been offered (available_commands_update), as a person sees the
	// command list before typing; optional.
	AwaitCommands bool

	conn *acp.ClientSideConnection
	sid  acp.SessionId

	mu       sync.Mutex // guards updates, chunks, commands
	updates  []acp.SessionUpdate
	chunks   strings.Builder
	commands chan struct{} // closed at the first available_commands_update
}

// Connect starts the client's side of the connection on the given streams:
// it writes requests to w and reads the agent's messages from r.
func (c *Client) Connect(w io.Writer, r io.Reader) {
	c.commands = make(chan struct{})
	c.conn = acp.NewClientSideConnection(c, w, r)
	c.conn.SetLogger(slog.New(slog.DiscardHandler))
}

// Done is closed when the connection ends.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }

// Conn is the underlying connection, for requests the script does not make.
func (c *Client) Conn() *acp.ClientSideConnection { return c.conn }

// Start initializes the connection and opens a session in Root.
func (c *Client) Start(ctx context.Context) (acp.InitializeResponse, error) {
	init, err := c.conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{
			Fs:       acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: false,
		},
		ClientInfo: &acp.Implementation{Name: "acp-bridge-demo-client", Version: "1.0.0"},
	})
	if err != nil {
		return init, fmt.Errorf("initialize: %w", err)
	}
	name := "(unnamed agent)"
	if init.AgentInfo != nil {
		name = init.AgentInfo.Name
	}
	c.logf("initialized: agent %s, protocol %d", name, init.ProtocolVersion)
	sess, err := c.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: c.Root, McpServers: []acp.McpServer{}})
	if err != nil {
		return init, fmt.Errorf("session/new: %w", err)
	}
	c.sid = sess.SessionId
	c.logf("session %s opened in %s", sess.SessionId, c.Root)
	if c.AwaitCommands {
		select {
		case <-c.commands:
		case <-ctx.Done():
			return init, fmt.Errorf("waiting for the session's commands: %w", ctx.Err())
		}
	}
	return init, nil
}

// Prompt sends one prompt and waits for the turn to end.
func (c *Client) Prompt(ctx context.Context, text string) (acp.StopReason, error) {
	c.logf("user: %s", text)
	resp, err := c.conn.Prompt(ctx, acp.PromptRequest{SessionId: c.sid, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
	c.flushChunks()
	if err != nil {
		c.logf("turn failed: %v", err)
		return "", err
	}
	c.logf("turn ended: %s", resp.StopReason)
	return resp.StopReason, nil
}

// Updates returns every session update received so far.
func (c *Client) Updates() []acp.SessionUpdate {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]acp.SessionUpdate(nil), c.updates...)
}

func (c *Client) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}

func (c *Client) flushChunks() {
	c.mu.Lock()
	text := c.chunks.String()
	c.chunks.Reset()
	c.mu.Unlock()
	if text != "" {
		c.logf("agent: %s", text)
	}
}

// SessionUpdate implements acp.Client.
func (c *Client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n.Update)
	u := n.Update
	if u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil {
		if c.chunks.Len() > 0 {
			c.chunks.WriteByte(' ')
		}
		c.chunks.WriteString(u.AgentMessageChunk.Content.Text.Text)
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	c.flushChunks()
	switch {
	case u.ToolCall != nil:
		c.logf("tool call %s: %s (%s, %s)", u.ToolCall.ToolCallId, u.ToolCall.Title, u.ToolCall.Kind, u.ToolCall.Status)
	case u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil:
		c.logf("tool call %s: %s", u.ToolCallUpdate.ToolCallId, *u.ToolCallUpdate.Status)
	case u.UsageUpdate != nil:
		c.logf("context: %d of %d tokens used", u.UsageUpdate.Used, u.UsageUpdate.Size)
	case u.AvailableCommandsUpdate != nil:
		c.mu.Lock()
		select {
		case <-c.commands:
		default:
			close(c.commands)
		}
		c.mu.Unlock()
		var names []string
		for _, cmd := range u.AvailableCommandsUpdate.AvailableCommands {
			names = append(names, "/"+cmd.Name)
		}
		c.logf("commands available: %s", strings.Join(names, " "))
	}
	return nil
}

// RequestPermission implements acp.Client.
func (c *Client) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	title := ""
	if p.ToolCall.Title != nil {
		title = *p.ToolCall.Title
	}
	answer := c.Answer
	if answer == "" {
		answer = AnswerAllow
	}
	c.flushChunks()
	c.logf("permission asked: %s -> %s", title, answer)
	want := acp.PermissionOptionKindAllowOnce
	switch answer {
	case AnswerCancel:
		if err := c.conn.Cancel(ctx, acp.CancelNotification{SessionId: p.SessionId}); err != nil {
			return acp.RequestPermissionResponse{}, err
		}
		return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{}}}, nil
	case AnswerReject:
		want = acp.PermissionOptionKindRejectOnce
	}
	for _, o := range p.Options {
		if o.Kind == want {
			return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{
				Selected: &acp.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}, nil
		}
	}
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{}}}, nil
}

// path resolves p inside Root, refusing anything outside it.
func (c *Client) path(p string) (string, error) {
	abs := filepath.Clean(p)
	root := filepath.Clean(c.Root)
	if abs != root && !strings.HasPrefix(abs, root+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the workspace", p)
	}
	return abs, nil
}

// ReadTextFile implements acp.Client.
func (c *Client) ReadTextFile(_ context.Context, p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	path, err := c.path(p.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	content := string(b)
	if p.Line != nil || p.Limit != nil {
		lines := strings.SplitAfter(content, "\n")
		start := 0
		if p.Line != nil && *p.Line > 0 {
			start = min(*p.Line-1, len(lines))
		}
		end := len(lines)
		if p.Limit != nil {
			end = min(start+*p.Limit, len(lines))
		}
		content = strings.Join(lines[start:end], "")
	}
	c.logf("served fs/read_text_file %s (%d bytes)", filepath.Base(path), len(content))
	return acp.ReadTextFileResponse{Content: content}, nil
}

// WriteTextFile implements acp.Client.
func (c *Client) WriteTextFile(_ context.Context, p acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	path, err := c.path(p.Path)
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	if err := os.WriteFile(path, []byte(p.Content), 0o644); err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	c.logf("served fs/write_text_file %s (%d bytes)", filepath.Base(path), len(p.Content))
	return acp.WriteTextFileResponse{}, nil
}

var errNoTerminal = errors.New("the demo client has no terminal")

// CreateTerminal implements acp.Client; the demo client has no terminal.
func (c *Client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNoTerminal
}

// KillTerminal implements acp.Client.
func (c *Client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNoTerminal
}

// TerminalOutput implements acp.Client.
func (c *Client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNoTerminal
}

// ReleaseTerminal implements acp.Client.
func (c *Client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNoTerminal
}

// WaitForTerminalExit implements acp.Client.
func (c *Client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNoTerminal
}
