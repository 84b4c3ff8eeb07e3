package compress

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// Recorder keeps what the bridge has seen of one session: the conversation
// for the archive and the facts the Session Summary is built from. It is
// deterministic: the same traffic gives the same summary. A Recorder is not
// safe for concurrent use; the pipeline guards it.
type Recorder struct {
	// SessionID is the session as the IDE knows it.
	SessionID string
	// Cwd is the session's working directory.
	Cwd string

	entries      []entry
	entryBytes   int
	droppedBytes int
	spool        *spool   // where entries go, if set (then entries stays empty)
	turn         turnText // the tail of the agent's text this turn
	scratch      []byte   // tool output decoded for scanFacts
	note         []byte   // a tool call's archive line (toolNote)

	userMessages  []string // the first (intent), then the most recent (see UserMessage)
	userBytes     int      // bytes of userMessages after the first
	userCount     int      // user messages recorded
	olderUser     int      // messages between the first and the kept ones
	olderBytes    int      // and their bytes
	artifacts     []*Artifact
	artifactsSeen int // artifacts ever recorded, evicted ones included
	byPath        map[string]*Artifact
	toolCalls     map[string]*toolCall
	toolOrder     []string  // toolCalls keys in the order they came, a ring once MaxToolCalls long
	toolOldest    int       // the oldest in toolOrder, once it is full
	spareCall     *toolCall // a done call's state, for the next new call to take
	decisions     []string
	plan          []PlanEntry
	facts         []string
	factSet       map[string]bool
	commands      []string // the agent's own slash commands, last advertised
}

// RoleReplayedUser heads an archive entry holding a user_message_chunk
// the agent sent: its account of what the person said, as it replays a
// loaded session, told apart from the person's own prompts ("User").
const RoleReplayedUser = "User (as the agent replayed it)"

// entry is one item of the conversation archive. Agent text is kept as its
// raw JSON string literal and decoded only when the archive is written, so
// the streaming path does not unescape every chunk.
type entry struct {
	at   time.Time
	role string // "User", "Agent", "Thought", "Tool", "Bridge", RoleReplayedUser
	text string
	raw  [][]byte // JSON string literals, concatenated in order
}

// Artifact is a file the agent created or changed in the session.
type Artifact struct {
	// Path is the file's path as the agent gave it.
	Path string
	// Action is "created", "edited" or "deleted".
	Action string
	// Status is "Complete", "Partial" or "Failed".
	Status string
	// Summary is a one-line description (the tool call's title).
	Summary string
	// Bytes is the size of the last body written, which the summary never
	// carries (tier 2): the content is on disk.
	Bytes int
}

// PlanEntry is one entry of the agent's latest plan.
type PlanEntry struct {
	Content, Status, Priority string
}

type toolCall struct {
	title, kind, status string
	paths               []string
	created             bool
	bodyBytes           int
}

// maxArchiveBytes bounds the conversation kept in memory by a recorder
// with no spool; older entries beyond it are dropped from the archive (and
// counted in it). The pipeline's recorders spool to disk instead.
const maxArchiveBytes = 4 << 20

// Bounds on what a recorder keeps, whatever the session's length.
const (
	// MaxUserBytes bounds the user messages kept verbatim after the first:
	// older ones are left to the archive (the summary points there).
	MaxUserBytes = 256 << 10
	// MaxToolCalls bounds the tool calls whose state is kept while they
	// run (a call is forgotten when it completes or fails); the oldest is
	// forgotten first.
	MaxToolCalls = 256
	// MaxArtifacts bounds the files remembered as created or changed; the
	// summary shows the last 60.
	MaxArtifacts = 1024
	// maxKeptDecisions bounds the decisions kept; the summary shows 12.
	maxKeptDecisions = 64
)

// SpoolTo makes the recorder write its conversation archive to disk under
// base (base.0 and base.1, see SpoolSegmentBytes) instead of memory.
func (r *Recorder) SpoolTo(base string) {
	r.spool = newSpool(base)
	// Each segment starts with room for the heading of an archive written
	// while it is the older one, the time a placeholder of the same
	// length (see spool.asArchive).
	r.spool.heading = func(dropped int64) []byte { return r.appendArchiveHeading(nil, time.Time{}, dropped) }
}

// Release frees what the recorder holds only while a turn runs: the
// spool's write buffer and descriptor, and the turn's text.
func (r *Recorder) Release() {
	if r.spool != nil {
		r.spool.release()
	}
}

// removeSpool deletes the recorder's spool, if it has one.
func (r *Recorder) removeSpool() error {
	if r.spool == nil {
		return nil
	}
	return r.spool.remove()
}

// StartTurn begins a new turn's text (TurnText).
func (r *Recorder) StartTurn() { r.turn.reset() }

// TurnText returns the agent's text in the current turn, its last
// TurnTextBytes if it was longer.
func (r *Recorder) TurnText() string { return r.turn.text() }

// NewRecorder returns an empty recorder for session id with working
// directory cwd.
func NewRecorder(id, cwd string) *Recorder {
	return &Recorder{SessionID: id, Cwd: cwd, byPath: map[string]*Artifact{}, toolCalls: map[string]*toolCall{}, factSet: map[string]bool{}}
}

func (r *Recorder) add(e entry) {
	if r.spool != nil {
		r.spool.entry(e.at, e.role, e.text)
		return
	}
	n := len(e.text)
	for _, c := range e.raw {
		n += len(c)
	}
	r.entries = append(r.entries, e)
	r.entryBytes += n
	for r.entryBytes > maxArchiveBytes && len(r.entries) > 1 {
		old := r.entries[0]
		sz := len(old.text)
		for _, c := range old.raw {
			sz += len(c)
		}
		r.entries = r.entries[1:]
		r.entryBytes -= sz
		r.droppedBytes += sz
	}
}

// UserMessage records a user prompt's text. The first message (the intent)
// is always kept; of the others, the most recent up to MaxUserBytes are.
func (r *Recorder) UserMessage(at time.Time, text string) {
	r.userCount++
	r.userMessages = append(r.userMessages, text)
	if len(r.userMessages) > 1 {
		r.userBytes += len(text)
	}
	for len(r.userMessages) > 2 && r.userBytes > MaxUserBytes {
		r.olderUser++
		r.olderBytes += len(r.userMessages[1])
		r.userBytes -= len(r.userMessages[1])
		r.userMessages = append(r.userMessages[:1], r.userMessages[2:]...)
	}
	r.add(entry{at: at, role: "User", text: text})
	r.scanFacts(text)
}

// Intent returns the session intent: the user's first request.
func (r *Recorder) Intent() string {
	if len(r.userMessages) == 0 {
		return ""
	}
	return r.userMessages[0]
}

// UserMessages returns the user messages kept, in order: the first, then
// the most recent (OlderUserMessages says how many are left out between).
func (r *Recorder) UserMessages() []string { return r.userMessages }

// UserCount returns how many user messages were recorded.
func (r *Recorder) UserCount() int { return r.userCount }

// OlderUserMessages returns how many user messages between the first and
// those UserMessages returns were left to the archive, and their bytes.
func (r *Recorder) OlderUserMessages() (n, bytes int) { return r.olderUser, r.olderBytes }

// AgentChunk records a chunk of agent output given as a raw JSON string
// literal; role is "Agent" or "Thought". Consecutive chunks of one role
// join into one archive entry. lit is copied: a message's bytes share a
// read block with its neighbours (acpwire), and keeping a slice would keep
// the whole block for the life of the session.
func (r *Recorder) AgentChunk(at time.Time, role string, lit []byte) {
	if len(lit) < 2 {
		return
	}
	if r.spool != nil {
		if role == "Agent" {
			r.spool.chunk(at, role, r.turn.addLiteral(lit))
		} else {
			r.spool.chunkLiteral(at, role, lit)
		}
		return
	}
	if role == "Agent" {
		r.turn.addLiteral(lit)
	}
	c := append([]byte(nil), lit...)
	if n := len(r.entries); n > 0 && r.entries[n-1].role == role && r.entries[n-1].text == "" {
		r.entries[n-1].raw = append(r.entries[n-1].raw, c)
		r.entryBytes += len(c)
		return
	}
	r.add(entry{at: at, role: role, raw: [][]byte{c}})
}

// Note records a line of bridge or tool activity in the archive.
func (r *Recorder) Note(at time.Time, role, text string) {
	r.add(entry{at: at, role: role, text: text})
}

// ToolCall records a tool_call or tool_call_update (the update object).
// Artifacts come from edit/delete/move tool calls: their locations and diff
// paths, with the status of the call.
func (r *Recorder) ToolCall(at time.Time, update []byte) {
	if t, err := acpparams.ReadToolCall(update); err == nil {
		r.toolCall(at, &t)
	}
}

// done reports whether a tool call status is final: the call's state is
// then forgotten (a later update for it starts afresh).
func done(status string) bool { return status == "completed" || status == "failed" }

// toolCall records f and returns the call's state, which it forgets once
// the call is done.
func (r *Recorder) toolCall(at time.Time, f *acpparams.ToolCall) *toolCall {
	id := f.ID
	tc := r.toolCalls[id]
	isNew := tc == nil
	if isNew {
		tc = r.newToolCall()
		r.toolCalls[id] = tc
		if len(r.toolOrder) < MaxToolCalls {
			r.toolOrder = append(r.toolOrder, id)
		} else {
			// Full: the oldest makes way, after the new call is in, as
			// it would at the front of a queue.
			delete(r.toolCalls, r.toolOrder[r.toolOldest])
			r.toolOrder[r.toolOldest] = id
			r.toolOldest = (r.toolOldest + 1) % MaxToolCalls
		}
	}
	if f.HasTitle {
		tc.title = f.Title
	}
	if f.HasKind {
		tc.kind = f.Kind
	}
	prevStatus := tc.status
	if f.Status != "" {
		tc.status = f.Status
	}
	for _, p := range f.Locations {
		tc.addPath(p)
	}
	for _, c := range f.Items {
		switch c.Type {
		case "content":
			if (tc.status == "failed" || tc.kind == "execute") && len(c.Text) > 1 && c.Text[0] == '"' {
				// Command output and failures carry the error codes.
				r.scanLiteral(c.Text)
			}
		case "diff":
			tc.addPath(c.Path)
			if c.OldText == nil || string(c.OldText) == "null" {
				tc.created = true
			}
			if c.NewText != nil {
				tc.bodyBytes = len(c.NewText)
			}
		}
	}
	if isNew || tc.status != prevStatus {
		r.toolNote(at, tc)
	}
	if tc.status == "failed" && prevStatus != "failed" {
		r.fact("Tool call failed: " + oneLine(tc.title, 160))
	}
	switch tc.kind {
	case "edit", "delete", "move":
		action := "edited"
		if tc.kind == "delete" {
			action = "deleted"
		} else if tc.created {
			action = "created"
		}
		for _, p := range tc.paths {
			r.artifact(p, action, statusOf(tc.status), tc.title, tc.bodyBytes)
		}
	}
	if done(tc.status) {
		delete(r.toolCalls, id)
		// Nothing else holds it: the caller reads it before it records
		// another call.
		r.spareCall = tc
	}
	return tc
}

// newToolCall returns the empty state of a new tool call: the last done
// call's, with its paths' memory, if there is one. Most calls run one at
// a time, so this allocates for few of them.
func (r *Recorder) newToolCall() *toolCall {
	tc := r.spareCall
	if tc == nil {
		return &toolCall{}
	}
	r.spareCall = nil
	paths := tc.paths[:0]
	if cap(paths) > maxSparePaths {
		paths = nil
	}
	clear(tc.paths)
	*tc = toolCall{paths: paths}
	return tc
}

// maxSparePaths bounds the paths' memory a done call's state keeps for
// the next.
const maxSparePaths = 16

// toolNote records a tool call's kind, status, title and paths in the
// archive, as Note would record the line "kind [status] title a, b",
// formatted in a buffer the recorder keeps.
func (r *Recorder) toolNote(at time.Time, tc *toolCall) {
	b := append(r.note[:0], orDash(tc.kind)...)
	b = append(b, " ["...)
	b = append(b, orDash(tc.status)...)
	b = append(b, "] "...)
	b = append(b, tc.title...)
	b = append(b, ' ')
	for i, p := range tc.paths {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, p...)
	}
	if r.spool != nil {
		r.spool.entryBytes(at, "Tool", b)
	} else {
		r.add(entry{at: at, role: "Tool", text: string(b)})
	}
	r.note = b
	if cap(r.note) > maxScratch {
		r.note = nil
	}
}

func (tc *toolCall) addPath(p string) {
	if p == "" {
		return
	}
	for _, q := range tc.paths {
		if q == p {
			return
		}
	}
	tc.paths = append(tc.paths, p)
}

func statusOf(s string) string {
	switch s {
	case "completed":
		return "Complete"
	case "failed":
		return "Failed"
	}
	return "Partial"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// FileWrite records an fs/write_text_file the agent asked for; ok says
// whether the client reported success.
func (r *Recorder) FileWrite(at time.Time, path string, bodyBytes int, ok bool) {
	status := "Complete"
	if !ok {
		status = "Failed"
	}
	r.artifact(path, "edited", status, "written through fs/write_text_file", bodyBytes)
	r.Note(at, "Tool", fmt.Sprintf("fs/write_text_file %s (%d bytes, %s)", path, bodyBytes, strings.ToLower(status)))
}

func (r *Recorder) artifact(path, action, status, summary string, body int) {
	a := r.byPath[path]
	if a == nil {
		a = &Artifact{Path: path, Action: action}
		r.byPath[path] = a
		r.artifacts = append(r.artifacts, a)
		r.artifactsSeen++
		if len(r.artifacts) > MaxArtifacts {
			delete(r.byPath, r.artifacts[0].Path)
			r.artifacts = append(r.artifacts[:0], r.artifacts[1:]...)
		}
	} else if action == "deleted" || a.Action == "deleted" {
		a.Action = action
	}
	a.Status = status
	if summary != "" {
		a.Summary = oneLine(summary, 120)
	}
	if body > 0 {
		a.Bytes = body
	}
}

// Artifacts returns the files created or changed, in first-touch order.
func (r *Recorder) Artifacts() []Artifact {
	out := make([]Artifact, len(r.artifacts))
	for i, a := range r.artifacts {
		out[i] = *a
	}
	return out
}

// Plan records the agent's latest plan (the update object).
func (r *Recorder) Plan(update []byte) {
	raw, ok := rawjson.Get(update, "entries")
	if !ok {
		return
	}
	var es []PlanEntry
	var in []struct{ Content, Status, Priority string }
	if json.Unmarshal(raw, &in) != nil {
		return
	}
	for _, e := range in {
		es = append(es, PlanEntry{Content: e.Content, Status: e.Status, Priority: e.Priority})
	}
	r.plan = es
}

// Decision records a decision taken in the session (a permission outcome,
// a mode change).
func (r *Recorder) Decision(at time.Time, d string) {
	r.decisions = append(r.decisions, d)
	if len(r.decisions) > maxKeptDecisions {
		r.decisions = append(r.decisions[:0], r.decisions[1:]...)
	}
	r.Note(at, "Decision", d)
}

// Commands records the agent's own advertised slash command names.
func (r *Recorder) Commands(names []string) { r.commands = names }

// HasCommand reports whether the agent advertised command name.
func (r *Recorder) HasCommand(name string) bool {
	for _, c := range r.commands {
		if c == name {
			return true
		}
	}
	return false
}

// Error records a JSON-RPC error seen on the wire.
func (r *Recorder) Error(method string, code int, msg string) {
	r.fact(fmt.Sprintf("JSON-RPC error %d (%s) from %s", code, oneLine(msg, 120), method))
}

// ExitStatus records a terminal's exit status.
func (r *Recorder) ExitStatus(command string, code int, signal string) {
	if signal != "" {
		r.fact(fmt.Sprintf("Command %s killed by signal %s", orDash(command), signal))
	} else if code != 0 {
		r.fact(fmt.Sprintf("Command %s exited with status %d", orDash(command), code))
	}
}

// ToolOutput scans text a tool produced for error codes.
func (r *Recorder) ToolOutput(text string) { r.scanFacts(text) }

const maxFacts = 40

func (r *Recorder) scanFacts(text string) { scanFactsInto(r, text) }

func (r *Recorder) scanFactsIn(text []byte) { scanFactsInto(r, text) }

func scanFactsInto[T string | []byte](r *Recorder, text T) {
	if len(r.factSet) >= maxFacts*4 {
		return
	}
	for _, m := range findErrorCodes(text, 20) {
		r.fact("Error code seen: " + m)
	}
}

// scanLiteral scans the text of the JSON string literal lit for error
// codes, as decoding it and scanning the text would (FuzzScanLiteral). A
// literal without escapes is scanned as it is: decoding would only
// replace bytes that are not UTF-8, and every byte of 0x80 and above ends
// a word and starts no code either way. A literal with no capital and no
// digit is not decoded at all: every code holds a capital or a digit, and
// the only escape that decodes to one, \u00XX, holds digits itself.
func (r *Recorder) scanLiteral(lit []byte) {
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		r.scanFactsIn(inner)
		return
	}
	if markFrom(inner, 0) == len(inner) {
		return
	}
	r.scratch = appendUnquoted(r.scratch[:0], lit)
	r.scanFactsIn(r.scratch)
	if cap(r.scratch) > maxScratch {
		r.scratch = nil
	}
}

// maxScratch bounds the decoding buffer a recorder keeps between tool
// calls; a larger one is dropped after use.
const maxScratch = 64 << 10

// maxFactRunes bounds one critical fact, cut by oneLine.
const maxFactRunes = 400

// fact records f as a critical fact, on one line of at most maxFactRunes
// runes: a fact quotes what the agent chose (a command line, a method
// name, a signal), and it is rendered as one list item of the Session
// Summary and the /compact instructions, which the bridge sends the agent
// as its own prompt text. Left as it came, a line break in it would let
// the agent's text start a heading or a quote there and pass for a
// section of the summary, the user's instructions among them.
func (r *Recorder) fact(f string) {
	f = oneLine(f, maxFactRunes)
	if r.factSet[f] {
		return
	}
	r.factSet[f] = true
	r.facts = append(r.facts, f)
}

// Facts returns the critical facts collected so far, in order.
func (r *Recorder) Facts() []string { return r.facts }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// oneLine collapses s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
