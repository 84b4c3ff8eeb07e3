package audit

import "encoding/json"

// Targets are the path and command arguments of a tool call, under the
// names agents give them.
type Targets struct {
	Path     string `json:"path"`
	FilePath string `json:"file_path"`
	AbsPath  string `json:"absolute_path"`
	Command  string `json:"command"`
}

// Targets decodes the path and command arguments e names: its tool call's
// arguments, or without them its input. When those are not a JSON object
// of strings, the error is encoding/json's and the members it could decode
// are set.
func (e *Entry) Targets() (Targets, error) {
	args := e.Input
	if tc := e.ToolCall; tc != nil && len(tc.Arguments) > 0 {
		args = tc.Arguments
	}
	var a Targets
	if len(args) == 0 {
		return a, nil
	}
	err := json.Unmarshal(args, &a)
	return a, err
}
