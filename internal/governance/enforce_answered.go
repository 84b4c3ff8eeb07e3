package governance

import (
	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Answered hears of the IDE's request req, which the bridge answered in the
// agent's place with resp (register it as acpwire.Options.OnAnswered):
// context compression refusing a load of the agent session a rollover
// opened, or answering one of its quick commands, the agent adapter
// refusing a session it cannot apply the policy to, a middleware's error.
// Those answers are given by middleware nearer the agent, so the response
// never passes the enforcer on its way to the IDE; without Answered, a
// session/load the IDE reads as failed would stay open here, and the agent
// could reach the IDE in its name (its updates, the bridge's notes), and a
// turn the IDE reads as ended would keep its approvals. The request is
// settled as the agent's own answer would have settled it. Answered is safe
// for concurrent use and keeps neither req nor resp.
func (x *Enforcer) Answered(req *acpwire.Message, resp []byte) {
	if req == nil || req.Dir != acpwire.ClientToAgent {
		return
	}
	if _, failed := rawjson.Get(resp, "error"); failed {
		x.answeredInPlace(req)
		return
	}
	result, _ := rawjson.Get(resp, "result")
	switch req.Method {
	case "session/prompt":
		stop, _ := rawjson.GetString(result, "stopReason")
		x.endTurn(req, false, stop)
	case "session/new", "session/load", "session/resume", "session/fork":
		rid, _ := rawjson.GetString(result, "sessionId")
		x.settleOpen(req, false, rid, result)
	}
}
