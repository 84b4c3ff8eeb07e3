package compress

import (
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// ideID maps a downstream session id to the IDE's.
func (p *Pipeline) ideID(down string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id, ok := p.downToIDE[down]; ok {
		return id
	}
	return down
}

// IDESession returns the IDE's id for the agent's session down: after a
// rollover the agent works in a session the bridge opened (its own
// session/new), which the IDE and governance know by the id of the
// session it continues; any other id is returned as it is. What the agent
// reports outside the wire (Claude's hook payload) names the agent's
// session. IDESession is safe for concurrent use.
func (p *Pipeline) IDESession(down string) string { return p.ideID(down) }

// translate rewrites params.sessionId of m through table, if present.
func (p *Pipeline) translate(m *acpwire.Message, toAgent bool) (*acpwire.Message, error) {
	if m.Kind != acpwire.KindRequest && m.Kind != acpwire.KindNotification {
		return m, nil
	}
	p.mu.Lock()
	table := p.downToIDE
	if toAgent {
		table = p.ideToDown
	}
	if len(table) == 0 {
		p.mu.Unlock()
		return m, nil
	}
	id, ok := rawjson.GetString(m.Params, "sessionId")
	to, mapped := table[id]
	p.mu.Unlock()
	if !ok || !mapped || to == id {
		return m, nil
	}
	return m.PatchJSON(to, "params", "sessionId")
}
