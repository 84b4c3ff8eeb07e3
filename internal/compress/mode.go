package compress

import (
	"context"
	"fmt"

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
// where the agent's default lets edits run unasked). If the agent refuses
// it, the IDE is told the mode the session is in now, and so is the
// person. It returns the session's mode from now on.
func (p *Pipeline) restoreMode(ctx context.Context, s *session, fresh, want, freshMode string, moved bool) string {
	if want == "" || freshMode == "" || want == freshMode && !moved {
		return freshMode
	}
	_, err := p.s.Call(ctx, acpwire.ClientToAgent, "session/set_mode", map[string]any{"sessionId": fresh, "modeId": want})
	if err == nil {
		if p.cfg.OnModeRestored != nil {
			p.cfg.OnModeRestored(s.ide, want)
		}
		return want
	}
	p.logger.Warn("rollover: the fresh agent session did not take the session's mode", "session", s.ide, "mode", want, "err", err)
	update := map[string]any{"sessionId": s.ide, "update": map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": freshMode}}
	if nerr := p.s.Notify(acpwire.AgentToClient, "session/update", update); nerr != nil {
		p.logger.Debug("sending the fresh session's mode", "err", nerr)
	}
	p.say(s, fmt.Sprintf("> **acp-bridge:** the fresh agent session did not take the mode %q (%q); it runs in %q.\n\n", want, oneLine(err.Error(), 200), freshMode))
	return freshMode
}
