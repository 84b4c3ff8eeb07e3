package governance

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// When the bridge asks the person about a tool call, the person approves
// what the IDE shows, and the bridge judged what the call runs. For a call
// of kind "execute", Zed shows the tool call's title as the command line
// (render_collapsible_command of the label) with the call's content, and
// never its rawInput ("View Raw Input" is offered for other kinds only);
// the TypeScript SDK's clients show the title too. An agent titling a call
// "touch y" whose rawInput.command is "touch y; python3 x.py" had the
// person approve a line they were never shown, which the agent then ran.
//
// So a permission request the bridge forwards for a call whose judged
// command is not the command its title reads as has its toolCall.title set
// to the judged command (the rest of the message byte for byte), and the
// title shown is recorded with the decision. The person's answer covers
// the title they saw: a title the agent changes while they decide makes
// the answer stale, as a changed input does.

// judgedTitle returns the title the IDE must show for a permission request
// about full, a call in session sid, and whether it differs from the
// title the agent gave. The agent's title stays when it reads as the
// judged command and shows it as it is: the code span commandTitle makes,
// or the command itself when nothing in it is Markdown or displays
// otherwise than it reads.
func (x *Enforcer) judgedTitle(sid string, full ToolCall) (string, bool) {
	cwd, _ := x.sessionContext(sid)
	req := ToolCallRequest(full, cwd)
	if req.Kind != "execute" || req.Command == "" {
		return "", false
	}
	shown := commandTitle(req.Command)
	if titleCommand(full.Title) == req.Command && (full.Title == shown || showsAsItReads(req.Command)) {
		return "", false
	}
	return shown, true
}

// titleCommand reads a title as commandFromTitle reads it: trimmed, and
// without the backticks Claude Code puts around a command.
func titleCommand(title string) string {
	r := Request{Title: title}
	commandFromTitle(&r)
	return r.Command
}

// showsAsItReads reports whether text, rendered as Markdown, shows every
// character as it is: printable, and nothing Markdown reads as markup (an
// escape, a code span, emphasis by * or by _ at a word's edge, a link,
// strikethrough, an HTML tag or entity, a block quote or heading).
func showsAsItReads(text string) bool {
	if strings.HasPrefix(text, ">") || strings.HasPrefix(text, "#") {
		return false
	}
	for i, r := range text {
		switch {
		case strings.ContainsRune("\\`*[]~<", r), hiddenRune(r):
			return false
		case r == '_' && (i == 0 || i == len(text)-1 || !wordByte(text[i-1]) || !wordByte(text[i+1])):
			return false
		case r == '&' && entityAt(text[i:]):
			return false
		}
	}
	return true
}

// wordByte reports whether b is an ASCII letter or digit.
func wordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// entityAt reports whether s starts with an HTML entity reference Markdown
// replaces (&name; or &#digits;).
func entityAt(s string) bool {
	end := strings.IndexByte(s, ';')
	if end < 2 {
		return false
	}
	for i := 1; i < end; i++ {
		if !wordByte(s[i]) && !(i == 1 && s[i] == '#') {
			return false
		}
	}
	return true
}

// hiddenRune reports whether r displays otherwise than it reads: a
// control character (a line break among them), or a formatting character
// (bidirectional overrides and isolates, zero-width joiners and spaces).
func hiddenRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError
}

// commandTitle is the title showing command as the bridge read it: a
// Markdown code span (the IDE renders a title as Markdown, and a code span
// shows its text as it is), delimited by one backtick more than the
// command's longest run of them, with every character that displays
// otherwise than it reads written as an escape (\n, \t, \u{202E}).
func commandTitle(command string) string {
	var b strings.Builder
	longest, run := 0, 0
	for _, r := range command {
		switch {
		case r == '`':
			run++
			longest = max(longest, run)
			b.WriteRune(r)
			continue
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case hiddenRune(r):
			fmt.Fprintf(&b, `\u{%X}`, r)
		default:
			b.WriteRune(r)
		}
		run = 0
	}
	fence := strings.Repeat("`", longest+1)
	text := b.String()
	if longest > 0 || strings.HasPrefix(text, " ") || strings.HasSuffix(text, " ") {
		text = " " + text + " " // a code span drops one space each side
	}
	return fence + text + fence
}

// showJudged returns m, a permission request, with its toolCall.title set
// to title.
func showJudged(m *acpwire.Message, title string) (*acpwire.Message, error) {
	b, err := json.Marshal(title)
	if err != nil {
		return nil, err
	}
	return m.Patch(b, "params", "toolCall", "title")
}
