package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// composeLogEnv names the file the compose agent appends every line it
// reads to, as it read it, so a test can check what reached the agent.
const composeLogEnv = "COMPOSE_AGENT_LOG"

// composeAgent is the scripted agent of TestFeaturesCompose. It speaks ACP
// on stdin/stdout with one JSON-RPC message a line:
//
//   - initialize: protocol 1, loadSession and every prompt capability;
//   - session/new: a fresh id, "agent-1", "agent-2", ..., keeping the cwd;
//   - session/load: replays a user and an agent message chunk in the
//     session named, then answers;
//   - session/prompt "read ...": reads notes.txt and .env under the
//     session's cwd through the client (fs/read_text_file), reports both
//     outcomes in an agent message chunk and ends the turn;
//   - session/prompt "hang": says "working" and waits for session/cancel,
//     then ends the turn as cancelled.
//
// Every line it reads is appended to $COMPOSE_AGENT_LOG first.
func composeAgent() {
	log := agentSideLog("compose agent", composeLogEnv)
	a := &scriptedAgent{out: bufio.NewWriter(os.Stdout), cwd: map[string]string{},
		waiting: map[string]chan json.RawMessage{}, cancels: map[string]chan struct{}{}}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return
		}
		if _, err := log.Write(line); err != nil {
			fmt.Fprintln(os.Stderr, "compose agent:", err)
			os.Exit(2)
		}
		a.handle(line)
	}
}

// scriptedAgent is composeAgent's state.
type scriptedAgent struct {
	mu      sync.Mutex // guards out, nextID, nextSID, cwd, waiting, cancels
	out     *bufio.Writer
	nextID  int                             // of the agent's requests
	nextSID int                             // of its sessions
	cwd     map[string]string               // by session id
	waiting map[string]chan json.RawMessage // requests sent, by id
	cancels map[string]chan struct{}        // turns that wait for session/cancel, by session id
}

// agentMessage is what the agent reads of a message.
type agentMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
		Cwd       string `json:"cwd"`
		Prompt    []struct {
			Text string `json:"text"`
		} `json:"prompt"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (a *scriptedAgent) send(v any) {
	b, _ := json.Marshal(v)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.out.Write(b)
	a.out.WriteByte('\n')
	a.out.Flush()
}

func (a *scriptedAgent) respond(id json.RawMessage, result any) {
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (a *scriptedAgent) say(sid, sessionUpdate, text string) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": sid,
		"update": map[string]any{"sessionUpdate": sessionUpdate, "content": map[string]any{"type": "text", "text": text}}}})
}

func (a *scriptedAgent) handle(line []byte) {
	var m agentMessage
	if json.Unmarshal(line, &m) != nil {
		return
	}
	p := m.Params
	switch m.Method {
	case "initialize":
		a.respond(m.ID, map[string]any{"protocolVersion": 1,
			"agentCapabilities": map[string]any{"loadSession": true, "promptCapabilities": map[string]any{"image": true, "audio": true, "embeddedContext": true}},
			"agentInfo":         map[string]any{"name": "compose-agent", "version": "1.0.0"}})
	case "session/new":
		a.mu.Lock()
		a.nextSID++
		sid := "agent-" + strconv.Itoa(a.nextSID)
		a.cwd[sid] = p.Cwd
		a.mu.Unlock()
		a.respond(m.ID, map[string]any{"sessionId": sid})
	case "session/load":
		a.mu.Lock()
		a.cwd[p.SessionID] = p.Cwd
		a.mu.Unlock()
		a.say(p.SessionID, "user_message_chunk", "replayed: the user's request")
		a.say(p.SessionID, "agent_message_chunk", "replayed: the agent's answer")
		a.respond(m.ID, map[string]any{})
	case "session/cancel":
		a.mu.Lock()
		if c := a.cancels[p.SessionID]; c != nil {
			close(c)
			delete(a.cancels, p.SessionID)
		}
		a.mu.Unlock()
	case "session/prompt":
		var text strings.Builder
		for _, b := range p.Prompt {
			text.WriteString(b.Text)
		}
		go a.turn(m.ID, p.SessionID, text.String())
	case "":
		a.mu.Lock()
		c := a.waiting[string(m.ID)]
		delete(a.waiting, string(m.ID))
		a.mu.Unlock()
		if c != nil {
			c <- line
		}
	}
}

// turn plays one prompt turn. The prompt's last word-led line decides the
// script: a rollover puts the bridge's summary before the user's text.
func (a *scriptedAgent) turn(id json.RawMessage, sid, text string) {
	switch {
	case strings.Contains(text, "hang"):
		c := make(chan struct{})
		a.mu.Lock()
		a.cancels[sid] = c
		a.mu.Unlock()
		a.say(sid, "agent_message_chunk", "working")
		<-c
		a.respond(id, map[string]any{"stopReason": "cancelled"})
	case strings.Contains(text, "read"):
		a.mu.Lock()
		cwd := a.cwd[sid]
		a.mu.Unlock()
		// A turn's worth of prose, so that a checkpoint has something
		// to summarise.
		var prose strings.Builder
		for i := range 60 {
			fmt.Fprintf(&prose, "Step %d of the plan: look at module %d, compare it with the release checklist and note what differs. ", i, i*7%13)
		}
		a.say(sid, "agent_message_chunk", prose.String())
		notes := a.read(sid, filepath.Join(cwd, "notes.txt"))
		env := a.read(sid, filepath.Join(cwd, ".env"))
		a.say(sid, "agent_message_chunk", "notes.txt: "+notes+"; .env: "+env)
		a.respond(id, map[string]any{"stopReason": "end_turn"})
	default:
		a.respond(id, map[string]any{"stopReason": "end_turn"})
	}
}

// read asks the client for path and returns "ok <content>" or "error
// <message>".
func (a *scriptedAgent) read(sid, path string) string {
	c := make(chan json.RawMessage, 1)
	a.mu.Lock()
	a.nextID++
	id := `"read-` + strconv.Itoa(a.nextID) + `"`
	a.waiting[id] = c
	a.mu.Unlock()
	a.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "fs/read_text_file",
		"params": map[string]any{"sessionId": sid, "path": path}})
	var r struct {
		Result struct {
			Content string `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(<-c, &r); err != nil {
		return "error " + err.Error()
	}
	if r.Error != nil {
		return "error " + r.Error.Message
	}
	return "ok " + r.Result.Content
}
