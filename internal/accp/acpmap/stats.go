package acpmap

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	// Larger counts the messages whose frame has more tokens than their
	// compact JSON.
	Larger int
}

func (t *Tokens) add(u Tokens) {
	t.Messages += u.Messages
	t.Pretty += u.Pretty
	t.Compact += u.Compact
	t.ACCP += u.ACCP
	t.Envelope += u.Envelope
	t.Larger += u.Larger
}

// Ratio returns ACCP tokens over compact JSON tokens (0 when empty).
func (t Tokens) Ratio() float64 {
	if t.Compact == 0 {
		return 0
	}
	return float64(t.ACCP) / float64(t.Compact)
}

// RunTokens is the o200k token count of a stream written in one of Forms.
type RunTokens struct {
	// Messages, Pretty and Compact count the messages as in Tokens; ACCP
	// and Envelope count the frames, and Larger the frames with more
	// tokens than their messages as compact JSON.
	Tokens
	Frames int
}

// Form names a way of writing a stream, for RunTokens.
type Form struct {
	Runs bool // run frames (RunEncoder with the default bound)
	Refs bool // back-references (Options.Refs)
}

// String names the form as the CLI's flags do.
func (f Form) String() string {
	switch {
	case f.Runs && f.Refs:
		return "-runs -refs"
	case f.Runs:
		return "-runs"
	case f.Refs:
		return "-refs"
	}
	return "one frame per message"
}

// Forms are the ways of writing a stream that Stats measures besides one
// plain frame per message.
var Forms = []Form{{Runs: true}, {Refs: true}, {Runs: true, Refs: true}}

// formStream measures one stream of messages written in one form.
type formStream struct {
	form    Form
	enc     *Encoder
	runs    *RunEncoder
	compact []int // compact JSON tokens of the messages not yet in a frame
	out     *RunTokens
}

func newFormStream(form Form, out *RunTokens) *formStream {
	fs := &formStream{form: form, enc: NewEncoder("stats", Options{Refs: form.Refs}), out: out}
	if form.Runs {
		fs.runs = fs.enc.Runs(RunOptions{})
	}
	return fs
}

func (r *formStream) add(x any, l Line, t Tokens) error {
	var frames []string
	var err error
	if r.runs != nil {
		frames, err = r.runs.AddValue(x, l.Dir, l.TS)
	} else {
		var frame string
		frame, err = r.enc.EncodeValue(x, l.Dir, l.TS)
		frames = []string{frame}
	}
	if err != nil {
		return err
	}
	r.out.Messages++
	r.out.Pretty += t.Pretty
	r.out.Compact += t.Compact
	r.compact = append(r.compact, t.Compact)
	return r.count(frames)
}

func (r *formStream) count(frames []string) error {
	for _, line := range frames {
		f, err := Limits.Parse(line, r.enc.sess.Registry())
		if err != nil {
			return err
		}
		n := 1
		if isRun(f) {
			n = len(f.Params[0].Val.List)
		}
		if n > len(r.compact) {
			return fmt.Errorf("run frame of %d messages, %d pending", n, len(r.compact))
		}
		compact := 0
		for _, c := range r.compact[:n] {
			compact += c
		}
		r.compact = r.compact[n:]
		ft := accp.MeasureFrame(line)
		r.out.Frames++
		r.out.ACCP += ft.Total
		r.out.Envelope += ft.Meta
		if ft.Total > compact {
			r.out.Larger++
		}
	}
	return nil
}

func (r *formStream) flush() error {
	if r.runs == nil {
		return nil
	}
	frames, err := r.runs.Flush()
	if err != nil {
		return err
	}
	return r.count(frames)
}

// Stats accumulates token counts per message kind over one or more
// streams, measuring each message twice: whole, and "structural" with the
// verbatim file and terminal content (see Structural) blanked in both the
// JSON and the ACCP form; and each stream, whole and structural, in each
// of Forms.
type Stats struct {
	Kinds      map[string]*Tokens
	Total      Tokens
	Structural Tokens
	// Forms and StructuralForms are Total and Structural written in each
	// of Forms, in that order.
	Forms, StructuralForms []RunTokens

	enc, sEnc     *Encoder
	forms, sForms []*formStream
}

// NewStats returns empty statistics.
func NewStats() *Stats {
	s := &Stats{Kinds: map[string]*Tokens{}, Forms: make([]RunTokens, len(Forms)), StructuralForms: make([]RunTokens, len(Forms))}
	s.start()
	return s
}

// start begins a new stream: fresh ACCP sessions, as a new recording has.
func (s *Stats) start() {
	s.enc, s.sEnc = NewEncoder("stats", Options{}), NewEncoder("stats", Options{})
	s.forms, s.sForms = nil, nil
	for i, f := range Forms {
		s.forms = append(s.forms, newFormStream(f, &s.Forms[i]))
		s.sForms = append(s.sForms, newFormStream(f, &s.StructuralForms[i]))
	}
}

// EndStream ends the current stream (one recording): the pending runs are
// measured and the next message starts new ACCP sessions. Call it after
// each file and before reading Forms and StructuralForms.
func (s *Stats) EndStream() error {
	for _, fs := range append(s.forms, s.sForms...) {
		if err := fs.flush(); err != nil {
			return err
		}
	}
	s.start()
	return nil
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
	for _, fs := range s.forms {
		if err := fs.add(x, l, t); err != nil {
			return fmt.Errorf("%v: %v", fs.form, err)
		}
	}
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
	for _, fs := range s.sForms {
		if err := fs.add(sx, l, st); err != nil {
			return fmt.Errorf("%v: %v", fs.form, err)
		}
	}
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
	t := Tokens{Messages: 1, Pretty: accp.CountTokens(pretty.String()), Compact: accp.CountTokens(string(compact)),
		ACCP: ft.Total, Envelope: ft.Meta}
	if t.ACCP > t.Compact {
		t.Larger = 1
	}
	return t, nil
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
