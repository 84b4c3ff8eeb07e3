package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// geminiRequest holds the few fields of a generateContent request the server
// looks at.
type geminiRequest struct {
	Contents []json.RawMessage `json:"contents"`
	Tools    []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType   string          `json:"responseMimeType"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

func (g *geminiRequest) hasFunctions() bool {
	for _, t := range g.Tools {
		if len(t.FunctionDeclarations) > 0 {
			return true
		}
	}
	return false
}

func geminiError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"code": code, "message": msg, "status": "INVALID_ARGUMENT"}})
}

// gemini answers POST .../models/{model}:{method}.
func (s *Server) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	last := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	model, method, _ := strings.Cut(last, ":")
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.record(r, body, "gemini", KindUnknown, model, -1)
		geminiError(w, http.StatusBadRequest, "fake model: bad JSON: "+err.Error())
		return
	}
	switch method {
	case "countTokens":
		s.record(r, body, "gemini", KindCountTokens, model, -1)
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": fakeInputTokens})
		return
	case "generateContent", "streamGenerateContent":
	default:
		s.record(r, body, "gemini", KindUnknown, model, -1)
		geminiError(w, http.StatusNotFound, "fake model: unknown method "+method)
		return
	}
	var (
		st   Step
		idx  = -1
		kind = KindSide
	)
	if req.hasFunctions() {
		kind = KindMain
		var ok bool
		if st, idx, ok = s.pick(len(req.Contents)); !ok {
			st = Text(s.doneText())
		}
		st = st.filled(body)
	} else {
		st = Text(geminiSideText(&req))
	}
	s.record(r, body, "gemini", kind, model, idx)
	parts := geminiParts(st)
	final := geminiChunk(model, idx, parts, true)
	if method == "generateContent" {
		if !s.wait(r.Context(), st) {
			return
		}
		writeJSON(w, http.StatusOK, final)
		return
	}
	sse := newSSE(w)
	if !s.wait(r.Context(), st) {
		return
	}
	sse.event("", final)
}

// geminiSideText answers a side request. Gemini CLI asks for JSON in some of
// them (the next-speaker check, the model router); an answer that parses
// keeps it on its normal path.
func geminiSideText(req *geminiRequest) string {
	if req.GenerationConfig.ResponseMimeType != "application/json" {
		return sideText
	}
	schema := append(append([]byte(nil), req.GenerationConfig.ResponseSchema...), req.GenerationConfig.ResponseJSONSchema...)
	switch {
	case bytes.Contains(schema, []byte("next_speaker")):
		return `{"reasoning":"fake model: the turn is complete","next_speaker":"user"}`
	case bytes.Contains(schema, []byte("complexity_score")):
		return `{"complexity_reasoning":"fake model","complexity_score":10}`
	case bytes.Contains(schema, []byte("model_choice")):
		return `{"reasoning":"fake model","model_choice":"flash"}`
	}
	return "{}"
}

// geminiParts returns the content parts for a step.
func geminiParts(st Step) []map[string]any {
	var parts []map[string]any
	if st.Text != "" || st.Tool == nil {
		parts = append(parts, map[string]any{"text": st.Text})
	}
	if st.Tool != nil {
		parts = append(parts, map[string]any{"functionCall": map[string]any{"name": st.Tool.Name, "args": st.Tool.Input}})
	}
	return parts
}

// geminiChunk builds a GenerateContentResponse.
func geminiChunk(model string, idx int, parts []map[string]any, final bool) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if final {
		cand["finishReason"] = "STOP"
	}
	return map[string]any{
		"candidates": []any{cand},
		"usageMetadata": map[string]any{
			"promptTokenCount": fakeInputTokens, "candidatesTokenCount": fakeOutputTokens,
			"totalTokenCount": fakeInputTokens + fakeOutputTokens,
		},
		"modelVersion": model,
		"responseId":   fmt.Sprintf("fake-step%d", idx),
	}
}
