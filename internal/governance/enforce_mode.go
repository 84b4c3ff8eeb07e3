package governance

import (
	"bytes"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// A session's mode is the agent's permission mode in it (Claude's
// "default", "acceptEdits", "bypassPermissions", ...), which decides
// whether the agent asks the person before running a tool its hook sent
// to the person (see adapter.PolicyDeciderIn). The bridge follows it as
// the wire shows it: the modes.currentModeId of a session/new, load,
// resume or fork result, the modeId of a session/set_mode the agent
// answered without an error, and the agent's current_mode_update.

// ModeUnreadable is the mode of a session whose mode the agent or the IDE
// set in a message the bridge could not read (a current_mode_update with
// no string currentModeId, or one that could be read more than one way):
// no agent has a mode by that name, so it is never one known to ask.
const ModeUnreadable = "(unreadable)"

// modeMark is in every current_mode_update, unless the sender escaped
// characters of it (then the message holds a backslash-u, which onUpdate
// reads on anyway).
var modeMark = []byte(`"current_mode_update"`)

// setModeParams are the params of session/set_mode.
type setModeParams struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

// pendingMode is a session/set_mode or session/set_config_option
// (configID names its option) the agent has not answered yet, or a
// rollover's restoring of the session's mode (rolloverKey), and who asks
// for it, how.
type pendingMode struct {
	session, mode string
	configID      string
	by            audit.Actor
	via           string
}

// rolloverKey is the key of session sid's pending restore of its mode in
// Enforcer.setModes: no JSON-RPC id is written so.
func rolloverKey(sid string) string { return "rollover:" + sid }

// viaRestore says how a rollover changed a session's mode.
const viaRestore = "the session's mode, restored after a rollover"

// onSetMode keeps the IDE's session/set_mode until the agent answers it
// (onModeSet): a mode the agent refused is not its mode. Until then the
// hook payload's own permission_mode tells the mode Claude is in. A
// request that cannot be read strictly is refused (refused is true).
func (x *Enforcer) onSetMode(m *acpwire.Message) (refused bool, err error) {
	var p setModeParams
	if err := decodeStrict(m, &p); err != nil {
		return true, x.refuseUnreadable(m, err)
	}
	mode := p.ModeID
	if mode == "" {
		mode = ModeUnreadable // if the agent takes it, it is in a mode the bridge cannot name
	}
	x.mu.Lock()
	x.setModes[string(bytes.TrimSpace(m.ID))] = pendingMode{session: p.SessionID, mode: mode, by: actorUser, via: "session/set_mode"}
	x.mu.Unlock()
	return false, nil
}

// onModeSet applies an answered session/set_mode or
// session/set_config_option to its session.
func (x *Enforcer) onModeSet(m *acpwire.Message) {
	key := string(bytes.TrimSpace(m.Request.ID))
	x.mu.Lock()
	p, ok := x.setModes[key]
	delete(x.setModes, key)
	x.mu.Unlock()
	if !ok || m.Error != nil {
		return
	}
	if p.configID != "" {
		x.onConfigSet(p, m.Result)
		return
	}
	x.setModeBy(p.session, p.mode, actorUser, "session/set_mode")
}

// onModeUpdate applies the agent's current_mode_update u, read strictly
// from a message read strictly, to the session it names.
func (x *Enforcer) onModeUpdate(u *acpparams.Update) {
	var v struct {
		CurrentModeID *string `json:"currentModeId"`
	}
	mode := ModeUnreadable
	if unmarshalStrict(u.Raw, &v) == nil && v.CurrentModeID != nil && *v.CurrentModeID != "" {
		mode = *v.CurrentModeID
	}
	x.setModeBy(u.SessionID, mode, x.agent, "current_mode_update")
}

// onUnreadableModeUpdate marks the mode of every session an update that
// could not be read strictly names as unreadable, if any reading of it
// is a current_mode_update or a config_option_update: the IDE may have
// read another mode from it than the bridge would.
func (x *Enforcer) onUnreadableModeUpdate(params []byte) {
	if !bytes.Contains(params, modeMark[1:len(modeMark)-1]) && !bytes.Contains(params, configMark[1:len(configMark)-1]) &&
		!bytes.Contains(params, escapeMark) {
		return
	}
	may := false
	readable := eachNamed(params, "update", func(update []byte) bool {
		return eachNamed(update, "sessionUpdate", func(v []byte) bool {
			if s, ok := rawjson.String(v); !ok || s == "current_mode_update" || s == "config_option_update" {
				may = true
			}
			return true
		})
	})
	if !may && readable {
		return
	}
	eachNamed(params, "sessionId", func(v []byte) bool {
		if sid, ok := rawjson.String(v); ok {
			x.setModeBy(sid, ModeUnreadable, x.agent, "a mode update the bridge could not read")
		}
		return true
	})
}

// setModeBy sets the mode of session sid, if the bridge keeps the session
// (what the agent names does not make the bridge keep anything), and
// records a change in the audit log as who changed it, and how. A change
// the agent shows (by is x.agent) to the mode the IDE's pending
// session/set_mode or session/set_config_option of the session asks for
// is the person's: claude-agent-acp sends its update before its answer.
func (x *Enforcer) setModeBy(sid, mode string, by audit.Actor, via string) {
	x.mu.Lock()
	s := x.sessions[sid]
	from, changed := "", s != nil && s.mode != mode
	if changed {
		from, s.mode = s.mode, mode
		if by == x.agent && mode != ModeUnreadable {
			for _, p := range x.setModes {
				// Only a request for the mode: an option of another kind
				// may share a mode's name ("default").
				if p.session == sid && p.mode == mode && (p.configID == "" || p.configID == "mode") {
					by, via = p.by, p.via+", shown by the agent's "+via+" before its answer"
					break
				}
			}
		}
	}
	x.mu.Unlock()
	if changed {
		x.append(audit.Event{Actor: by, Action: "session.mode", Subject: audit.Subject{Kind: "session", Ref: sid},
			Input: map[string]any{"mode": mode, "from": from, "via": via}, Metadata: map[string]any{"session": sid}})
	}
}

// setMode sets the mode of session sid as setModeBy does, without a
// record: for tests that put a session in a mode.
func (x *Enforcer) setMode(sid, mode string) {
	x.mu.Lock()
	if s := x.sessions[sid]; s != nil {
		s.mode = mode
	}
	x.mu.Unlock()
}

// ContinuedIn applies result, the agent's answer to the session/new that
// context compression sent to continue the IDE's session sid in a fresh
// agent session (a rollover), which no middleware sees: the session's
// mode is the fresh session's from now on, as for any session/new result
// (openedMode). It is safe for concurrent use.
//
// The mode the session had is what the rollover gives the fresh session
// back (ModeRestoredIn): until then, the agent's update to it is the
// bridge's restore. A fresh session whose result shows no mode, where the
// session had one, is in a mode the bridge does not know (ModeUnreadable),
// not in the none of an agent without modes, whose permission requests the
// policy answers: the IDE still shows the mode the person chose.
func (x *Enforcer) ContinuedIn(sid string, result []byte) {
	fresh := openedMode(result)
	x.mu.Lock()
	if s := x.sessions[sid]; s != nil && s.mode != fresh && s.mode != "" {
		x.setModes[rolloverKey(sid)] = pendingMode{session: sid, mode: s.mode, by: actorBridge, via: viaRestore}
		if fresh == "" {
			fresh = ModeUnreadable
		}
	}
	x.mu.Unlock()
	x.setModeBy(sid, fresh, actorBridge, "the fresh agent session a rollover opened")
}

// ModeRestoredIn applies mode, which the agent took in the fresh agent
// session continuing the IDE's session sid when context compression's
// rollover gave it back the session's mode (a session/set_mode no
// middleware sees). It is safe for concurrent use.
func (x *Enforcer) ModeRestoredIn(sid, mode string) {
	x.mu.Lock()
	delete(x.setModes, rolloverKey(sid))
	x.mu.Unlock()
	x.setModeBy(sid, mode, actorBridge, viaRestore)
}

// openedMode returns the modes.currentModeId of a session/new, load,
// resume or fork result: "" when the result has no modes (the agent has
// none), ModeUnreadable when it has modes without a string currentModeId.
func openedMode(result []byte) string {
	var r struct {
		Modes *struct {
			CurrentModeID *string `json:"currentModeId"`
		} `json:"modes"`
	}
	if unmarshalStrict(result, &r) != nil {
		return ModeUnreadable
	}
	switch {
	case r.Modes == nil:
		mode, _ := configuredMode(result)
		return mode
	case r.Modes.CurrentModeID == nil || *r.Modes.CurrentModeID == "":
		return ModeUnreadable
	}
	return *r.Modes.CurrentModeID
}
