package governance

import (
	"bytes"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// Zed shows a command the agent runs itself in a terminal of its own
// making: a tool_call whose _meta.terminal_info names a terminal_id has it
// register a display-only terminal under that id in the session's thread,
// fed only by the agent's _meta.terminal_output and terminal_exit, and the
// call's content shows it ({"type": "terminal", "terminalId": ...}).
// claude-agent-acp sends every Bash call so when the IDE advertises
// clientCapabilities._meta.terminal_output, as Zed does. Such a terminal
// runs nothing and shows only what the agent sends it, in the thread of
// the session that named it, where it takes the place of any terminal of
// that id: content showing it is no other session's terminal, nor one the
// IDE made for itself. So, for an IDE that advertises the capability, a
// terminal a tool_call names that way may be shown by the tool calls of
// its session; it is never one the agent may read, wait for, kill or
// release (terminal/*: knownTerminal), and an IDE that does not advertise
// the capability makes none, so there the content is refused as before.

// displaySuffix ends the key (terminalKey) of a display terminal in
// Enforcer.terminals: apart from the IDE's own terminals, and forgotten
// with the session's.
const displaySuffix = "\x00display"

// noteClientCapabilities notes, from the IDE's initialize request m,
// whether the IDE makes display terminals.
func (x *Enforcer) noteClientCapabilities(m *acpwire.Message) {
	v, ok := m.Get("params", "clientCapabilities", "_meta", "terminal_output")
	x.displayTerminals.Store(ok && string(bytes.TrimSpace(v)) == "true")
}

// noteDisplayTerminal records the display terminal a tool_call of session
// sid names in its _meta (meta, nil for none), for an IDE that makes them.
func (x *Enforcer) noteDisplayTerminal(sid string, meta []byte) {
	if len(meta) == 0 || sid == "" || !x.displayTerminals.Load() {
		return
	}
	var m struct {
		TerminalInfo *struct {
			TerminalID *string `json:"terminal_id"`
		} `json:"terminal_info"`
	}
	if unmarshalStrict(meta, &m) != nil || m.TerminalInfo == nil || m.TerminalInfo.TerminalID == nil ||
		*m.TerminalInfo.TerminalID == "" || strings.IndexByte(*m.TerminalInfo.TerminalID, 0) >= 0 {
		return
	}
	x.mu.Lock()
	if x.opened.has(sid) {
		x.rememberTerminalLocked(sid, *m.TerminalInfo.TerminalID+displaySuffix)
	}
	x.mu.Unlock()
}

// shownTerminal reports whether a tool call of session sid may show
// terminal tid: the IDE created it for the session, or it is a display
// terminal a tool_call of the session named.
func (x *Enforcer) shownTerminal(sid, tid string) bool {
	if x.knownTerminal(sid, tid) {
		return true
	}
	if strings.IndexByte(tid, 0) >= 0 {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.terminals[terminalKey(sid, tid)+displaySuffix]
}
