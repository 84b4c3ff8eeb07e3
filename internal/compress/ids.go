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

// refuseContinuation answers m, a request of the IDE's, with an error when
// its params name an agent session a rollover opened (the session the
// bridge continues another of the IDE's sessions in), which the IDE may
// have found in the agent's session/list: loaded, resumed or prompted
// under that id, the agent's messages in it would reach the IDE, and
// governance, as the continued session's, and the person's prompts in the
// two would share one agent session. It reports whether it answered.
func (p *Pipeline) refuseContinuation(m *acpwire.Message) (bool, error) {
	id, ok := rawjson.GetString(m.Params, "sessionId")
	if !ok {
		return false, nil
	}
	p.mu.Lock()
	ide, continued := p.downToIDE[id]
	p.mu.Unlock()
	if !continued || ide == id {
		return false, nil
	}
	p.logger.Warn("refused an IDE request naming the agent session a rollover opened", "method", m.Method, "session", id, "continues", ide)
	return true, p.s.ReplyError(m, acpwire.Errorf(acpwire.CodeInvalidParams,
		"acp-bridge: session %q is the agent session the bridge continues session %q in since a context rollover; use session %q", id, ide, ide))
}
