package governance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/audit"
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
// title the agent gave (see shownTitle).
func (x *Enforcer) judgedTitle(sid string, full ToolCall) (string, bool) {
	cwd, roots := x.sessionContext(sid)
	return shownTitle(shownReading(full, cwd), cwd, roots)
}

// shownTitle returns the title the IDE must show for a permission request
// about a call judged as req in a session whose cwd is cwd, and whether it
// differs from the agent's title (req.Title). The person reads the title
// and nothing of the rawInput: Zed hides it for an execute or edit call
// and for one with diff content, and keeps it behind a closed "View Raw
// Input" for the others. So the title shows everything the call was
// judged on: its command, the directory it runs in when that is not the
// session's, its paths and its URL, and where a path or the directory
// leads when it is a link (leadsTo): a write to notes.md, a link to
// drafts/plan.md, writes drafts/plan.md.
//
// The agent's title stays when it already does: for an execute call
// judged on its command alone, the title that reads as the command
// (titleCommand) and shows it as it is (the code span commandTitle makes,
// or the command itself when nothing in it is Markdown); for a call
// judged on no command, a title that reads as it shows and shows every
// path and the URL as names of their own (showsName); in neither case may
// a path or the directory lead elsewhere. Otherwise the title is the
// command in a code span ("Run" before it for a call of another kind than
// execute), "in" its directory, the call's kind and each path, each with
// where it leads, and "Fetch" and the URL, joined by "; ". roots are the
// session's workspace roots, shown as the person named them.
//
// A call whose input names other commands (req.OtherCommands) shows each,
// joined by "or"; one whose input holds members the bridge does not read
// (req.UnreadInput) shows each after the rest, "input", its name and its
// text, since the agent may run that text.
//
// A command given with args (req.Argv) is shown as the line they join into
// unquoted too, when that differs, since an agent may run either.
func shownTitle(req Request, cwd string, roots []string) (string, bool) {
	if len(req.Argv) > 1 {
		if j := strings.Join(req.Argv, " "); j != req.Command && !slices.Contains(req.OtherCommands, j) {
			req.OtherCommands = append(slices.Clone(req.OtherCommands), j)
		}
	}
	title, changed := shownJudged(req, cwd, roots)
	if len(req.UnreadInput) == 0 {
		return title, changed
	}
	if !changed {
		title = req.Title
	}
	parts := []string{title}
	if title == "" {
		parts = nil
	}
	for _, m := range req.UnreadInput {
		parts = append(parts, "input "+commandTitle(m.Key)+" "+commandTitle(m.Text))
	}
	return strings.Join(parts, "; "), true
}

// shownJudged is shownTitle for every member of req but its UnreadInput.
func shownJudged(req Request, cwd string, roots []string) (string, bool) {
	if req.Command == "" && req.URL == "" {
		return pathsTitle(req, cwd, roots)
	}
	paths, dir := req.Paths, ""
	if req.Command != "" {
		paths, dir = commandPlace(req, cwd)
	}
	if req.Kind == "execute" && req.Command != "" && len(paths) == 0 && dir == "" && len(req.OtherCwds) == 0 && req.URL == "" &&
		len(req.OtherCommands) == 0 {
		shown := commandTitle(req.Command)
		if titleCommand(req.Title) == req.Command && (req.Title == shown || showsAsItReads(req.Command)) {
			return "", false
		}
		return shown, true
	}
	if req.Command == "" && showsAsItReads(req.Title) && showsName(req.Title, req.URL) && showsPaths(req.Title, paths, cwd) &&
		!leadElsewhere(paths, cwd, roots) {
		return "", false
	}
	var parts []string
	if req.Command != "" {
		p := commandTitle(req.Command)
		for _, c := range req.OtherCommands {
			p += " or " + commandTitle(c)
		}
		if req.Kind != "execute" {
			p = "Run " + p
		}
		if dir != "" || len(req.OtherCwds) > 0 {
			p += " in " + shownDirs(req, dir, cwd, roots)
		}
		parts = append(parts, p)
	}
	if len(paths) > 0 {
		parts = append(parts, pathsPart(req.Kind, paths, cwd, roots))
	}
	if req.URL != "" {
		parts = append(parts, "Fetch "+commandTitle(req.URL))
	}
	return strings.Join(parts, "; "), true
}

// shownDirs shows the directories a command judged as req runs in: dir
// (the session's cwd when it is ""), then each of req.OtherCwds, joined by
// "or", each with where it leads.
func shownDirs(req Request, dir, cwd string, roots []string) string {
	if dir == "" {
		dir = cwd
	}
	var shown []string
	for _, d := range append([]string{dir}, req.OtherCwds...) {
		shown = append(shown, commandTitle(displayPath(d, cwd))+leadsTo(cleanAbs(d, cwd), cwd, roots))
	}
	return strings.Join(shown, " or ")
}

// commandPlace returns the paths of req, a call judged on a command, other
// than the directory the command runs in, and that directory when it is
// not cwd, the session's ("" when it is).
func commandPlace(req Request, cwd string) (paths []string, dir string) {
	here := cleanAbs(cwd, "")
	runs := cleanAbs(req.Cwd, cwd)
	if runs != "" && runs != here {
		dir = req.Cwd
	}
	for _, p := range req.Paths {
		if c := cleanAbs(p, cwd); p != "" && c != here && c != runs {
			paths = append(paths, p)
		}
	}
	return paths, dir
}

// pathsTitle returns the title the IDE must show for a permission request
// about a call the bridge judged on the paths of req (a rawInput member,
// a location, a diff's path), and whether it differs from the agent's.
// Zed shows an edit call's title and its diffs, and the rawInput only on
// request, so a call titled "Edit README.md" whose rawInput.file_path is
// drafts/plan.md had the person approve a write they were not shown. The
// agent's title stays when it shows every judged path, as written relative
// to the session's cwd (Claude Code's "Edit src/a.go") or whole, and reads
// as it shows; otherwise the title is the call's kind and each path in a
// code span ("Edit `drafts/plan.md`").
func pathsTitle(req Request, cwd string, roots []string) (string, bool) {
	var paths []string
	for _, p := range req.Paths {
		if p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 || showsAsItReads(req.Title) && showsPaths(req.Title, paths, cwd) && !leadElsewhere(paths, cwd, roots) {
		return "", false
	}
	return pathsPart(req.Kind, paths, cwd, roots), true
}

// leadElsewhere reports whether one of paths, as the file system resolves
// it now, is another path than as written (leadsTo), or a file with other
// names (namesNote).
func leadElsewhere(paths []string, cwd string, roots []string) bool {
	for _, p := range paths {
		if p != "" && leadsTo(p, cwd, roots)+namesNote(p) != "" {
			return true
		}
	}
	return false
}

// namesNote returns " (a file with other names too)" when p leads to a
// regular file with more than one hard link, else "": the file is another
// file's content under this name (notes.md linked to drafts/plan.md), and
// a person approving a write to notes.md is approving one to both. Which
// other names it has is nowhere in the request; the bridge asks about
// such a file for that reason (rule hard-link), and the title says it.
func namesNote(p string) string {
	if !filepath.IsAbs(p) {
		return ""
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || !hasLinks(fi) {
		return ""
	}
	return " (a file with other names too)"
}

// showsPaths reports whether title shows each of paths as a name of its
// own, relative to cwd or whole.
func showsPaths(title string, paths []string, cwd string) bool {
	for _, p := range paths {
		if p != "" && !showsName(title, displayPath(p, cwd)) && !showsName(title, p) {
			return false
		}
	}
	return true
}

// pathsPart names paths for a call of kind: its verb and each path,
// relative to cwd when beneath it, in a code span, with where it leads
// when it is a link ("Edit `a.go`, `notes.md` (leads to `drafts/plan.md`)").
func pathsPart(kind string, paths []string, cwd string, roots []string) string {
	var b strings.Builder
	b.WriteString(kindVerb(kind))
	n := 0
	for _, p := range paths {
		if p == "" {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" " + shownPath(p, cwd, roots))
		n++
	}
	return b.String()
}

// shownPath is p as a title shows it: relative to cwd when beneath it, in
// a code span, with where it leads when that is elsewhere (leadsTo) and a
// note when the file has other names too (namesNote).
func shownPath(p, cwd string, roots []string) string {
	return commandTitle(displayPath(p, cwd)) + leadsTo(p, cwd, roots) + namesNote(p)
}

// showsName reports whether title shows name as the file (or address) it
// is about, and no other: name comes first in the title, or after one
// word of letters and a space ("Read src/a.go"), an opening quote or
// parenthesis allowed right before it; after it come the title's end, a
// closing quote or parenthesis or a sentence's punctuation followed by the
// end or a space ("src/a.go: x => y"), or a note in parentheses that ends
// the title (Claude Code's lines read, " (1 - 50)"). A person reads a name a title shows to
// its edges, spaces included, as names hold them: "Write
// notes/drafts/plan.md", "Write drafts/plan.md.bak", "Write old
// drafts/plan.md" (a directory "old drafts") and "Write drafts/plan.md
// copy.md" each show another file than drafts/plan.md, though all hold it.
// A name that itself starts or ends with such punctuation is never shown
// this way: "plan." at a sentence's end reads as "plan".
func showsName(title, name string) bool {
	if name == "" || strings.ContainsAny(name[:1], openers) || strings.ContainsAny(name[len(name)-1:], closers) {
		return false
	}
	for from := 0; ; {
		i := strings.Index(title[from:], name)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(name)
		if leadsToName(title[:start]) && endsName(title[end:]) {
			return true
		}
		from = start + 1
	}
}

// leadsToName reports whether p, what a title holds before a name, leaves
// the name standing alone: nothing, or one word of ASCII letters and a
// space, either followed by one opening quote or parenthesis.
func leadsToName(p string) bool {
	if p != "" && strings.IndexByte(openers, p[len(p)-1]) >= 0 {
		p = p[:len(p)-1]
	}
	if p == "" {
		return true
	}
	word, ok := strings.CutSuffix(p, " ")
	if !ok || word == "" {
		return false
	}
	for i := 0; i < len(word); i++ {
		if c := word[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// noteAfterName matches a note in parentheses that ends a title after its
// path, as Claude Code's Read title notes the lines read (" (1 - 50)");
// anything after the parenthesis could be more of a name ("plan.md
// (copy).md").
var noteAfterName = regexp.MustCompile(`^ \([^()]*\)$`)

// endsName reports whether s, what a title holds after a name, ends the
// name there (see showsName).
func endsName(s string) bool {
	switch {
	case s == "":
		return true
	case strings.IndexByte(closers, s[0]) >= 0:
		return len(s) == 1 || s[1] == ' '
	}
	return noteAfterName.MatchString(s)
}

// openers may stand right before a name a title shows, closers right
// after it (followed by a space or the title's end).
const (
	openers = "(\"'"
	closers = ")\"'.,;:!?"
)

// displayPath is p relative to cwd when it lies beneath it, else p.
func displayPath(p, cwd string) string {
	if cwd != "" {
		if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(cwd, "/")+"/"); ok && rel != "" {
			return rel
		}
	}
	return p
}

// kindVerb names what a call of an ACP tool kind does to its paths.
func kindVerb(kind string) string {
	switch kind {
	case "read":
		return "Read"
	case "edit":
		return "Edit"
	case "delete":
		return "Delete"
	case "move":
		return "Move"
	case "search":
		return "Search"
	}
	return "Use"
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
	if audit.Printable(text) != text {
		return false
	}
	for i, r := range text {
		switch {
		case strings.ContainsRune("\\`*[]~<", r):
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

// commandTitle is the title showing command as the bridge read it: a
// Markdown code span (the IDE renders a title as Markdown, and a code span
// shows its text as it is) of the command with every character that
// displays otherwise than it reads escaped as the audit log's views escape
// it (audit.Printable: \n, \t, \x1b, \u{202E}), delimited by one backtick
// more than its longest run of them.
func commandTitle(command string) string {
	text := audit.Printable(command)
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
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
