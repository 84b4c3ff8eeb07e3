package compress

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// clientResult handles the IDE's answers to the agent's requests: tool
// results entering the agent's context (tier 1), write outcomes and
// permission decisions. It reports forwarded when it passed m (or its
// rewrite) to next itself; otherwise the caller lets m pass as is.
func (p *Pipeline) clientResult(ctx context.Context, m *acpwire.Message, next acpwire.Handler) (forwarded bool, err error) {
	req := m.Request
	down, ok := rawjson.GetString(req.Params, "sessionId")
	if !ok {
		return false, nil
	}
	s := p.lookup(p.ideID(down))
	if s == nil {
		// A session the IDE closed while the request was pending (or
		// never opened): nothing is kept for it.
		return false, nil
	}
	if m.Error != nil {
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(m.Error, &e)
		s.mu.Lock()
		s.rec.Error(req.Method, e.Code, e.Message)
		if req.Method == "fs/write_text_file" {
			path, _ := rawjson.GetString(req.Params, "path")
			body, _ := rawjson.Get(req.Params, "content")
			s.rec.FileWrite(m.Received, path, len(body), false)
		}
		s.mu.Unlock()
		return false, nil
	}
	switch req.Method {
	case "fs/read_text_file":
		path, _ := rawjson.GetString(req.Params, "path")
		// A ranged read passes untouched so the agent can page; so does a
		// read of a file the bridge offloaded: the agent asked for exactly
		// that content, and agents whose read tool pages locally (Gemini
		// CLI reads the whole file through the client, then slices it)
		// could not reach it otherwise.
		ranged := present(req.Params, "line") || present(req.Params, "limit")
		return p.toolResult(ctx, s, m, next, []string{"result", "content"}, "fs_read_text_file", "fs/read_text_file "+path, !ranged && !p.store.Contains(path) && !p.cfg.KeepReads)
	case "terminal/output":
		tid, _ := rawjson.GetString(req.Params, "terminalId")
		s.mu.Lock()
		cmd := s.terminals[tid]
		if code, ok := rawjson.Get(m.Result, "exitStatus", "exitCode"); ok {
			var c int
			_ = json.Unmarshal(code, &c)
			sig, _ := rawjson.GetString(m.Result, "exitStatus", "signal")
			s.rec.ExitStatus(cmd, c, sig)
		}
		s.mu.Unlock()
		return p.toolResult(ctx, s, m, next, []string{"result", "output"}, "terminal_output", "terminal/output "+cmd, true)
	case "terminal/wait_for_exit":
		// ACP's wait_for_exit result carries only exitCode and signal; the
		// output travels in terminal/output, handled above.
		tid, _ := rawjson.GetString(req.Params, "terminalId")
		var r struct {
			ExitCode *int   `json:"exitCode"`
			Signal   string `json:"signal"`
		}
		_ = json.Unmarshal(m.Result, &r)
		s.mu.Lock()
		if r.ExitCode != nil || r.Signal != "" {
			s.rec.ExitStatus(s.terminals[tid], deref(r.ExitCode), r.Signal)
		}
		s.mu.Unlock()
	case "terminal/create":
		tid, _ := rawjson.GetString(m.Result, "terminalId")
		cmd, _ := rawjson.GetString(req.Params, "command")
		s.mu.Lock()
		s.terminals[tid] = cmd
		s.mu.Unlock()
	case "fs/write_text_file":
		path, _ := rawjson.GetString(req.Params, "path")
		body, _ := rawjson.Get(req.Params, "content")
		s.mu.Lock()
		s.rec.FileWrite(m.Received, path, len(body), true)
		lvl := s.meter.Usage().Level()
		s.mu.Unlock()
		p.tier2(s, lvl, path, len(body))
	case "session/request_permission":
		var out acpparams.PermissionResponse
		_ = json.Unmarshal(m.Result, &out)
		title, _ := rawjson.GetString(req.Params, "toolCall", "title")
		d := "Permission " + out.Outcome.Outcome
		if out.Outcome.OptionID != "" {
			d = "User chose " + optionLabel(req.Params, out.Outcome.OptionID)
		}
		s.mu.Lock()
		s.rec.Decision(m.Received, d+" for: "+oneLine(title, 160))
		s.mu.Unlock()
	}
	return false, nil
}

// present reports whether key is in obj with a value other than null.
func present(obj []byte, key string) bool {
	v, ok := rawjson.Get(obj, key)
	return ok && string(v) != "null"
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// optionLabel returns "<kind> (<name>)" for optionID in a permission request.
func optionLabel(params []byte, optionID string) string {
	raw, _ := rawjson.Get(params, "options")
	var opts []acpparams.PermissionOption
	_ = json.Unmarshal(raw, &opts)
	for _, o := range opts {
		if o.OptionID == optionID {
			return o.Kind + " (" + o.Name + ")"
		}
	}
	return optionID
}

// promptBlock is the part of a prompt content block the pipeline reads.
type promptBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	URI      string `json:"uri"`
	Resource *struct {
		URI      string `json:"uri"`
		Text     string `json:"text"`
		MimeType string `json:"mimeType"`
	} `json:"resource"`
}

// prompt handles session/prompt: quick commands, tier 1 on embedded
// resources, the turn's bookkeeping, and the compaction or rollover that
// was scheduled at the end of the previous turn.
func (p *Pipeline) prompt(ctx context.Context, m *acpwire.Message, next acpwire.Handler) error {
	id, _ := rawjson.GetString(m.Params, "sessionId")
	s := p.sessionFor(id, "")
	rawPrompt, _ := rawjson.Get(m.Params, "prompt")
	elems, err := rawjson.Elements(rawPrompt)
	if err != nil {
		return next.Handle(ctx, m)
	}
	blocks := make([]promptBlock, len(elems))
	for i, e := range elems {
		_ = json.Unmarshal(e, &blocks[i])
	}
	if len(blocks) > 0 && blocks[0].Type == "text" {
		if name, arg, ok := parseCommand(blocks[0].Text); ok {
			return p.command(ctx, s, m, name, arg)
		}
	}

	// Tier 1 on embedded resources.
	var userText strings.Builder
	var held []heldOffload // recorded once the prompt reaches the agent
	changed := false
	newElems := make([][]byte, 0, len(elems)+1)
	for i, b := range blocks {
		switch {
		case b.Type == "text":
			userText.WriteString(b.Text)
			userText.WriteByte('\n')
		case b.Type == "resource_link":
			fmt.Fprintf(&userText, "[resource link: %s]\n", b.URI)
		case b.Type == "resource" && b.Resource != nil:
			fmt.Fprintf(&userText, "[embedded resource: %s]\n", b.Resource.URI)
			if len(b.Resource.Text) > p.cfg.OffloadTokens {
				if tokens, _ := measure(b.Resource.Text); tokens > p.cfg.OffloadTokens {
					repl, h, err := p.offloadResource(s, b.Resource.URI, b.Resource.MimeType, b.Resource.Text, tokens)
					if err != nil {
						p.logger.Warn("tier 1 offload of an embedded resource failed; passed as is", "uri", b.Resource.URI, "err", err)
					} else {
						newElems = append(newElems, repl...)
						held = append(held, h)
						changed = true
						continue
					}
				}
			}
		}
		newElems = append(newElems, elems[i])
	}

	s.mu.Lock()
	s.rec.UserMessage(m.Received, strings.TrimRight(userText.String(), "\n"))
	s.rec.StartTurn()
	roll := s.pendingRoll
	compact := !roll && p.cfg.AgentCompact && s.checkpointed && !s.compacted && s.rec.HasCommand("compact") && s.meter.Usage().Level() >= Red
	s.mu.Unlock()

	var summaryBlock []byte
	if roll {
		var ok bool
		summaryBlock, ok = p.rollover(ctx, s)
		if ok {
			newElems = append([][]byte{summaryBlock}, newElems...)
			changed = true
		}
	} else if compact {
		p.compact(ctx, s)
	}

	out := m
	if changed {
		arr := joinArray(newElems)
		if out, err = m.Patch(arr, "params", "prompt"); err != nil {
			p.settleOffloads(m, held) // not passed on: undone
			return err
		}
	}
	s.mu.Lock()
	for _, e := range newElems {
		if t, ok := rawjson.GetString(e, "text"); ok {
			s.meter.AddText(t)
		}
	}
	p.noteLevel(s)
	if out, err = p.translate(out, true); err != nil {
		p.settleOffloads(m, held)
		return err
	}
	p.recordWhenPassed(out, held)
	err = next.Handle(ctx, out)
	p.settleOffloads(m, held)
	return err
}
