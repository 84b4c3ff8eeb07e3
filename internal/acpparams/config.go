package acpparams

import (
	"bytes"
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
)

// ErrModeUnclear is ConfigMode's error for a configOptions list that may
// show the mode more than one way.
var ErrModeUnclear = errors.New("acpparams: the configuration options may show the mode more than one way")

// ConfigMode reads the session's mode from doc's configOptions (a
// session/new or session/set_config_option result, or a
// config_option_update): the current value of the option of the category
// "mode" or, with no category, of the id "mode", as claude-agent-acp and
// codex-acp show it. shown is false when doc shows none. It reads strictly,
// as the IDE does: a doc that cannot be read one way only (a member named
// twice, names in another case do not count) is an error, and so is a
// category that is not a string, a mode option whose value is not a
// non-empty string, or two mode options that differ (ErrModeUnclear); shown
// is then whether doc may show one (it names configOptions, or escapes a
// name).
func ConfigMode(doc []byte) (mode string, shown bool, err error) {
	var d struct {
		ConfigOptions []struct {
			ID           any `json:"id"`
			Category     any `json:"category"`
			CurrentValue any `json:"currentValue"`
		} `json:"configOptions"`
	}
	if err := jsonv2.Unmarshal(doc, &d); err != nil {
		return "", bytes.Contains(doc, []byte(`"configOptions"`)) || bytes.Contains(doc, []byte(`\u`)), err
	}
	for _, o := range d.ConfigOptions {
		category, named := o.Category.(string)
		switch {
		case o.Category == nil && o.ID == "mode", named && category == "mode":
		case o.Category == nil, named:
			continue
		default:
			return "", true, ErrModeUnclear // a category the bridge cannot read may be "mode"
		}
		v, ok := o.CurrentValue.(string)
		if !ok || v == "" || shown && v != mode {
			return "", true, ErrModeUnclear
		}
		mode, shown = v, true
	}
	return mode, shown, nil
}
