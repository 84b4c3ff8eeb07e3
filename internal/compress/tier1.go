package compress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// toolResult applies tier 1 to the string at path in a tool result going to
// the agent, and counts what enters the agent's context. It reports
// forwarded when it passed the offloaded rewrite to next; otherwise the
// caller lets m pass as is.
func (p *Pipeline) toolResult(ctx context.Context, s *session, m *acpwire.Message, next acpwire.Handler, path []string, tool, source string, offloadable bool) (forwarded bool, err error) {
	content, ok := m.GetString(path...)
	if !ok {
		return false, nil
	}
	tokens, exact := -1, false
	if offloadable && len(content) > p.cfg.OffloadTokens {
		tokens, exact = measure(content)
	}
	if tokens > p.cfg.OffloadTokens {
		ref, err := p.offload(s, tool, source, content, tokens)
		if err != nil {
			if !errors.Is(err, errOffloadBudget) {
				p.logger.Warn("tier 1 offload failed; content passed as is", "source", source, "err", err)
			}
		} else {
			out, err := m.PatchJSON(ref.text, path...)
			if err != nil {
				p.discardOffload(ref.held)
				return false, err
			}
			p.account(s, ref.tokens)
			held := []heldOffload{ref.held}
			p.recordWhenPassed(out, held)
			err = next.Handle(ctx, out)
			p.settleOffloads(m, held)
			return true, err
		}
	}
	s.mu.Lock()
	if tool == "terminal_output" {
		s.rec.ToolOutput(content)
	}
	if exact {
		s.rec.Note(m.Received, "Tool", fmt.Sprintf("%s (%d tokens)", source, tokens))
		s.meter.Add(tokens)
	} else {
		// Counted off the forwarding path, from a sample (Meter).
		s.rec.Note(m.Received, "Tool", fmt.Sprintf("%s (%d bytes)", source, len(content)))
		s.meter.AddText(content)
	}
	p.noteLevel(s)
	return false, nil
}

// offloadRef is what offload wrote: the cached file and the reference
// that stands in for its content.
type offloadRef struct {
	path   string      // the cached copy, absolute
	text   string      // the reference (Markdown)
	tokens int         // the reference's own tokens
	held   heldOffload // recorded as the message is passed on (recordWhenPassed)
}

// offload writes content to the cache and returns its reference. The
// agent may read the file from now on; the offload is recorded as the
// message carrying the reference is written (recordWhenPassed), or undone
// by settleOffloads when that message is not passed on.
func (p *Pipeline) offload(s *session, tool, source, content string, tokens int) (offloadRef, error) {
	if !p.reserveOffload(len(content)) {
		return offloadRef{}, errOffloadBudget
	}
	o := Offloaded{Source: source, Tokens: tokens, Bytes: len(content), Lines: countLines(content)}
	path, err := p.store.WriteOffloaded(tool, content)
	if err != nil {
		p.releaseOffload(len(content))
		return offloadRef{}, err
	}
	o.Path = path
	files := []string{path}
	ref, after := reference(o, content)
	resolved := resolvedOffload(path)
	s.mu.Lock()
	s.offloads.add(path, resolved)
	lvl := s.meter.Usage().Level()
	s.mu.Unlock()
	held := heldOffload{s: s, path: path, resolved: resolved, bytes: len(content), note: source + "\n\n" + ref,
		event: Event{Time: p.now(), Session: s.ide, Type: EventTier1, Level: lvl.String(),
			Trigger:      fmt.Sprintf("%s: %d tokens over the %d-token threshold", source, tokens, p.cfg.OffloadTokens),
			TokensBefore: tokens, TokensAfter: after, TokensSaved: tokens - after, Files: files}}
	return offloadRef{path: path, text: ref, tokens: after, held: held}, nil
}

// jsonText decodes a raw JSON string value; anything else is taken as is.
func jsonText(v []byte) string {
	if t, ok := rawjson.String(v); ok {
		return t
	}
	return string(v)
}

// offloadResource replaces an embedded resource by a resource_link to the
// offloaded copy and a text block with its reference.
func (p *Pipeline) offloadResource(s *session, uri, mime, text string, tokens int) ([][]byte, heldOffload, error) {
	ref, err := p.offload(s, "prompt_resource", "embedded resource "+uri, text, tokens)
	if err != nil {
		return nil, heldOffload{}, err
	}
	path := ref.path
	link := map[string]any{"type": "resource_link", "uri": (&url.URL{Scheme: "file", Path: path}).String(), "name": filepath.Base(path), "size": len(text),
		"description": "offloaded by acp-bridge: byte-identical copy of " + uri}
	if mime != "" {
		link["mimeType"] = mime
	}
	lb, err := json.Marshal(link)
	if err != nil {
		p.discardOffload(ref.held)
		return nil, heldOffload{}, err
	}
	tb, err := json.Marshal(map[string]any{"type": "text", "text": ref.text})
	if err != nil {
		p.discardOffload(ref.held)
		return nil, heldOffload{}, err
	}
	return [][]byte{lb, tb}, ref.held, nil
}

func joinArray(elems [][]byte) []byte {
	n := 2
	for _, e := range elems {
		n += len(e) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, e := range elems {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e...)
	}
	return append(out, ']')
}

// guardWrite refuses an fs/write_text_file whose content carries one of
// the bridge's offload references: the agent would be writing the
// reference over the real file (an edit tool that read the file through
// the client got the reference and applied its change to it). A write in
// a session the pipeline does not keep (one the IDE never opened, or has
// closed) is left to the middleware past it: governance refuses and
// records it as it does any request in such a session, and the pipeline
// records nothing for it.
func (p *Pipeline) guardWrite(m *acpwire.Message) (bool, error) {
	if m.Method != "fs/write_text_file" {
		return false, nil
	}
	content, _ := rawjson.GetString(m.Params, "content")
	marker := "**File:** " + p.store.OffloadedDir()
	if !strings.Contains(content, "## Offloaded Content Reference") || !strings.Contains(content, marker) {
		return false, nil
	}
	path, _ := rawjson.GetString(m.Params, "path")
	down, _ := rawjson.GetString(m.Params, "sessionId")
	if p.lookup(p.ideID(down)) == nil {
		return false, nil
	}
	p.logger.Warn("refused a write carrying an offload reference", "path", path)
	p.events.Add(Event{Time: p.now(), Session: p.ideID(down), Type: EventWriteRefused, Trigger: "fs/write_text_file " + path,
		Files: []string{}, IntentPreserved: IntentPreserved, Detail: "content contains an acp-bridge offload reference"})
	return true, p.s.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams,
		"acp-bridge refused to write %s: the content contains an acp-bridge offload reference, not the file's text. Read the file in ranges (fs/read_text_file with line and limit) and edit from the real content", path))
}

// update handles session/update from the agent.
func (p *Pipeline) update(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	var buf acpparams.Update
	upd, err := readUpdateOf(m, &p.ids, &buf)
	if err != nil {
		// Not an update the IDE acts on, or one it may read another way
		// (a member named twice): recorded and offloaded from nothing,
		// but still in the IDE's session: after a rollover, one left
		// naming the agent's session would be judged, and reach the IDE,
		// in the name of a session the IDE never opened.
		out, err := p.translate(m, false)
		if err != nil {
			return err
		}
		return next.Handle(ctx, out)
	}
	down := upd.SessionID
	ide, s, loading := p.updateSession(down)
	if s == nil {
		// A session the IDE never opened, or has closed: nothing is
		// recorded, counted or offloaded for it, so the pipeline never
		// speaks to the IDE in its name; governance judges the update.
		return p.forwardAs(ctx, m, ide, down, next)
	}
	kind, update := upd.SessionUpdate, upd.Raw
	out := m
	var grewRoom [2][]byte
	grew := grewRoom[:0]              // text entering the agent's context, as JSON string literals
	var held []heldOffload            // recorded once the update reaches the IDE
	isCall, callLevel := false, Green // a tool call's: the level before its text is counted
	// The meter's bookkeeping is cheap (no tokenizing); only the notice of
	// a changed level waits until the message is forwarded.
	var u Usage
	changed := false
	switch kind {
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		text := upd.Text
		if loading && len(text) > p.cfg.OffloadTokens*bytesPerToken {
			if o, h, err := p.offloadIDEText(s, m, text, "session_load_replay", "toward the IDE: session load replay", []string{"params", "update", "content", "text"}); err == nil {
				out, held = o, append(held, h)
			}
		}
		role := "Agent"
		switch kind {
		case "agent_thought_chunk":
			role = "Thought"
		case "user_message_chunk":
			// The agent's account of what the person said (its replay of
			// a loaded session), never the person's own words: those are
			// the prompts the IDE sends (Recorder.UserMessage).
			role = RoleReplayedUser
		}
		// Recorded and accounted in one locked step: most messages are
		// chunks.
		s.mu.Lock()
		s.rec.AgentChunk(m.Received, role, text)
		if kind != "user_message_chunk" && text != nil {
			u, changed = p.accountLocked(s, text)
		}
		s.mu.Unlock()
	case "tool_call", "tool_call_update":
		if out, grew, held, err = p.toolCallUpdate(s, m, upd, grew, held); err != nil {
			p.settleOffloads(m, held)
			return err
		}
		s.mu.Lock()
		isCall, callLevel = true, s.meter.Usage().Level()
		s.mu.Unlock()
	case "plan":
		s.mu.Lock()
		s.rec.Plan(update)
		s.mu.Unlock()
	case "usage_update":
		var u struct{ Used, Size int64 }
		if json.Unmarshal(update, &u) == nil {
			s.mu.Lock()
			s.meter.Report(u.Used, u.Size)
			s.mu.Unlock()
		}
	case "available_commands_update":
		if out, err = p.mergeCommands(s, m, update); err != nil {
			return err
		}
	case "current_mode_update":
		mode, _ := rawjson.GetString(update, "currentModeId")
		s.mu.Lock()
		s.rec.Decision(m.Received, "Mode switched to "+mode)
		s.mode = mode
		s.mu.Unlock()
	case "config_option_update":
		if mode, shown, err := acpparams.ConfigMode(update); shown && err == nil {
			s.mu.Lock()
			if s.mode != mode {
				s.rec.Decision(m.Received, "Mode switched to "+mode)
			}
			s.mode = mode
			s.mu.Unlock()
		}
	}
	if ide != down {
		if out, err = out.PatchJSON(ide, "params", "sessionId"); err != nil {
			p.settleOffloads(m, held)
			return err
		}
	}
	if len(grew) > 0 {
		u, changed = p.accountLiterals(s, grew)
	}
	p.recordWhenPassed(out, held)
	err = next.Handle(ctx, out)
	p.settleOffloads(m, held)
	if isCall && m.Passed() {
		p.recordToolCall(s, m, upd, callLevel)
	}
	if changed {
		p.sendEstimate(s, u)
	}
	return err
}

// forwardAs passes m on with its sessionId, down, set to ide, the IDE's id
// for it, when they differ.
func (p *Pipeline) forwardAs(ctx context.Context, m *acpwire.Message, ide, down string, next acpwire.Handler) error {
	if ide != down {
		out, err := m.PatchJSON(ide, "params", "sessionId")
		if err != nil {
			return err
		}
		m = out
	}
	return next.Handle(ctx, m)
}

// toolCallUpdate offloads a tool call's oversized text content toward the
// IDE (the IDE shows the preview and the path). It returns the text of the
// call's content, as JSON string literals, appended to text, and the
// offloads made, appended to held. The call is recorded by recordToolCall
// once the update has reached the IDE.
func (p *Pipeline) toolCallUpdate(s *session, m *acpwire.Message, u *acpparams.Update, text [][]byte, held []heldOffload) (*acpwire.Message, [][]byte, []heldOffload, error) {
	out := m
	for i, c := range u.Items {
		if c.Text == nil {
			// A diff's new text was the agent's own output.
			if c.NewText != nil {
				text = append(text, c.NewText)
			}
			continue
		}
		text = append(text, c.Text)
		// Toward the IDE the size is judged from bytes (four per token)
		// to keep tokenizing off the streaming path.
		if len(c.Text) > p.cfg.OffloadTokens*bytesPerToken {
			// The file is named after the call's kind, one ACP defines: a
			// title is the agent's text, which the audit log's redaction
			// must see as written, not cut into a file name.
			name := "tool_call"
			if u.Kind != "" {
				name += "_" + u.Kind
			}
			if o, h, err := p.offloadIDEText(s, out, c.Text, name, "toward the IDE: tool call "+u.Title, []string{"params", "update", "content", fmt.Sprint(i), "content", "text"}); err == nil {
				out, held = o, append(held, h)
			} else {
				p.logger.Debug("no tier 1 offload toward the IDE", "err", err)
			}
		}
	}
	return out, text, held, nil
}

// offloadIDEText offloads the JSON string literal lit found at path in m,
// to a file named after tool, with source saying where it came from. The
// offload is held for recordWhenPassed and settleOffloads.
func (p *Pipeline) offloadIDEText(s *session, m *acpwire.Message, lit []byte, tool, source string, path []string) (*acpwire.Message, heldOffload, error) {
	text, ok := rawjson.String(lit)
	if !ok {
		return nil, heldOffload{}, fmt.Errorf("not a string")
	}
	tokens, _ := measure(text)
	if tokens <= p.cfg.OffloadTokens {
		return nil, heldOffload{}, fmt.Errorf("under threshold")
	}
	ref, err := p.offload(s, tool, source, text, tokens)
	if err != nil {
		return nil, heldOffload{}, err
	}
	out, err := m.PatchJSON(ref.text, path...)
	if err != nil {
		p.discardOffload(ref.held)
		return nil, heldOffload{}, err
	}
	return out, ref.held, nil
}
