package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"time"
)

// Script is the scripted main conversation: one Step per model turn.
type Script struct {
	// Steps are served in order, one per main-conversation request.
	Steps []Step `json:"steps"`
	// Done is the text served once every step has been used; optional, if
	// empty it is "(fake model: script finished)".
	Done string `json:"done,omitempty"`
}

// Step is one model turn: text, a tool call, or both (text first). A step
// with neither answers with an empty text block.
type Step struct {
	// Text is the assistant text of the turn.
	Text string `json:"text,omitempty"`
	// Tool, when set, makes the turn end with a tool call, so the agent runs
	// the tool and sends its result in the next request.
	Tool *ToolCall `json:"tool,omitempty"`
	// Delay holds the answer back this long (a Go duration such as "2s")
	// after the response headers have been sent.
	Delay Duration `json:"delay,omitempty"`
	// Hang makes the server send the response headers and then never
	// finish the answer until the client goes away or the server closes: an
	// agent stays mid-turn for as long as the test wants.
	Hang bool `json:"hang,omitempty"`
}

// ToolCall is a tool use the model asks for, with the agent's own tool name.
type ToolCall struct {
	// Name is the agent's tool name, e.g. "Read" for Claude or "read_file"
	// for Gemini.
	Name string `json:"name"`
	// Input is the tool's arguments as a JSON object.
	Input json.RawMessage `json:"input"`
	// Fill, when set, is a regular expression with one group: each
	// "{{fill}}" in Input becomes the text of that group where it first
	// matches the request's body, as a model copies a path out of its
	// context (a file the bridge named, say). Without a match, Input is
	// sent as it is, and the agent's tool fails on it visibly.
	Fill string `json:"fill,omitempty"`
}

// filled returns st with its tool input filled from the request body
// (see ToolCall.Fill).
func (st Step) filled(body []byte) Step {
	if st.Tool == nil || st.Tool.Fill == "" {
		return st
	}
	re, err := regexp.Compile(st.Tool.Fill)
	if err != nil || re.NumSubexp() < 1 {
		return st
	}
	m := re.FindSubmatch(body)
	if m == nil {
		return st
	}
	// The body is JSON, so the group's text is escaped as the input's
	// strings are: it goes in as it is.
	tool := *st.Tool
	tool.Input = bytes.ReplaceAll(tool.Input, []byte("{{fill}}"), m[1])
	st.Tool = &tool
	return st
}

// Duration is a time.Duration that reads and writes as a Go duration string.
type Duration time.Duration

// MarshalJSON writes d as a duration string such as "1.5s".
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a duration string such as "1.5s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"2s\": %v", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Text returns a step that answers with text only.
func Text(s string) Step { return Step{Text: s} }

// Tool returns a step that asks for one tool call; input is marshalled to JSON
// and must marshal to an object.
func Tool(name string, input any) Step {
	b, err := json.Marshal(input)
	if err != nil || len(b) == 0 || b[0] != '{' {
		// A programming error in a test: make it visible in the request
		// the agent receives rather than panicking.
		b = []byte(`{}`)
	}
	return Step{Tool: &ToolCall{Name: name, Input: b}}
}

// ReadScript reads a Script from a JSON file.
func ReadScript(path string) (Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("reading script: %w", err)
	}
	s, err := ParseScript(b)
	if err != nil {
		return Script{}, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// ParseScript parses a Script from JSON. A tool call needs a name; its input,
// when given, must be a JSON object, and defaults to {}.
func ParseScript(b []byte) (Script, error) {
	var s Script
	if err := json.Unmarshal(b, &s); err != nil {
		return Script{}, err
	}
	for i, st := range s.Steps {
		if st.Tool == nil {
			continue
		}
		if st.Tool.Name == "" {
			return Script{}, fmt.Errorf("step %d: tool call without a name", i)
		}
		if st.Tool.Fill != "" {
			if re, err := regexp.Compile(st.Tool.Fill); err != nil || re.NumSubexp() < 1 {
				return Script{}, fmt.Errorf("step %d: fill must be a regular expression with a group (%v)", i, err)
			}
		}
		in := bytes.TrimSpace(st.Tool.Input)
		if len(in) == 0 || string(in) == "null" {
			s.Steps[i].Tool.Input = json.RawMessage(`{}`)
			continue
		}
		if in[0] != '{' {
			return Script{}, fmt.Errorf("step %d: tool input must be a JSON object", i)
		}
	}
	return s, nil
}
