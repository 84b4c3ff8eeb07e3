package governance

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// maxKept bounds what the bridge keeps of each judged field of a tool
// call (its input, its title, its paths) while the call lives: an agent
// may leave any number of calls open, each with an input of any size.
// An input larger than this is kept as the members the policy reads
// (judgedInputKey), plus its size and SHA-256 for the record.
const maxKept = 64 << 10

// maxKeptPaths bounds how many locations and diff paths a call keeps.
const maxKeptPaths = 1024

// What the bridge keeps of all open calls together is bounded too: past
// either bound the oldest calls are forgotten (evictLocked).
const (
	maxOpenCalls = 4096
	maxKeptTotal = 32 << 20
)

// maxCallID bounds a toolCallId; a longer one is refused.
const maxCallID = 1 << 10

// maxStopped bounds the calls the bridge remembers stopping. Once that
// many are remembered, every new tool call is dropped as stopped: an
// agent that had that many calls stopped is not trusted with more.
const maxStopped = 16 << 10

// Judged fields of a tool call, as bits of callState.cut.
const (
	fieldInput = 1 << iota
	fieldTitle
	fieldPaths
)

type callState struct {
	session, id string
	// tc is what the bridge keeps of the call, bounded by maxKept.
	tc ToolCall
	// inputSize and inputSum describe the last rawInput received when tc
	// holds only part of it (inputSum is then its SHA-256 in hex).
	inputSize int
	inputSum  string
	// cut has a bit set for each judged field too large to keep: the call
	// cannot be judged again unless a later message carries it whole.
	cut int
	// judged is the fingerprint of the request last decided: a message
	// that changes it is decided again, and an approval given for an
	// earlier fingerprint no longer covers the call.
	judged string
	// covers is what an approval of this call covers (the fs/* and
	// terminal/create calls that carry it out), from the request last
	// decided; nil when the request was too large to keep.
	covers *coverage

	decision  *Decision
	forwarded bool   // the IDE has seen a message of this call
	status    string // the last status the agent reported
	blocked   bool   // denied after the agent ran it: drop its updates
	deferred  bool   // blocked, and left to the agent's pre-tool hook to refuse
	denied    bool   // a permission for it was refused
	// refusal is the refused answer to its latest permission request; nil
	// when none was refused (enforce_refusal.go).
	refusal  *refusal
	approval string // "auto" or who approved
	// approvedBy is the id of the permission request the person answered.
	approvedBy string
	// kept is how many bytes of tc the bridge holds, counted in
	// Enforcer.keptTotal.
	kept int
}

// size is about how many bytes the kept state of c takes.
func (c *callState) size() int {
	n := len(c.session) + len(c.id) + len(c.tc.Title) + len(c.tc.Kind) + len(c.tc.Tool) + len(c.tc.Name) + len(c.tc.RawInput)
	for _, l := range [][]string{c.tc.Locations, c.tc.DiffPaths} {
		for _, p := range l {
			n += len(p) + 16
		}
	}
	if cv := c.covers; cv != nil {
		n += len(cv.command) + len(cv.cwd)
		for _, p := range cv.paths {
			n += len(p) + 16
		}
	}
	return n + 256
}

// ended reports whether the agent said the call is over.
func (c *callState) ended() bool { return c.status == "completed" || c.status == "failed" }

// merge takes in what f says of the call. It returns the call as f and
// the kept state describe it together, with f's own fields whole (to
// decide on now), which judged fields f carried, and whether f carried
// any judged field at all.
func (c *callState) merge(f *acpparams.ToolCall) (full ToolCall, carried int, touched bool) {
	full = c.tc
	if f.HasTitle {
		touched = true
		full.Title = f.Title
		carried |= fieldTitle
		if len(f.Title) <= maxKept {
			c.tc.Title, c.cut = f.Title, c.cut&^fieldTitle
		} else {
			c.tc.Title, c.cut = "", c.cut|fieldTitle
		}
	}
	if f.HasKind && f.Kind != c.tc.Kind {
		touched = true
		full.Kind = f.Kind
		c.tc.Kind = boundString(f.Kind, 256)
	}
	if name := agentToolName(f.Meta); name != "" && name != c.tc.Tool {
		touched = true
		full.Tool = name
		c.tc.Tool = boundString(name, 256)
	}
	if f.Name != "" && f.Name != c.tc.Name {
		// A name given after the call was judged is judged as a changed
		// input is: the call is decided again, and an approval of it
		// under its old name covers nothing.
		touched = true
		full.Name = f.Name
		c.tc.Name = f.Name // at most acpparams.MaxToolName bytes
	}
	rawInput := f.RawInput
	if !hasValue(rawInput) && c.inputSize == 0 && f.Status != "completed" && f.Status != "failed" {
		// A call with no rawInput that shows its arguments as text
		// (Gemini CLI's MCP calls) is judged on them (tool_shownargs.go),
		// and a fetch on the prompt its title shows (tool_fetchtitle.go).
		shown, hidden := false, false
		switch {
		case full.Kind == "fetch" && f.HasTitle:
			rawInput, hidden = fetchTitleInput(f.Title)
			shown = true
		case full.Kind != "fetch" && f.Content != nil:
			rawInput, hidden = textInput(f, full.Kind)
			shown = true
		}
		if shown && hidden != c.tc.InputHidden {
			touched = true
			full.InputHidden, c.tc.InputHidden = hidden, hidden
		}
	}
	if hasValue(rawInput) {
		touched = true
		carried |= fieldInput
		full.RawInput = rawInput
		kept, whole := keepInput(rawInput)
		c.tc.RawInput, c.inputSize, c.inputSum = kept, len(rawInput), ""
		if !whole {
			sum := sha256.Sum256(rawInput)
			c.inputSum = hex.EncodeToString(sum[:])
		}
		if kept == nil {
			c.cut |= fieldInput
		} else {
			c.cut &^= fieldInput
		}
	}
	if c.inputSum != "" && judgesMentioned(full.Tool) {
		// Every string of such a tool's input is judged (mentioned.go),
		// and only the members fillFromInput reads were kept.
		c.cut |= fieldInput
	}
	locs, diffs := full.Locations, full.DiffPaths
	if f.Locations != nil {
		locs = f.Locations
	}
	if f.Content != nil {
		diffs = f.DiffPaths()
	}
	if f.Locations != nil || f.Content != nil {
		if !slices.Equal(locs, full.Locations) || !slices.Equal(diffs, full.DiffPaths) {
			touched = true
		}
		carried |= fieldPaths
		full.Locations, full.DiffPaths = locs, diffs
		if pathsFit(locs, diffs) {
			c.tc.Locations, c.tc.DiffPaths, c.cut = locs, diffs, c.cut&^fieldPaths
		} else {
			c.tc.Locations, c.tc.DiffPaths, c.cut = nil, nil, c.cut|fieldPaths
		}
	}
	return full, carried, touched
}

// judgeMerged decides full, what call c says after merge, unless a
// judged field the bridge could not keep (cut before) was not carried
// whole by the message merged: then the call is too large to judge.
func (x *Enforcer) judgeMerged(c *callState, full ToolCall, cutBefore, carried int) (Decision, string, *coverage) {
	if cutBefore&^carried != 0 {
		return tooLargeToJudge(c), "unjudgeable", nil
	}
	return x.judgeCall(c.session, full)
}

func boundString(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func pathsFit(lists ...[]string) bool {
	n, size := 0, 0
	for _, l := range lists {
		n += len(l)
		for _, p := range l {
			size += len(p)
		}
	}
	return n <= maxKeptPaths && size <= maxKept
}

// keepInput returns what the bridge keeps of a tool's input: all of it
// when it is small, else the members the policy reads; whole says it is
// all of it. It returns nil when even the judged members are too large.
func keepInput(raw []byte) (kept json.RawMessage, whole bool) {
	if len(raw) <= maxKept {
		return bytes.Clone(raw), true
	}
	if !jsontext.Value(raw).IsValid() {
		return nil, false // read as no input at all: nothing to keep
	}
	mems, err := rawjson.Members(raw)
	if err != nil {
		return nil, false // not an object: nothing the policy reads is in it
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, m := range mems {
		if !judgedInputKey(m.Key) {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.Value)
		if b.Len() > maxKept {
			return nil, false
		}
	}
	b.WriteByte('}')
	return b.Bytes(), false
}

// writes reports whether the engine judges req as a change to its paths.
func writes(req Request) bool {
	return req.Kind == "edit" || req.Kind == "delete" || req.Kind == "move" || writeTools[req.Tool]
}

// fingerprint identifies what a request asks the policy about: two
// requests with one fingerprint get one decision. It is the SHA-256 of the
// request's judged fields, its paths sorted and, unless the request is a
// change already, its diffs' paths, each followed by a zero byte; the
// bytes are gathered in a buffer on the stack, so a call of a few fields
// hashes them without allocating. The strings of its input that may be
// paths (Request.Mentioned, sorted), when it has any, count too, and so do
// the other directories its command may run in. The sum's 32 bytes are the
// string, not their hex: a fingerprint is only compared with another.
func fingerprint(req Request, diffs []string) string {
	var buf [1024]byte
	b := buf[:0]
	for _, s := range [...]string{req.Action, req.Tool, req.Kind, req.Command, req.URL, req.Cwd, boolString(req.CommandUnknown)} {
		b = append(append(b, s...), 0)
	}
	paths := req.Paths
	if !slices.IsSorted(paths) {
		paths = slices.Sorted(slices.Values(paths))
	}
	for _, p := range paths {
		b = append(append(b, p...), 0)
	}
	if len(req.OtherCommands) > 0 || len(req.UnreadInput) > 0 {
		b = append(b, "commands\x00"...)
		for _, c := range req.OtherCommands {
			b = append(append(b, c...), 0)
		}
		for _, m := range req.UnreadInput {
			b = append(append(append(append(b, m.Key...), 0), m.Text...), 0)
		}
	}
	if len(req.OtherCwds) > 0 || req.RunDirUnclear != "" || req.InputHidden {
		b = append(b, "cwds\x00"...)
		for _, d := range req.OtherCwds {
			b = append(append(b, d...), 0)
		}
		b = append(append(b, req.RunDirUnclear...), 0)
		b = append(append(b, boolString(req.InputHidden)...), 0)
	}
	if len(req.Mentioned) > 0 || req.MentionedTooMany {
		b = append(b, "mentioned\x00"...)
		for _, m := range req.Mentioned {
			b = append(append(b, m...), 0)
		}
		b = append(append(b, boolString(req.MentionedTooMany)...), 0)
	}
	if !writes(req) {
		// Diffs are judged as changes when the call is not one already.
		b = append(b, "diffs\x00"...)
		for _, d := range diffs {
			b = append(append(b, d...), 0)
		}
	}
	sum := sha256.Sum256(b)
	return string(sum[:])
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// coverage is what a person's approval of a tool call lets through
// without asking again: the fs/* and terminal/create requests that carry
// the call out, on the very paths or the very command the person saw.
type coverage struct {
	read, write, execute bool
	paths                []string // absolute, cleaned; in one when it is one
	command, cwd         string
	one                  [1]string // most calls name one path: it comes with the coverage
}

// coverageOf is what an approval of a call judged as req covers; nil when
// req is too large to keep.
func coverageOf(req Request) *coverage {
	if len(req.Command) > maxKept || !pathsFit(req.Paths) {
		return nil
	}
	cv := &coverage{write: writes(req), command: req.Command, cwd: cleanAbs(req.Cwd, "")}
	cv.read = cv.write || req.Kind == "read" || req.Kind == "search" || readTools[req.Tool]
	cv.execute = req.Kind == "execute" || req.Tool == "Bash"
	cv.paths = cv.one[:0]
	for _, p := range req.Paths {
		if p != "" {
			cv.paths = append(cv.paths, cleanAbs(p, req.Cwd))
		}
	}
	return cv
}

// cleanAbs is p made absolute against cwd and cleaned, textually: an
// approval covers the path the person was shown, not wherever it leads
// (the engine still judges that).
func cleanAbs(p, cwd string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	return cleanPath(p)
}

// allows reports whether cv covers a client request for action on path
// (fs/*) or running command in cwd (terminal/create).
func (cv *coverage) allows(action, path, command, cwd string) bool {
	switch action {
	case ActionFSRead, ActionFSWrite:
		if action == ActionFSWrite && !cv.write || action == ActionFSRead && !cv.read || path == "" {
			return false
		}
		return slices.Contains(cv.paths, cleanAbs(path, ""))
	case ActionTerminalCreate:
		return cv.execute && strings.TrimSpace(command) != "" && strings.TrimSpace(command) == strings.TrimSpace(cv.command) &&
			cleanAbs(cwd, "") == cv.cwd
	}
	return false
}
