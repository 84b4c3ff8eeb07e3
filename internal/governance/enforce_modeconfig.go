package governance

import (
	"bytes"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// A session's mode may be one of the agent's configuration options too:
// the option of the category "mode" (claude-agent-acp's and codex-acp's
// "mode"), which the IDE sets with session/set_config_option. codex-acp
// takes it without a current_mode_update, so the bridge follows the
// option as the wire shows it: a session/set_config_option the agent
// answered without an error (the mode option its answer shows, else the
// request's value when it set the option "mode"), the agent's
// config_option_update, and the configOptions of the result that opened
// a session without modes.

// configMark is in every config_option_update, unless the sender escaped
// characters of it.
var configMark = []byte(`"config_option_update"`)

// setConfigParams are the params of session/set_config_option.
type setConfigParams struct {
	SessionID string `json:"sessionId"`
	ConfigID  string `json:"configId"`
	Value     any    `json:"value"`
}

// onSetConfig keeps the IDE's session/set_config_option until the agent
// answers it (onConfigSet). A request that cannot be read strictly is
// refused (refused is true): the agent may take a mode from it.
func (x *Enforcer) onSetConfig(m *acpwire.Message) (refused bool, err error) {
	var p setConfigParams
	if err := decodeStrict(m, &p); err != nil {
		return true, x.refuseUnreadable(m, err)
	}
	mode, ok := p.Value.(string)
	if !ok || mode == "" {
		mode = ModeUnreadable
	}
	x.mu.Lock()
	x.setModes[string(bytes.TrimSpace(m.ID))] = pendingMode{session: p.SessionID, mode: mode, configID: p.ConfigID, by: actorUser, via: "session/set_config_option"}
	x.mu.Unlock()
	return false, nil
}

// onConfigSet applies an answered session/set_config_option p to its
// session's mode: the mode option the answer shows, else, when p set the
// option "mode", the value it set.
func (x *Enforcer) onConfigSet(p pendingMode, result []byte) {
	if mode, shown := configuredMode(result); shown {
		x.setModeBy(p.session, mode, actorUser, "session/set_config_option")
	} else if p.configID == "mode" {
		x.setModeBy(p.session, p.mode, actorUser, "session/set_config_option")
	}
}

// onConfigUpdate applies the agent's config_option_update u, read
// strictly from a message read strictly, to the session it names.
func (x *Enforcer) onConfigUpdate(u *acpparams.Update) {
	if mode, shown := configuredMode(u.Raw); shown {
		x.setModeBy(u.SessionID, mode, x.agent, "config_option_update")
	}
}

// configuredMode returns the session's mode doc's configOptions show
// (acpparams.ConfigMode), and whether they show one: ModeUnreadable where
// they may show one the bridge cannot read one way only.
func configuredMode(doc []byte) (mode string, shown bool) {
	mode, shown, err := acpparams.ConfigMode(doc)
	if err != nil {
		if shown {
			return ModeUnreadable, true
		}
		return "", false
	}
	return mode, shown
}
