package governance

import (
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// checkWithheld refuses m, an agent's request or notification that needs a
// capability the manifest withholds (fs/*, terminal/*), before it is
// judged, records the refusal and answers a request as manifest.Mask does.
// Mask sits nearer the IDE than governance, so without this the log held a
// decision allowing a write or a terminal that never happened (or the
// person was asked about it), and no record of the refusal. It reports
// whether it refused m.
func (x *Enforcer) checkWithheld(m *acpwire.Message) (bool, error) {
	mf := x.opts.Manifest
	if mf == nil || m.Dir != acpwire.AgentToClient || m.Kind != acpwire.KindRequest && m.Kind != acpwire.KindNotification {
		return false, nil
	}
	c, withheld := mf.WithheldMethod(m.Dir, m.Method)
	if !withheld {
		return false, nil
	}
	sid, _ := m.GetString("params", "sessionId")
	d := Decision{Value: Deny, Ref: "manifest", Rule: fmt.Sprintf("the manifest %s does not grant %s", mf.ID, c.ACPField()),
		Reason: fmt.Sprintf("%s needs %s, which the bridge's manifest (%s) does not grant", m.Method, c.ACPField(), mf.ID)}
	x.refuseMessage(m, sid, d)
	if m.Kind != acpwire.KindRequest {
		return true, nil
	}
	return true, x.send.ReplyError(m, mf.WithheldError(c, m.Method))
}
