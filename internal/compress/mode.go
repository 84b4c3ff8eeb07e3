package compress

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// modeSet keeps the mode of a session/set_mode the agent answered, m,
// without an error as its session's: the mode the person chose in the IDE.
func (p *Pipeline) modeSet(m *acpwire.Message) {
	if m.Error != nil {
		return
	}
	down, _ := rawjson.GetString(m.Request.Params, "sessionId")
	mode, ok := rawjson.GetString(m.Request.Params, "modeId")
	s := p.lookup(p.ideID(down))
	if s == nil || !ok {
		return
	}
	s.mu.Lock()
	s.mode = mode
	s.mu.Unlock()
}

// restoreMode gives the fresh agent session fresh, which a rollover of s
// opened in mode freshMode (its session/new result's), the mode s had,
// want (read before the session's other settings were restored), also when
// freshMode is want but restoring other settings (moved) may have moved
// the agent's mode (claude-agent-acp leaves a mode the model it is given
// does not offer):
// a fresh session starts in the agent's default mode, while the IDE still
// shows, and the person still means, the one they chose (Plan, or Default
// where the agent's default lets edits run unasked). An agent that shows
// its mode only as the configuration option option (codex-acp) is given
// it back with session/set_config_option, any other with
// session/set_mode. If the agent refuses it, the person is told, and the
// IDE of an agent with modes is told the mode the session is in now; a
// fresh session that shows no mode at all is told to the person too. It
// returns the session's mode from now on.
func (p *Pipeline) restoreMode(ctx context.Context, s *session, fresh, want, freshMode, option string, moved bool) string {
	if want != "" && freshMode == "" {
		// The fresh session shows no mode at all, where the session had
		// one: no way to give it back is known, and the mode the IDE
		// still shows may not hold. The person is told; governance takes
		// the session's mode for one it does not know.
		p.logger.Warn("rollover: the fresh agent session shows no mode", "session", s.ide, "mode", want)
		p.say(s, fmt.Sprintf("> **acp-bridge:** the fresh agent session shows no mode, so the mode %q may not hold in it.\n\n", oneLine(want, 80)))
		return freshMode
	}
	if want == "" || freshMode == "" || want == freshMode && !moved {
		return freshMode
	}
	mode, err := p.setFreshMode(ctx, fresh, want, option)
	if err == nil && mode == want {
		if p.cfg.OnModeRestored != nil {
			p.cfg.OnModeRestored(s.ide, want)
		}
		return want
	}
	if err == nil {
		// The agent answered, in another mode than the person's: that
		// mode is the session's, as governance must know.
		if p.cfg.OnModeRestored != nil {
			p.cfg.OnModeRestored(s.ide, mode)
		}
		err = fmt.Errorf("it shows the mode %q", mode)
		freshMode = mode
	}
	p.logger.Warn("rollover: the fresh agent session did not take the session's mode", "session", s.ide, "mode", want, "err", err)
	if option == "" {
		update := map[string]any{"sessionId": s.ide, "update": map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": freshMode}}
		if nerr := p.s.Notify(acpwire.AgentToClient, "session/update", update); nerr != nil {
			p.logger.Debug("sending the fresh session's mode", "err", nerr)
		}
	}
	p.say(s, fmt.Sprintf("> **acp-bridge:** the fresh agent session did not take the mode %q (%q); it runs in %q.\n\n", want, oneLine(err.Error(), 200), freshMode))
	return freshMode
}

// setFreshMode asks the agent to put its session fresh in mode want:
// through the configuration option option when it has one (the mode the
// answer shows is the mode then, want where it shows none), else with
// session/set_mode. It returns the mode the agent took.
func (p *Pipeline) setFreshMode(ctx context.Context, fresh, want, option string) (string, error) {
	if option == "" {
		_, err := p.s.Call(ctx, acpwire.ClientToAgent, "session/set_mode", map[string]any{"sessionId": fresh, "modeId": want})
		return want, err
	}
	res, err := p.s.Call(ctx, acpwire.ClientToAgent, "session/set_config_option", map[string]any{"sessionId": fresh, "configId": option, "value": want})
	if err != nil {
		return "", err
	}
	mode, shown, rerr := acpparams.ConfigMode(res)
	switch {
	case rerr != nil:
		// An answer read more than one way: no mode the bridge can name.
		return "", fmt.Errorf("its answer shows no mode the bridge can read: %v", rerr)
	case shown:
		return mode, nil
	}
	return want, nil
}

// freshModeOf returns the mode a session opened in (a rollover's fresh
// agent session, or one the IDE opened or loaded), read from the
// session/new, load, resume or fork result res: its modes.currentModeId, or, for
// an agent that shows its mode only as a configuration option (codex-acp:
// configOptions and no modes), that option's current value, with the
// option's id, through which the mode is given back. It returns "" for
// the mode when res shows none, or none the bridge can read.
func freshModeOf(res []byte) (mode, option string) {
	if mode, ok := rawjson.GetString(res, "modes", "currentModeId"); ok {
		return mode, ""
	}
	mode, shown, err := acpparams.ConfigMode(res)
	if err != nil || !shown {
		return "", ""
	}
	return mode, modeOptionID(res)
}

// modeOptionID returns the id of the configuration option of res (a
// session/new result) that holds the session's mode, as acpparams.ConfigMode
// reads it: of the category "mode", or with no category and the id "mode".
func modeOptionID(res []byte) string {
	var r struct {
		ConfigOptions []struct {
			ID       string  `json:"id"`
			Category *string `json:"category"`
		} `json:"configOptions"`
	}
	if json.Unmarshal(res, &r) != nil {
		return ""
	}
	for _, o := range r.ConfigOptions {
		if o.Category != nil && *o.Category == "mode" || o.Category == nil && o.ID == "mode" {
			return o.ID
		}
	}
	return ""
}
