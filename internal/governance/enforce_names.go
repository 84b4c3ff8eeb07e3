package governance

import (
	"crypto/sha256"
	"fmt"
	"slices"
)

// A tool call may name its tool twice: in ACP's name member (the Tool
// Call Name RFD, stable since September 2026), which an IDE may show, and
// in the agent's _meta (Claude Code's claudeCode.toolName). Both are the
// agent's word, and a name may say another kind than the ACP kind the IDE
// shows (a call of kind edit named Read). The bridge judges the call under
// each reading and the strictest decision holds: a deny rule naming
// mcp__evil__* meets a call whatever field names it, and a write the IDE
// shows as an edit is judged as one whatever tool the agent says it is.

// reading is one way of reading a tool call, and why it is judged, in the
// user's words.
type reading struct {
	req Request
	why string
}

// callReadings returns the readings of full, a call running in cwd: the
// call as its _meta names it, or as ACP's name does when _meta names none
// (ToolCallRequest, the first reading); under ACP's name when that is
// another name; and, for a reading whose tool
// gives it another kind than the call's ACP kind, the call read by its
// ACP fields as of that kind, under the same name.
func callReadings(full ToolCall, cwd string) []reading {
	if full.Tool == "" {
		// ACP's name is the only name: the call is judged under it as
		// under a name from _meta.
		full.Tool = full.Name
	}
	if full.Tool == "" && full.Kind == "other" {
		// Gemini CLI names an MCP tool in the title alone
		// (tool_shownargs.go).
		full.Tool = mcpToolFromTitle(full.Title)
	}
	out := []reading{{req: ToolCallRequest(full, cwd)}}
	if full.Name != "" && full.Name != full.Tool {
		named := full
		named.Tool = full.Name
		out = append(out, reading{req: ToolCallRequest(named, cwd),
			why: fmt.Sprintf("the call names its tool %q, judged under that name too", full.Name)})
	}
	if !shownKinds[full.Kind] {
		return out
	}
	for _, r := range slices.Clone(out) {
		if r.req.Kind == full.Kind || r.req.Tool == "" {
			continue
		}
		byKind := full
		byKind.Tool = r.req.Tool
		out = append(out, reading{req: genericToolRequest(byKind, cwd),
			why: fmt.Sprintf("the call is of kind %q, as the IDE shows it, and names its tool %q, judged as %q", full.Kind, r.req.Tool, r.req.Kind)})
	}
	return out
}

// shownKinds are the ACP kinds under which the engine judges a call's
// paths, command or URL: a tool name that reads the call as another kind
// must not make it judged as less than the IDE shows.
var shownKinds = map[string]bool{"read": true, "edit": true, "delete": true, "move": true, "search": true, "execute": true, "fetch": true}

// joinFingerprints is one fingerprint for a call judged under several
// readings: it changes when any of theirs does.
func joinFingerprints(a, b string) string {
	sum := sha256.Sum256([]byte(a + b))
	return string(sum[:])
}

// intersect is what an approval of a call read two ways covers: what
// both readings' approvals cover; nil when either covers nothing.
func (cv *coverage) intersect(o *coverage) *coverage {
	if cv == nil || o == nil {
		return nil
	}
	out := &coverage{read: cv.read && o.read, write: cv.write && o.write, execute: cv.execute && o.execute && cv.command == o.command && cv.cwd == o.cwd,
		command: cv.command, cwd: cv.cwd}
	for _, p := range cv.paths {
		if slices.Contains(o.paths, p) {
			out.paths = append(out.paths, p)
		}
	}
	return out
}

// shownReading is the reading of full whose title the person is shown: one
// of the ACP kind the IDE shows, so that a call of kind edit the agent
// names Read is not shown as "Read notes.md"; else the first.
func shownReading(full ToolCall, cwd string) Request {
	rs := callReadings(full, cwd)
	for _, r := range rs {
		if full.Kind != "" && r.req.Kind == full.Kind {
			return r.req
		}
	}
	return rs[0].req
}
