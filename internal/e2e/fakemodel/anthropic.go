package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// anthropicRequest holds the few fields of a Messages API request the server
// looks at.
type anthropicRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
}

// Fixed usage figures: real counts would depend on absolute paths and dates
// in the agent's system prompt and make two runs of one script differ. Tests
// count tokens from the request log instead (see CountTokens).
const (
	fakeInputTokens  = 1000
	fakeOutputTokens = 10
)

func anthropicError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": msg}})
}

// decodeAnthropic decodes a Messages API request; when it is not JSON it
// records the request as kind, answers 400 and reports false.
func (s *Server) decodeAnthropic(w http.ResponseWriter, r *http.Request, body []byte, kind string) (anthropicRequest, bool) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.record(r, body, "anthropic", kind, "", -1)
		anthropicError(w, http.StatusBadRequest, "fake model: bad JSON: "+err.Error())
		return req, false
	}
	return req, true
}

func (s *Server) anthropicCountTokens(w http.ResponseWriter, r *http.Request, body []byte) {
	req, ok := s.decodeAnthropic(w, r, body, KindCountTokens)
	if !ok {
		return
	}
	s.record(r, body, "anthropic", KindCountTokens, req.Model, -1)
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": fakeInputTokens})
}

// anthropicMessages answers POST /v1/messages. A request that offers tools is
// the main conversation and consumes a script step; one without tools (titles,
// topic checks, quota probes) is a side request and gets sideText.
func (s *Server) anthropicMessages(w http.ResponseWriter, r *http.Request, body []byte) {
	req, ok := s.decodeAnthropic(w, r, body, KindUnknown)
	if !ok {
		return
	}
	var (
		st    Step
		idx   = -1
		kind  = KindSide
		msgID string
	)
	if len(req.Tools) > 0 {
		kind = KindMain
		if st, idx, ok = s.pick(len(req.Messages)); !ok {
			st = Text(s.doneText())
		}
		st = st.filled(body)
		msgID = fmt.Sprintf("msg_fake_step%d", idx)
	} else {
		st = Text(sideText)
	}
	s.record(r, body, "anthropic", kind, req.Model, idx)
	if msgID == "" {
		s.mu.Lock()
		msgID = fmt.Sprintf("msg_fake_side%d", len(s.reqs))
		s.mu.Unlock()
	}
	blocks, stop := anthropicBlocks(st, idx)
	if !req.Stream {
		if !s.wait(r.Context(), st) {
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": req.Model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": fakeInputTokens, "output_tokens": fakeOutputTokens},
		})
		return
	}
	sse := newSSE(w)
	sse.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": fakeInputTokens, "output_tokens": 1},
	}})
	if !s.wait(r.Context(), st) {
		return
	}
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			// Two fragments, as the real API streams partial JSON.
			in := string(b["input"].(json.RawMessage))
			half := len(in) / 2
			for half > 0 && !utf8.RuneStart(in[half]) {
				half-- // never split a UTF-8 sequence
			}
			for _, part := range []string{in[:half], in[half:]} {
				sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		sse.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sse.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": fakeOutputTokens}})
	sse.event("message_stop", map[string]any{"type": "message_stop"})
}

// anthropicBlocks returns the content blocks and stop reason for a step.
// Tool-use ids derive from the step index so that two runs of one script
// produce the same ids.
func anthropicBlocks(st Step, idx int) ([]map[string]any, string) {
	var blocks []map[string]any
	if st.Text != "" || st.Tool == nil {
		blocks = append(blocks, map[string]any{"type": "text", "text": st.Text})
	}
	if st.Tool == nil {
		return blocks, "end_turn"
	}
	blocks = append(blocks, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_fake_step%d", idx),
		"name": st.Tool.Name, "input": st.Tool.Input})
	return blocks, "tool_use"
}

// sseWriter writes server-sent events and flushes after each.
type sseWriter struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sseWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	s := &sseWriter{w: w, f: f}
	s.flush()
	return s
}

func (s *sseWriter) flush() {
	if s.f != nil {
		s.f.Flush()
	}
}

// event writes one event; name may be empty (Gemini sends data lines only).
func (s *sseWriter) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		return
	}
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", b)
	s.flush()
}
