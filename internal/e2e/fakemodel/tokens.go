package fakemodel

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/tokens"
)

// CountTokens returns the number of o200k_base tokens in s. o200k is an
// offline stand-in: no offline Claude or Gemini tokenizer exists, so figures
// compare runs with each other, not with what a real model would bill.
func CountTokens(s string) int { return tokens.Count(s) }

// ContextText returns the text of the conversation context in the request
// body: every string value under "system" and "messages" (Anthropic) or
// "systemInstruction" and "contents" (Gemini), tool inputs and results
// included, joined by newlines (arrays in order, object keys sorted). Tool
// definitions and
// sampling settings are left out: they are the same whatever the bridge does.
func (r Request) ContextText() (string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &top); err != nil {
		return "", fmt.Errorf("request %d: %v", r.Seq, err)
	}
	var b strings.Builder
	for _, k := range []string{"system", "messages", "systemInstruction", "contents"} {
		v, ok := top[k]
		if !ok {
			continue
		}
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return "", fmt.Errorf("request %d: %s: %v", r.Seq, k, err)
		}
		collectStrings(&b, x)
	}
	return b.String(), nil
}

// ContextTokens returns CountTokens of ContextText.
func (r Request) ContextTokens() (int, error) {
	t, err := r.ContextText()
	if err != nil {
		return 0, err
	}
	return CountTokens(t), nil
}

// structuralKeys hold protocol words rather than content.
var structuralKeys = map[string]bool{"type": true, "role": true, "id": true, "tool_use_id": true, "cache_control": true, "signature": true}

func collectStrings(b *strings.Builder, x any) {
	switch v := x.(type) {
	case string:
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(v)
	case []any:
		for _, e := range v {
			collectStrings(b, e)
		}
	case map[string]any:
		// Keys in document order are lost by map decoding; sorting keeps
		// the result deterministic, which is all a token count needs.
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if !structuralKeys[k] {
				collectStrings(b, v[k])
			}
		}
	}
}
