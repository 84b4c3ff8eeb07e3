package acpmap

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

// Tokens is the o200k token count of one or more messages in three forms.
type Tokens struct {
	Messages int
	Pretty   int // JSON indented by two spaces
	Compact  int // JSON without insignificant whitespace
	ACCP     int // the ACCP frame, envelope included
	// Envelope is the part of ACCP spent on the metadata block
	// ("[mid:...,seq:...,ts:...]"), which section 3.5 makes mandatory.
	Envelope int
}

func (t *Tokens) add(u Tokens) {
	t.Messages += u.Messages
	t.Pretty += u.Pretty
	t.Compact += u.Compact
	t.ACCP += u.ACCP
	t.Envelope += u.Envelope
}

// Ratio returns ACCP tokens over compact JSON tokens (0 when empty).
func (t Tokens) Ratio() float64 {
	if t.Compact == 0 {
		return 0
	}
	return float64(t.ACCP) / float64(t.Compact)
}

// Stats accumulates token counts per message kind over a stream, measuring
// each message twice: whole, and "structural" with the verbatim file and
// terminal content (see Structural) blanked in both the JSON and the ACCP
// form.
type Stats struct {
	Kinds      map[string]*Tokens
	Total      Tokens
	Structural Tokens
	enc, sEnc  *Encoder
}

// NewStats returns empty statistics.
func NewStats() *Stats {
	return &Stats{Kinds: map[string]*Tokens{}, enc: NewEncoder("stats", Options{}), sEnc: NewEncoder("stats", Options{})}
}

// Add measures one message.
func (s *Stats) Add(l Line) error {
	x, err := accp.DecodeJSON(l.Msg)
	if err != nil {
		return err
	}
	frame, err := s.enc.EncodeValue(x, l.Dir, l.TS)
	if err != nil {
		return err
	}
	f, err := Limits.Parse(frame, s.enc.sess.Registry())
	if err != nil {
		return err
	}
	t, err := measure(x, frame)
	if err != nil {
		return err
	}
	name := KindName(f)
	if s.Kinds[name] == nil {
		s.Kinds[name] = &Tokens{}
	}
	s.Kinds[name].add(t)
	s.Total.add(t)
	sx := Structural(x)
	sframe, err := s.sEnc.EncodeValue(sx, l.Dir, l.TS)
	if err != nil {
		return err
	}
	st, err := measure(sx, sframe)
	if err != nil {
		return err
	}
	s.Structural.add(st)
	return nil
}

func measure(x any, frame string) (Tokens, error) {
	compact, err := MarshalJSON(x)
	if err != nil {
		return Tokens{}, err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, compact, "", "  "); err != nil {
		return Tokens{}, err
	}
	ft := accp.MeasureFrame(frame)
	return Tokens{Messages: 1, Pretty: accp.CountTokens(pretty.String()), Compact: accp.CountTokens(string(compact)),
		ACCP: ft.Total, Envelope: ft.Meta}, nil
}

// KindNames returns the kinds measured, sorted.
func (s *Stats) KindNames() []string {
	names := make([]string, 0, len(s.Kinds))
	for n := range s.Kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Structural returns a copy of an ACP message with verbatim file and
// terminal content replaced by "": the content of fs/read_text_file results
// and fs/write_text_file requests, terminal/output's output, and inside
// session/update tool calls the text of content blocks, diff old and new
// text and every string of rawOutput; embedded resource text in prompts.
// What remains (methods, ids, paths, titles, commands, prose) is the
// structural part the compact formats compete on.
func Structural(x any) any {
	obj, ok := deepCopy(x).(map[string]any)
	if !ok {
		return x
	}
	blank := func(m map[string]any, key string) {
		if _, isStr := m[key].(string); isStr {
			m[key] = ""
		}
	}
	if r, ok := obj["result"].(map[string]any); ok {
		blank(r, "content") // fs/read_text_file
		blank(r, "output")  // terminal/output
	}
	params, _ := obj["params"].(map[string]any)
	if params == nil {
		return obj
	}
	if obj["method"] == "fs/write_text_file" {
		blank(params, "content")
	}
	if prompt, ok := params["prompt"].([]any); ok {
		for _, b := range prompt {
			if bm, ok := b.(map[string]any); ok {
				if res, ok := bm["resource"].(map[string]any); ok {
					blank(res, "text")
				}
			}
		}
	}
	u, _ := params["update"].(map[string]any)
	if u == nil {
		return obj
	}
	if content, ok := u["content"].([]any); ok {
		for _, c := range content {
			cm, _ := c.(map[string]any)
			if cm == nil {
				continue
			}
			blank(cm, "oldText")
			blank(cm, "newText")
			if inner, ok := cm["content"].(map[string]any); ok {
				blank(inner, "text")
			}
		}
	}
	if ro, ok := u["rawOutput"]; ok {
		u["rawOutput"] = blankStrings(ro)
	}
	return obj
}

func blankStrings(x any) any {
	switch t := x.(type) {
	case string:
		return ""
	case []any:
		for i := range t {
			t[i] = blankStrings(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = blankStrings(t[k])
		}
	}
	return x
}
