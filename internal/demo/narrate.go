package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"golang.org/x/text/language"
	textmessage "golang.org/x/text/message"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// Entry is one line of a bridge recording (acp-bridge --record): a message
// the bridge wrote to a peer, or, with Bridge set, a message a peer sent
// that the bridge did not pass on with its own bytes ("answered",
// "replaced", "dropped", "consumed", "refused").
type Entry struct {
	TS     string          `json:"ts"`
	Dir    string          `json:"dir"`
	Msg    json.RawMessage `json:"msg"`
	Bridge string          `json:"bridge,omitempty"`
}

// The directions of a recording.
const (
	toAgent  = "client_to_agent"
	toClient = "agent_to_client"
)

// ReadTranscript parses a recording, one Entry per line.
func ReadTranscript(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("recording line %d: %v", n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// message is the part of a JSON-RPC message the narration reads.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (m *message) isRequest() bool  { return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" }
func (m *message) isResponse() bool { return m.Method == "" }

// bridgeIDPrefix starts the ids of the requests the bridge makes itself.
const bridgeIDPrefix = `"acp-bridge-`

// Narrate writes a readable account of a recorded session, one line per
// event, in the order the bridge handled them: what each peer sent, and what
// the bridge did instead of forwarding (refused, replaced, dropped, or asked
// itself). Paths under root are shown relative to it.
//
// A recording lists what the bridge held back after what it sent in its
// place; Narrate tells both at the place of the replacement, so the account
// reads in wire order.
func Narrate(w io.Writer, entries []Entry, root string) error {
	n := &narration{w: w, root: strings.TrimSuffix(root, "/"), reqs: map[string]message{}}
	msgs := make([]message, len(entries))
	for i, e := range entries {
		// Read strictly (case-exact names, no duplicates, valid UTF-8): a
		// message the peers could read differently is told as unreadable
		// rather than as one reading of it.
		if err := jsonv2.Unmarshal(e.Msg, &msgs[i]); err != nil {
			msgs[i] = message{Method: "(unreadable message)"}
		}
		if msgs[i].isRequest() {
			n.reqs[e.Dir+string(msgs[i].ID)] = msgs[i]
		}
	}
	// heldFor maps the entry the bridge sent in a held message's place to
	// the held message; tellAt, the entry before which the held message is
	// told (its replacement, or the first of the messages the bridge wrote
	// itself just before a reply, such as its notice to the user).
	heldFor := map[int]int{}
	tellAt := map[int]int{}
	skip := map[int]bool{}
	for h, e := range entries {
		if e.Bridge != "answered" && e.Bridge != "replaced" && e.Bridge != "refused" {
			continue
		}
		wantDir, wantResponse := e.Dir, msgs[h].isResponse()
		switch {
		case e.Bridge == "answered", e.Bridge == "refused" && !msgs[h].isResponse():
			// The bridge's error went back to the sender.
			wantDir, wantResponse = opposite(e.Dir), true
		case e.Bridge == "refused":
			// The peer waiting for a refused response got an error instead.
			wantDir, wantResponse = e.Dir, true
		}
		if len(msgs[h].ID) == 0 {
			continue // nothing to pair it with
		}
		for j := h - 1; j >= 0; j-- {
			m := msgs[j]
			if _, taken := heldFor[j]; taken || entries[j].Bridge != "" || entries[j].Dir != wantDir || m.isResponse() != wantResponse {
				continue
			}
			if string(m.ID) == string(msgs[h].ID) && (m.Method == msgs[h].Method || e.Bridge != "replaced") {
				heldFor[j] = h
				skip[h] = true
				at := j
				for at > 0 && entries[at-1].Bridge == "" && strings.HasPrefix(n.label(entries[at-1].Dir, msgs[at-1]), "bridge ") {
					if _, taken := tellAt[at-1]; taken {
						break
					}
					at--
				}
				tellAt[at] = j
				break
			}
		}
	}
	for i, e := range entries {
		if skip[i] {
			continue
		}
		if j, ok := tellAt[i]; ok {
			h := heldFor[j]
			held := entries[h]
			n.line(n.label(held.Dir, msgs[h]), n.describe(held.Dir, msgs[h]))
			switch held.Bridge {
			case "answered":
				n.line("bridge", "answered it itself, the "+from(opposite(held.Dir))+" never saw it: "+n.describe(entries[j].Dir, msgs[j]))
			case "refused":
				n.line("bridge", "refused it, the "+from(opposite(held.Dir))+" never saw it: "+n.describe(entries[j].Dir, msgs[j]))
			default:
				n.line("bridge", n.replaced(held.Dir, msgs[h], msgs[j]))
			}
		}
		if _, told := heldFor[i]; told {
			continue
		}
		m := msgs[i]
		switch e.Bridge {
		case "dropped":
			n.line("bridge", "DROPPED "+n.describe(e.Dir, m)+" ("+n.label(e.Dir, m)+")")
		case "consumed":
			n.line(arrow(from(e.Dir), "bridge"), n.describe(e.Dir, m))
		case "answered":
			n.line(n.label(e.Dir, m), n.describe(e.Dir, m))
			n.line("bridge", "answered it itself")
		case "refused":
			n.line("bridge", "REFUSED "+n.describe(e.Dir, m)+" ("+n.label(e.Dir, m)+"), never forwarded")
		default:
			if text, ok := chunkText(m); ok {
				n.chunk(n.label(e.Dir, m), text)
				continue
			}
			n.line(n.label(e.Dir, m), n.describe(e.Dir, m))
		}
	}
	n.flush()
	return n.err
}

// narration is the state of one Narrate call.
type narration struct {
	w    io.Writer
	root string
	reqs map[string]message // requests by direction + id, for their responses
	err  error

	chunkLabel string // streamed text waiting to be printed as one line
	chunkText  strings.Builder
}

func (n *narration) line(label, text string) {
	n.flush()
	n.print(label, text)
}

func (n *narration) print(label, text string) {
	if n.err != nil {
		return
	}
	_, n.err = fmt.Fprintf(n.w, "  %-14s %s\n", label, printable(n.rel(text)))
}

// printable escapes what a terminal would act on rather than show: control
// characters (a newline would forge a line of the account, an escape
// sequence rewrite the screen), line and paragraph separators, and the
// bidirectional overrides that reorder text. Everything here may come from
// the agent.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), r == '\u2028', r == '\u2029',
			r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f', r == '\u061c':
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// chunk collects streamed text, so one message reads as one line.
func (n *narration) chunk(label, text string) {
	if n.chunkLabel != label {
		n.flush()
		n.chunkLabel = label
	}
	if n.chunkText.Len() > 0 {
		n.chunkText.WriteByte(' ')
	}
	n.chunkText.WriteString(text)
}

func (n *narration) flush() {
	if n.chunkLabel == "" {
		return
	}
	label, text := n.chunkLabel, n.chunkText.String()
	n.chunkLabel = ""
	n.chunkText.Reset()
	n.print(label, strconv.Quote(text))
}

// rel shows paths under the workspace root relative to it.
func (n *narration) rel(s string) string {
	if n.root == "" {
		return s
	}
	s = strings.ReplaceAll(s, n.root+"/", "")
	return strings.ReplaceAll(s, n.root, "the workspace")
}

func opposite(dir string) string {
	if dir == toAgent {
		return toClient
	}
	return toAgent
}

func from(dir string) string {
	if dir == toAgent {
		return "IDE"
	}
	return "agent"
}

func arrow(a, b string) string { return a + " → " + b }

// label says who sent a message to whom. The recording does not say who
// wrote a message; the bridge's own requests carry its id prefix, and its
// own notifications its marks (an acp-bridge _meta, text it signs, the
// quick commands it offers). An agent can imitate those marks, so the
// attribution of a notification is only as good as the agent is honest:
// right for the demo's built-in agent, not evidence about any other.
func (n *narration) label(dir string, m message) string {
	if m.isResponse() {
		if strings.HasPrefix(string(m.ID), bridgeIDPrefix) {
			return arrow(from(dir), "bridge")
		}
		return arrow(from(dir), from(opposite(dir)))
	}
	if strings.HasPrefix(string(m.ID), bridgeIDPrefix) || bridgeAuthored(m) {
		return arrow("bridge", from(opposite(dir)))
	}
	return arrow(from(dir), from(opposite(dir)))
}

// update is the part of a session/update the narration reads.
type update struct {
	SessionUpdate string          `json:"sessionUpdate"`
	Content       json.RawMessage `json:"content"`
	ToolCallID    string          `json:"toolCallId"`
	Title         string          `json:"title"`
	Kind          string          `json:"kind"`
	Status        string          `json:"status"`
	Used          int64           `json:"used"`
	Size          int64           `json:"size"`
	Commands      []struct {
		Name string `json:"name"`
	} `json:"availableCommands"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

func sessionUpdate(m message) (update, bool) {
	if m.Method != "session/update" {
		return update{}, false
	}
	var p struct {
		Update update `json:"update"`
	}
	if jsonv2.Unmarshal(m.Params, &p) != nil {
		return update{}, false
	}
	return p.Update, true
}

// chunkText returns the text of an agent_message_chunk.
func chunkText(m message) (string, bool) {
	u, ok := sessionUpdate(m)
	if !ok || u.SessionUpdate != "agent_message_chunk" {
		return "", false
	}
	var c struct {
		Text string `json:"text"`
	}
	if jsonv2.Unmarshal(u.Content, &c) != nil {
		return "", false
	}
	return strings.Join(strings.Fields(c.Text), " "), true
}

func bridgeAuthored(m message) bool {
	u, ok := sessionUpdate(m)
	if !ok {
		return false
	}
	if _, ok := u.Meta["acp-bridge"]; ok {
		return true
	}
	if text, ok := chunkText(m); ok {
		return strings.HasPrefix(text, "acp-bridge ")
	}
	if u.SessionUpdate == "available_commands_update" && len(u.Commands) > 0 {
		for _, c := range u.Commands {
			if !strings.HasPrefix(c.Name, "bridge-") {
				return false
			}
		}
		return true
	}
	return false
}

// describe says in a few words what a message is.
func (n *narration) describe(dir string, m message) string {
	switch {
	case m.isResponse():
		return n.describeResponse(dir, m)
	case m.Method == "session/update":
		return describeUpdate(m)
	}
	var p struct {
		Cwd     string   `json:"cwd"`
		Path    string   `json:"path"`
		Content string   `json:"content"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Prompt  []struct {
			Text string `json:"text"`
		} `json:"prompt"`
		ToolCall struct {
			Title string `json:"title"`
		} `json:"toolCall"`
		Options []struct {
			Name string `json:"name"`
		} `json:"options"`
		RequestID json.RawMessage `json:"requestId"`
	}
	jsonv2.Unmarshal(m.Params, &p)
	switch m.Method {
	case "initialize":
		return "initialize"
	case "session/new":
		return "session/new in " + p.Cwd
	case "session/prompt":
		var text []string
		for _, b := range p.Prompt {
			text = append(text, b.Text)
		}
		return "prompt " + strconv.Quote(strings.Join(text, " "))
	case "session/cancel":
		return "session/cancel: stop the turn"
	case "$/cancel_request":
		return "$/cancel_request for request " + string(p.RequestID)
	case "fs/read_text_file":
		return "fs/read_text_file " + p.Path
	case "fs/write_text_file":
		return fmt.Sprintf("fs/write_text_file %s (%d bytes)", p.Path, len(p.Content))
	case "terminal/create":
		return "terminal/create " + strings.Join(append([]string{p.Command}, p.Args...), " ")
	case "session/request_permission":
		var opts []string
		for _, o := range p.Options {
			opts = append(opts, o.Name)
		}
		return fmt.Sprintf("asks permission: %s [%s]", p.ToolCall.Title, strings.Join(opts, " | "))
	}
	return m.Method
}

func (n *narration) describeResponse(dir string, m message) string {
	if m.Error != nil {
		return fmt.Sprintf("error %d: %s", m.Error.Code, m.Error.Message)
	}
	req := n.reqs[opposite(dir)+string(m.ID)]
	var r struct {
		AgentInfo struct {
			Name string `json:"name"`
		} `json:"agentInfo"`
		ProtocolVersion int                         `json:"protocolVersion"`
		SessionID       string                      `json:"sessionId"`
		StopReason      string                      `json:"stopReason"`
		Content         string                      `json:"content"`
		Outcome         acpparams.PermissionOutcome `json:"outcome"`
	}
	jsonv2.Unmarshal(m.Result, &r)
	switch req.Method {
	case "initialize":
		return fmt.Sprintf("initialized: %s, protocol %d", r.AgentInfo.Name, r.ProtocolVersion)
	case "session/new":
		return "session " + r.SessionID
	case "session/prompt":
		return "turn ended: " + r.StopReason
	case "fs/read_text_file":
		return fmt.Sprintf("file content, %s bytes", groupDigits(len(r.Content)))
	case "fs/write_text_file":
		return "written"
	case "session/request_permission":
		if r.Outcome.Outcome == "selected" {
			return "answer: " + r.Outcome.OptionID
		}
		return "answer: " + r.Outcome.Outcome
	}
	return "result"
}

func describeUpdate(m message) string {
	u, _ := sessionUpdate(m)
	switch u.SessionUpdate {
	case "tool_call":
		return fmt.Sprintf("tool call %s: %s (%s, %s)", u.ToolCallID, u.Title, u.Kind, u.Status)
	case "tool_call_update":
		if u.Status != "" {
			return fmt.Sprintf("tool call %s: %s", u.ToolCallID, u.Status)
		}
		return fmt.Sprintf("tool call %s updated", u.ToolCallID)
	case "usage_update":
		s := fmt.Sprintf("context: %s of %s tokens used", groupDigits(int(u.Used)), groupDigits(int(u.Size)))
		var meta struct {
			Estimated bool   `json:"estimated"`
			Level     string `json:"level"`
		}
		if raw, ok := u.Meta["acp-bridge"]; ok && jsonv2.Unmarshal(raw, &meta) == nil && meta.Estimated {
			s += " (the bridge's estimate, level " + meta.Level + ")"
		}
		return s
	case "available_commands_update":
		var names []string
		for _, c := range u.Commands {
			names = append(names, "/"+c.Name)
		}
		return "commands offered: " + strings.Join(names, " ")
	case "agent_message_chunk":
		text, _ := chunkText(m)
		return strconv.Quote(text)
	}
	return strings.TrimSpace("session/update " + u.SessionUpdate)
}

var (
	refFile     = regexp.MustCompile(`\*\*File:\*\* (.*)`)
	refOriginal = regexp.MustCompile(`\*\*Original:\*\* ([0-9,]+) tokens`)
	refSaved    = regexp.MustCompile(`\*\*Tokens Saved:\*\* ([0-9,]+)`)
)

// replaced says what the bridge changed in a message it passed on.
func (n *narration) replaced(dir string, orig, sent message) string {
	var r struct {
		Content string                     `json:"content"`
		Meta    map[string]json.RawMessage `json:"_meta"`
	}
	jsonv2.Unmarshal(sent.Result, &r)
	if f := refFile.FindStringSubmatch(r.Content); f != nil {
		o, s := refOriginal.FindStringSubmatch(r.Content), refSaved.FindStringSubmatch(r.Content)
		if o != nil && s != nil {
			before, saved := atoi(o[1]), atoi(s[1])
			return fmt.Sprintf("OFFLOADED it: the agent got a %s-byte reference instead of the content: %s -> %s tokens (%s saved); the content is in %s",
				groupDigits(len(r.Content)), groupDigits(before), groupDigits(before-saved), groupDigits(saved), f[1])
		}
	}
	if raw, ok := r.Meta["acp-bridge"]; ok {
		var id struct {
			Manifest string `json:"manifest"`
			Tier     string `json:"tier"`
		}
		jsonv2.Unmarshal(raw, &id)
		return fmt.Sprintf("added its identity to the answer: manifest %s, tier %s", id.Manifest, id.Tier)
	}
	return "changed it before passing it on: " + n.describe(dir, sent)
}

func atoi(s string) int {
	v, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return v
}

// english writes numbers with thousands separators: 257848 -> 257,848.
var english = textmessage.NewPrinter(language.English)

// groupDigits writes n with thousands separators: 257848 -> 257,848.
func groupDigits(n int) string { return english.Sprintf("%d", n) }
