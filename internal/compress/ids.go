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
