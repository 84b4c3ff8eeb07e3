package compress

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A session's settings, besides its mode, are what the person chose for
// it in the IDE: a model (session/set_model) and the values of the
// agent's configuration options (session/set_config_option: Claude's
// model, reasoning effort and subagent, say). A rollover's fresh agent
// session starts with the agent's defaults, while the IDE still shows,
// and the person still means, their choices: the bridge gives the fresh
// session each of them again, in the order the person made them, before
// the prompt reaches it.

// chosenOption is a configuration option the person set and the agent
// took: its id and its value, a string or a boolean.
type chosenOption struct {
	id    string
	value any
}

// settings are the choices a rollover gives the fresh agent session.
type settings struct {
	model   string         // the modelId of the last session/set_model the agent took
	options []chosenOption // the last value of each option set, in the order last set
}

// settingChosen keeps the choice of a session/set_model or
// session/set_config_option that the agent answered, m, without an error,
// in the IDE's words. An option the answer puts in the category "mode" is
// left to the session's mode (restoreMode), which governance follows: the
// bridge never sets a mode the wire did not show it.
func (p *Pipeline) settingChosen(m *acpwire.Message) {
	if m.Error != nil {
		return
	}
	down, _ := rawjson.GetString(m.Request.Params, "sessionId")
	s := p.lookup(p.ideID(down))
	if s == nil {
		return
	}
	if m.IsResponseTo("session/set_model") {
		if model, ok := rawjson.GetString(m.Request.Params, "modelId"); ok {
			s.mu.Lock()
			s.settings.model = model
			s.mu.Unlock()
		}
		return
	}
	var req struct {
		ConfigID string `json:"configId"`
		Value    any    `json:"value"`
	}
	if json.Unmarshal(m.Request.Params, &req) != nil || req.ConfigID == "" || !settingValue(req.Value) {
		return
	}
	if mode, shown, err := acpparams.ConfigMode(m.Result); shown && err == nil {
		s.mu.Lock()
		s.mode = mode // codex-acp takes a mode set so without a current_mode_update
		s.mu.Unlock()
	} else if v, ok := req.Value.(string); ok && req.ConfigID == "mode" && !shown {
		s.mu.Lock()
		s.mode = v
		s.mu.Unlock()
	}
	if req.ConfigID == "mode" || optionsOf(m.Result)[req.ConfigID].Category == "mode" {
		return
	}
	s.mu.Lock()
	s.settings.options = append(slices.DeleteFunc(s.settings.options, func(o chosenOption) bool { return o.id == req.ConfigID }),
		chosenOption{id: req.ConfigID, value: req.Value})
	s.mu.Unlock()
}

// settingValue reports whether v is a value a configuration option takes:
// a string (a select's value id) or a boolean.
func settingValue(v any) bool {
	switch v.(type) {
	case string, bool:
		return true
	}
	return false
}

// shownOption is what a result shows of a configuration option.
type shownOption struct {
	ID           string `json:"id"`
	Category     string `json:"category"`
	CurrentValue any    `json:"currentValue"`
}

// optionsOf reads the configuration options in result's configOptions (a
// session/new or session/set_config_option result) by id; nil where there
// are none.
func optionsOf(result []byte) map[string]shownOption {
	var r struct {
		ConfigOptions []shownOption `json:"configOptions"`
	}
	if json.Unmarshal(result, &r) != nil || len(r.ConfigOptions) == 0 {
		return nil
	}
	options := make(map[string]shownOption, len(r.ConfigOptions))
	for _, o := range r.ConfigOptions {
		options[o.ID] = o
	}
	return options
}

// restoreSettings gives fresh, the agent session a rollover of s opened
// with the session/new result res, the settings of s where res shows
// others, and reports whether it sent any. What the agent refuses is told
// to the person in one note. The
// IDE is not sent the fresh session's options: they would be the agent's
// words in a message the bridge writes, which no middleware reads.
func (p *Pipeline) restoreSettings(ctx context.Context, s *session, fresh string, res json.RawMessage) (sent bool) {
	s.mu.Lock()
	want := settings{model: s.settings.model, options: slices.Clone(s.settings.options)}
	s.mu.Unlock()
	var refused []string
	if want.model != "" {
		if current, _ := rawjson.GetString(res, "models", "currentModelId"); current != want.model {
			sent = true
			_, err := p.s.Call(ctx, acpwire.ClientToAgent, "session/set_model", map[string]any{"sessionId": fresh, "modelId": want.model})
			if err != nil {
				refused = append(refused, fmt.Sprintf("the model %q (%q)", want.model, oneLine(err.Error(), 200)))
			}
		}
	}
	current := optionsOf(res)
	for _, o := range want.options {
		if c, ok := current[o.id]; ok && c.CurrentValue == o.value {
			continue
		}
		params := map[string]any{"sessionId": fresh, "configId": o.id, "value": o.value}
		if _, ok := o.value.(bool); ok {
			params["type"] = "boolean"
		}
		sent = true
		r, err := p.s.Call(ctx, acpwire.ClientToAgent, "session/set_config_option", params)
		if err != nil {
			value, _ := json.Marshal(o.value)
			refused = append(refused, fmt.Sprintf("%s = %s (%q)", quoteName(o.id), oneLine(string(value), 80), oneLine(err.Error(), 200)))
			continue
		}
		if c := optionsOf(r); c != nil {
			current = c
		}
	}
	if len(refused) == 0 {
		return sent
	}
	p.logger.Warn("rollover: the fresh agent session did not take the session's settings", "session", s.ide, "refused", refused)
	p.say(s, fmt.Sprintf("> **acp-bridge:** the fresh agent session did not take %s; it keeps the agent's own choice there.\n\n", strings.Join(refused, ", ")))
	return sent
}

// quoteName quotes an option id the agent chose for a note: on one line.
func quoteName(id string) string { return fmt.Sprintf("%q", oneLine(id, 80)) }
