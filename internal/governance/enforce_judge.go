package governance

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A tool call is judged whole, as what it now says it does: the agent's
// fields merged with what the bridge kept of the call (callState.merge),
// asked of the engine as a Request.

// hasValue reports whether raw says something: it is not absent, null or
// an empty object (Claude announces every call with rawInput {}).
func hasValue(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null")) && !bytes.Equal(t, []byte("{}"))
}

// agentToolName reads the agent's own tool name from _meta: Claude Code's
// claudeCode.toolName, or a top-level toolName.
func agentToolName(meta json.RawMessage) string {
	if len(meta) == 0 {
		return ""
	}
	var m struct {
		ClaudeCode struct {
			ToolName string `json:"toolName"`
		} `json:"claudeCode"`
		ToolName string `json:"toolName"`
	}
	if unmarshalStrict(meta, &m) != nil {
		return ""
	}
	if m.ClaudeCode.ToolName != "" {
		return m.ClaudeCode.ToolName
	}
	return m.ToolName
}

// judgeCall decides a tool call as full describes it, under every
// reading of it (callReadings): the strictest decision holds, and the
// call's fingerprint and what an approval covers take in every reading.
// A call's diffs are judged as changes to their paths even when the call
// says it is of another kind. It returns the decision, the request's
// fingerprint and what an approval of it would cover.
func (x *Enforcer) judgeCall(sid string, full ToolCall) (Decision, string, *coverage) {
	cwd, roots := x.sessionContext(sid)
	var d Decision
	var fp string
	var cv *coverage
	for i, r := range callReadings(full, cwd) {
		req := r.req
		req.Roots, req.Session = roots, sid
		dr := x.judgeRequest(req, full)
		if i == 0 {
			d, fp, cv = dr, fingerprint(req, full.DiffPaths), coverageOf(req)
			continue
		}
		if dr.Value.Stricter(d.Value) {
			d = dr
			d.Reason += "; " + r.why
		}
		fp = joinFingerprints(fp, fingerprint(req, full.DiffPaths))
		cv = cv.intersect(coverageOf(req))
	}
	return d, fp, cv
}

// judgeRequest decides req, one reading of the tool call full.
func (x *Enforcer) judgeRequest(req Request, full ToolCall) Decision {
	d := x.decide(req)
	if len(full.DiffPaths) > 0 && !writes(req) {
		edit := Request{Action: ActionToolCall, Kind: "edit", Title: req.Title, Paths: full.DiffPaths, Cwd: req.Cwd, Roots: req.Roots}
		if de := x.decide(edit); de.Value.Stricter(d.Value) {
			d = de
		}
	}
	// Text the call writes may import files into the model's context
	// (WithImports): every string of its input is judged, from the file
	// it names when it names one.
	file := ""
	if len(req.Paths) == 1 {
		file = req.Paths[0]
	}
	return WithImports(x.decide, d, req, file, InputTexts(full.RawInput)...)
}

// tooLargeToJudge is the decision on a call changed after part of it was
// too large to keep.
func tooLargeToJudge(c *callState) Decision {
	return Decision{Value: Deny, Ref: "too-large-to-judge", Rule: "a changed tool call is judged whole",
		Reason: fmt.Sprintf("tool call %s changed after its input, title or paths were too large for the bridge to keep (over %d KiB), so it cannot be judged again", c.id, maxKept>>10)}
}

// noPolicy is the decision without an engine.
var noPolicy = Decision{Value: Allow, Ref: "no-policy", Rule: "no policy loaded (audit only)", Reason: "no policy is loaded"}

// decide asks the engine, or allows when there is none.
func (x *Enforcer) decide(req Request) Decision {
	if x.engine == nil {
		return noPolicy
	}
	return x.engine.decideBrief(req) // the enforcer reads no subject of it
}

// roots returns the engine's configured workspace roots.
func (x *Enforcer) roots() []string {
	if x.engine == nil {
		return nil
	}
	return x.engine.Roots()
}
