package compress

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// CommandPrefix starts the name of every quick command the bridge answers
// itself. The prefix keeps them apart from the agent's own commands (Claude
// Code already has compact and context).
const CommandPrefix = "bridge-"

// Command is one quick command as offered in available_commands_update.
type Command struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Input       map[string]any `json:"input,omitempty"`
}

// Commands returns the CTX-001 quick commands the bridge answers.
func Commands() []Command {
	return []Command{
		{Name: CommandPrefix + "context", Description: "acp-bridge: context usage and compression status"},
		{Name: CommandPrefix + "compress", Description: "acp-bridge: checkpoint now; your next message continues in a fresh agent session seeded with the summary"},
		{Name: CommandPrefix + "recover", Description: "acp-bridge: search offloaded content and conversation archives", Input: map[string]any{"hint": "topic to search for"}},
		{Name: CommandPrefix + "intent", Description: "acp-bridge: show the preserved session intent"},
		{Name: CommandPrefix + "log", Description: "acp-bridge: show recent compression events"},
	}
}

// parseCommand recognises "/bridge-NAME args" at the start of a prompt.
func parseCommand(text string) (name, arg string, ok bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/"+CommandPrefix) {
		return "", "", false
	}
	t = t[1:]
	name, arg, _ = strings.Cut(t, " ")
	for _, c := range Commands() {
		if c.Name == name {
			return name, strings.TrimSpace(arg), true
		}
	}
	return "", "", false
}

// command answers a quick command as a normal turn: agent_message_chunk
// updates, then the session/prompt response with stopReason end_turn. The
// prompt never reaches the agent.
func (p *Pipeline) command(ctx context.Context, s *session, m *acpwire.Message, name, arg string) error {
	var text string
	switch strings.TrimPrefix(name, CommandPrefix) {
	case "context":
		text = p.contextStatus(s)
	case "compress":
		text = p.forceCompress(s)
	case "recover":
		text = p.recover(arg)
	case "intent":
		s.mu.Lock()
		intent := s.rec.Intent()
		n := s.rec.UserCount()
		s.mu.Unlock()
		if intent == "" {
			text = "No session intent yet: the first message you send becomes it."
		} else {
			text = fmt.Sprintf("**Session intent** (your first request; %d messages so far):\n\n%s", n, quoteBlock(intent))
		}
	case "log":
		text = p.logText(s)
	}
	p.say(s, text)
	return p.s.Reply(m, json.RawMessage(`{"stopReason":"end_turn"}`))
}

// shownLine returns text, which may hold the agent's words (a tool call's
// title, a path, a line of an offloaded file), as one line of an answer the
// bridge gives in its own name: every run of white space, line breaks of
// any kind (LF, CR, NEL, U+2028, U+2029) included, becomes one space, so
// none of it starts a line of the answer and passes for the bridge's own
// text (a note, a heading, a quote).
func shownLine(text string) string { return oneLine(text, shownLineRunes) }

// shownLineRunes bounds what shownLine keeps of one text.
const shownLineRunes = 400

func (p *Pipeline) contextStatus(s *session) string {
	s.mu.Lock()
	u := s.meter.Usage()
	down := s.down
	archive := s.archive
	s.mu.Unlock()
	src := "reported by the agent"
	if u.Estimated {
		src = "estimated by acp-bridge (o200k tokens of what entered the agent's context through the bridge)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Context:** %s / %s tokens (%.1f%%, %s), %s.\n", groupDigits(int(u.Used)), groupDigits(int(u.Size)), u.Percent(), u.Level(), src)
	var saved, n int
	for _, e := range p.events.Recent(s.ide, recentEvents) {
		if e.Type == EventTier1 {
			saved += e.TokensSaved
			n++
		}
	}
	fmt.Fprintf(&b, "**Offloaded:** %d items, %s tokens kept out of context (cache: %s).\n", n, groupDigits(saved), p.store.Dir())
	bud := s.warm.budget()
	fmt.Fprintf(&b, "**ACCP state:** %d checkpoints, last warm entry %d tokens, %d hot frames.\n", bud.Checkpoints, bud.WarmLast, bud.HotFrames)
	if archive != "" {
		fmt.Fprintf(&b, "**Last archive:** %s\n", archive)
	}
	if down != s.ide {
		fmt.Fprintf(&b, "**Agent session:** %q (rolled over; your session id is unchanged)\n", down)
	}
	return b.String()
}

func (p *Pipeline) forceCompress(s *session) string {
	path, tokens, err := p.checkpoint(s, "user command /"+CommandPrefix+"compress")
	if err != nil {
		return fmt.Sprintf("Compression refused: %v.", err)
	}
	s.mu.Lock()
	s.pendingRoll = true
	s.mu.Unlock()
	return fmt.Sprintf("Session checkpointed: summary of %d tokens, full conversation archived at %s. Your next message continues in a fresh agent session seeded with the summary; this session id stays the same.", tokens, path)
}

func (p *Pipeline) logText(s *session) string {
	evs := p.events.Recent(s.ide, 20)
	if len(evs) == 0 {
		return "No compression events in this session yet."
	}
	var b strings.Builder
	b.WriteString("**Compression log** (latest last)\n\n")
	for _, e := range evs {
		fmt.Fprintf(&b, "- %s **%s** (%s) %s: %s → %s tokens, saved %s", e.Time.UTC().Format("15:04:05"), e.Type, e.Level, shownLine(e.Trigger),
			groupDigits(e.TokensBefore), groupDigits(e.TokensAfter), groupDigits(e.TokensSaved))
		if len(e.Files) > 0 {
			fmt.Fprintf(&b, "; files: %s", strings.Join(e.Files, ", "))
		}
		if e.Detail != "" {
			fmt.Fprintf(&b, "; %s", shownLine(e.Detail))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Snippet is one match of a recovery search.
type Snippet struct {
	// Path and Line locate the match.
	Path string
	Line int
	// Text is the matching line, cut to 240 characters.
	Text string
}

// Recover searches the offloaded content and conversation archives for
// topic (case-insensitive, every word must occur in the line) and returns
// up to max matches, newest files first.
func (st *Store) Recover(topic string, max int) ([]Snippet, error) {
	words := strings.Fields(strings.ToLower(topic))
	if len(words) == 0 {
		return nil, fmt.Errorf("no topic given")
	}
	// Only what the bridge wrote is searched: a link planted in the cache
	// (or at one of its directories) before the bridge started would show
	// the person any file it leads to as the bridge's, and a named pipe
	// would hold the answer until someone writes to it.
	var files []string
	for _, d := range []string{st.OffloadedDir(), st.ConversationsDir()} {
		if ownDir(st.dir) != nil || ownDir(d) != nil {
			continue
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
				files = append(files, filepath.Join(d, e.Name()))
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) > filepath.Base(files[j]) })
	var out []Snippet
	for _, f := range files {
		if len(out) >= max {
			break
		}
		fh, _, err := nowaitopen.OpenRegular(f, noFollow)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for n := 1; sc.Scan() && len(out) < max; n++ {
			line := sc.Text()
			low := strings.ToLower(line)
			all := true
			for _, w := range words {
				if !strings.Contains(low, w) {
					all = false
					break
				}
			}
			if all {
				out = append(out, Snippet{Path: absPath(f), Line: n, Text: snippetAround(line, low, words[0])})
			}
		}
		fh.Close()
	}
	return out, nil
}

// snippetAround cuts line to about 240 characters around the first word.
func snippetAround(line, low, word string) string {
	const width = 240
	if len(line) <= width {
		return line
	}
	i := strings.Index(low, word)
	start := max(i-width/2, 0)
	end := min(start+width, len(line))
	for start > 0 && !isRuneStart(line[start]) {
		start--
	}
	for end < len(line) && !isRuneStart(line[end]) {
		end++
	}
	s := line[start:end]
	if start > 0 {
		s = "…" + s
	}
	if end < len(line) {
		s += "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func (p *Pipeline) recover(topic string) string {
	snips, err := p.store.Recover(topic, 10)
	if err != nil {
		return "Usage: /" + CommandPrefix + "recover TOPIC"
	}
	if len(snips) == 0 {
		return fmt.Sprintf("Nothing about %q in the offloaded content or archives (%s).", topic, p.store.Dir())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Recovered** %d matches for %q (read more with a ranged read of the file from the line shown):\n\n", len(snips), topic)
	for _, sn := range snips {
		fmt.Fprintf(&b, "- `%s:%d`: %s\n", sn.Path, sn.Line, strings.ReplaceAll(shownLine(sn.Text), "`", "'"))
	}
	return b.String()
}

// bridgeCommandsJSON renders the commands, leaving out names in taken.
func bridgeCommandsJSON(taken map[string]bool) [][]byte {
	var out [][]byte
	for _, c := range Commands() {
		if taken[c.Name] {
			continue
		}
		b, _ := json.Marshal(c)
		out = append(out, b)
	}
	return out
}

// offerCommands sends the IDE the bridge's commands merged with the
// agent's latest list for s.
func (p *Pipeline) offerCommands(s *session) {
	s.mu.Lock()
	agent := s.agentCmds
	s.mu.Unlock()
	taken := map[string]bool{}
	for _, c := range agent {
		n, _ := rawjson.GetString(c, "name")
		taken[n] = true
	}
	all := append(append([][]byte(nil), agent...), bridgeCommandsJSON(taken)...)
	params := []byte(`{"sessionId":`)
	idb, _ := json.Marshal(s.ide)
	params = append(params, idb...)
	params = append(params, `,"update":{"sessionUpdate":"available_commands_update","availableCommands":`...)
	params = append(params, joinArray(all)...)
	params = append(params, `}}`...)
	if err := p.s.Notify(acpwire.AgentToClient, "session/update", json.RawMessage(params)); err != nil {
		p.logger.Debug("offering commands", "err", err)
	}
}

// mergeCommands adds the bridge's commands to the agent's
// available_commands_update, skipping any name the agent uses itself.
func (p *Pipeline) mergeCommands(s *session, m *acpwire.Message, update []byte) (*acpwire.Message, error) {
	raw, ok := rawjson.Get(update, "availableCommands")
	if !ok {
		return m, nil
	}
	elems, err := rawjson.Elements(raw)
	if err != nil {
		return m, nil
	}
	taken := map[string]bool{}
	var names []string
	kept := make([][]byte, len(elems))
	for i, e := range elems {
		n, _ := rawjson.GetString(e, "name")
		taken[n] = true
		names = append(names, n)
		kept[i] = append([]byte(nil), e...)
	}
	s.mu.Lock()
	s.agentCmds = kept
	s.rec.Commands(names)
	s.mu.Unlock()
	for _, c := range Commands() {
		if taken[c.Name] {
			p.logger.Warn("agent has a command with the bridge's name; the bridge's is not offered", "command", c.Name)
		}
	}
	all := append(append([][]byte(nil), elems...), bridgeCommandsJSON(taken)...)
	return m.Patch(joinArray(all), "params", "update", "availableCommands")
}
