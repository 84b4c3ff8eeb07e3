package acpwire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
	"github.com/go-json-experiment/json/jsontext"
)

// DefaultStrictMethods returns the methods whose requests and notifications
// the bridge decodes strictly by default: those that features judge or
// rewrite (sessions, prompts, permissions, the client's file and terminal
// calls, elicitations, updates, cancellation). A method judged but not read
// strictly could carry "url" and "URL": the bridge judges the first, a Go
// client (encoding/json matches names case-insensitively, the last one
// winning) acts on the second.
func DefaultStrictMethods() []string {
	return []string{
		"initialize", "session/new", "session/load", "session/resume", "session/fork",
		"session/prompt", "session/request_permission",
		"fs/read_text_file", "fs/write_text_file",
		"terminal/create", "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release",
		"elicitation/create",
		"session/update", "session/cancel", "$/cancel_request",
	}
}

// DefaultStrictResponses returns the methods whose responses the bridge
// decodes strictly by default: the ones that open a session, list the
// sessions the IDE may open, or grant a permission.
func DefaultStrictResponses() []string {
	return []string{
		"initialize", "session/new", "session/load", "session/resume", "session/fork",
		"session/list", "session/request_permission",
	}
}

// readFields are the member names, at any depth, that the bridge's
// features read in the messages it decodes strictly. A strict message
// carrying a name that differs from one of these only in case is refused:
// a peer decoding with Go's encoding/json, which matches names to fields
// case-insensitively, would read that member where the bridge reads none.
// This is the one list; a feature that starts reading another field adds
// it here.
var readFields = []string{
	// JSON-RPC
	"jsonrpc", "id", "method", "params", "result", "error", "code", "message", "data",
	// sessions and initialization
	"sessionId", "sessions", "cwd", "mcpServers", "additionalDirectories", "protocolVersion",
	"clientCapabilities", "agentCapabilities", "clientInfo", "agentInfo", "authMethods", "label",
	"fs", "readTextFile", "writeTextFile", "terminal", "loadSession", "promptCapabilities",
	"mcpCapabilities", "embeddedContext", "image", "audio", "http", "sse",
	"modes", "currentModeId", "availableModes", "models", "configOptions",
	"name", "title", "version", "headers", "env", "value", "_meta",
	// prompts and content
	"prompt", "content", "type", "text", "uri", "mimeType", "resource", "blob", "stopReason",
	// updates and tool calls
	"update", "sessionUpdate", "toolCall", "toolCallId", "kind", "status", "rawInput", "rawOutput",
	"locations", "line", "oldText", "newText", "availableCommands", "entries", "used", "size",
	"claudeCode", "toolName",
	// permissions
	"options", "optionId", "outcome",
	// client file system and terminals
	"path", "limit", "command", "args", "outputByteLimit", "terminalId", "output", "truncated",
	"exitStatus", "exitCode", "signal",
	// cancellation
	"requestId",
	// read in _meta and by the enforcer's and the compressor's own
	// decoders: logins, display terminals, MCP calls, elicitations, modes
	// and configuration options
	"terminal-auth", "terminal_output", "terminal_info", "terminal_id",
	"arguments", "serverId", "elicitationId", "url", "mode", "modeId", "configId", "category", "currentValue",
}

// readFolds maps the case-folded form of each read field to the field.
var readFolds = func() map[string]string {
	m := make(map[string]string, len(readFields))
	for _, f := range readFields {
		m[string(foldName(nil, []byte(f)))] = f
	}
	return m
}()

// readFoldTable holds readFolds for readFieldOf, by readFoldBucket of
// each folded form.
var readFoldTable = func() (t [256][]readFold) {
	for fold, field := range readFolds {
		h := readFoldBucket([]byte(fold))
		t[h] = append(t[h], readFold{fold, field})
	}
	return t
}()

// readFold is a read field and its folded form.
type readFold struct{ fold, field string }

// readFoldBucket spreads folded names over readFoldTable by their length
// and their first and last bytes, which tell the read fields apart well.
func readFoldBucket(fold []byte) uint8 {
	if len(fold) == 0 {
		return 0
	}
	return uint8(len(fold)*0x9e + int(fold[0])*0x3b + int(fold[len(fold)-1]))
}

// readFieldOf is readFolds[string(fold)] for the strict check's fast
// readings, which look up every member name of a message they read: a
// bucket and a comparison or two cost less than hashing the name.
func readFieldOf(fold []byte) (string, bool) {
	for _, e := range readFoldTable[readFoldBucket(fold)] {
		if e.fold == string(fold) {
			return e.field, true
		}
	}
	return "", false
}

// foldName appends to dst a form of name that is equal for two names
// exactly when bytes.EqualFold holds for them: each rune becomes the
// smallest rune of its Unicode simple-folding orbit (so "K", "k" and the
// Kelvin sign all become "K").
func foldName(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		i += n
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			low = min(low, f)
		}
		dst = utf8.AppendRune(dst, low)
	}
	return dst
}

// strictness is the set of methods decoded strictly, by direction-free
// method name.
type strictness struct {
	methods   map[string]bool
	responses map[string]bool
}

func newStrictness(methods, responses []string) strictness {
	if methods == nil {
		methods = DefaultStrictMethods()
	}
	if responses == nil {
		responses = DefaultStrictResponses()
	}
	s := strictness{methods: map[string]bool{}, responses: map[string]bool{}}
	for _, m := range methods {
		s.methods[m] = true
	}
	for _, m := range responses {
		s.responses[m] = true
	}
	return s
}

// applies reports whether m is decoded strictly.
func (s strictness) applies(m *Message) bool {
	switch m.Kind {
	case KindRequest, KindNotification:
		return s.methods[m.Method]
	case KindResponse:
		return m.Request != nil && s.responses[m.Request.Method]
	}
	return false
}

// strictDecoder checks a message the way the strictest of the peers'
// parsers reads it, so that every feature and every peer read the same
// members. One is used by one direction's handling at a time.
type strictDecoder struct {
	rd  bytes.Reader
	dec *jsontext.Decoder
	// folds holds the folded names of the objects being read, back to
	// back; starts holds where each open object's names begin in it, and
	// ends where each name ends.
	folds  []byte
	starts []int
	ends   []int
	// sets holds, for each open object, the set of its folded names once
	// it has maxFoldScan of them, and nil before.
	sets []map[string]struct{}
	name []byte
	// names are the member names of the message fastAccept reads.
	names []foldedName
	// known records the long string literals fastAcceptParsed passes.
	known rawjson.KnownRecorder
}

// check returns why raw must be refused, or nil: it is not exactly one
// valid JSON value; a name appears twice in one object; two names of one
// object are equal under case folding; a name differs only in case from a
// field the bridge reads (readFields); a string holds invalid UTF-8 or an
// unpaired surrogate escape; it is not rawjson.Portable (nested past
// MaxPortableDepth, or a number past a double's range), so that some
// reader would drop it whole.
func (d *strictDecoder) check(raw []byte) error {
	if d.fastAccept(raw) {
		return nil
	}
	return d.decode(raw)
}

// decode is check by the full decoder.
func (d *strictDecoder) decode(raw []byte) error {
	d.rd.Reset(raw)
	return d.checkFrom(&d.rd)
}

// checkFrom is check of the message r reads.
func (d *strictDecoder) checkFrom(r io.Reader) error {
	if d.dec == nil {
		d.dec = jsontext.NewDecoder(r)
	} else {
		d.dec.Reset(r)
	}
	d.folds, d.starts, d.ends = d.folds[:0], d.starts[:0], d.ends[:0]
	clear(d.sets)
	d.sets = d.sets[:0]
	dec := d.dec
	for values := 0; ; {
		if dec.StackDepth() == 0 {
			if values == 1 {
				// One whole value has been read: nothing may follow.
				if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
					return errors.New("more than one JSON value")
				}
				return nil
			}
			values++
		}
		switch dec.PeekKind() {
		case 0:
			_, err := dec.ReadToken()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case '{':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			if err := rawjson.PortableDepth(dec.StackDepth()); err != nil {
				return err
			}
			d.starts = append(d.starts, len(d.ends))
			d.sets = append(d.sets, nil)
		case '}':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			open := d.starts[len(d.starts)-1]
			d.starts = d.starts[:len(d.starts)-1]
			d.sets = d.sets[:len(d.sets)-1]
			if open > 0 {
				d.folds = d.folds[:d.ends[open-1]]
			} else {
				d.folds = d.folds[:0]
			}
			d.ends = d.ends[:open]
		case '[':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			if err := rawjson.PortableDepth(dec.StackDepth()); err != nil {
				return err
			}
		case ']':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
		case '"':
			isName := false
			if k, n := dec.StackIndex(dec.StackDepth()); k == '{' && n%2 == 0 {
				isName = true
			}
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if isName {
				if err := d.checkName(v); err != nil {
					return err
				}
			}
		case '0':
			n, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if err := rawjson.PortableNumber(n); err != nil {
				return err
			}
		default:
			if _, err := dec.ReadValue(); err != nil {
				return err
			}
		}
	}
}

// checkName checks one member name (raw, quoted) against the read fields
// and the other names of its object.
func (d *strictDecoder) checkName(v jsontext.Value) error {
	name := []byte(v[1 : len(v)-1])
	if bytes.IndexByte(name, '\\') >= 0 {
		var err error
		d.name, err = jsontext.AppendUnquote(d.name[:0], v)
		if err != nil {
			return err
		}
		name = d.name
	}
	start := len(d.folds)
	d.folds = foldName(d.folds, name)
	fold := d.folds[start:]
	if field, ok := readFolds[string(fold)]; ok && field != string(name) {
		return fmt.Errorf("member name %q differs only in case from %q", name, field)
	}
	open := len(d.starts) - 1
	first := d.starts[open]
	if set := d.sets[open]; set != nil {
		if _, dup := set[string(fold)]; dup {
			return foldCollision(name)
		}
		set[string(fold)] = struct{}{}
		d.folds = d.folds[:start] // the set holds it
		return nil
	}
	prev := 0
	if first > 0 {
		prev = d.ends[first-1]
	}
	for _, end := range d.ends[first:] {
		if bytes.Equal(d.folds[prev:end], fold) {
			return foldCollision(name)
		}
		prev = end
	}
	d.ends = append(d.ends, len(d.folds))
	if len(d.ends)-first == maxFoldScan {
		// A large object: its names move to a set, so that checking
		// each new one does not cost a pass over all the others.
		set := make(map[string]struct{}, 2*maxFoldScan)
		prev := 0
		if first > 0 {
			prev = d.ends[first-1]
		}
		for _, end := range d.ends[first:] {
			set[string(d.folds[prev:end])] = struct{}{}
			prev = end
		}
		d.sets[open] = set
	}
	return nil
}

func foldCollision(name []byte) error {
	return fmt.Errorf("member names equal under case folding in one object (%q)", name)
}

// maxFoldScan is how many names of one object are compared with each new
// one before the object's names move to a set.
const maxFoldScan = 32

// chunkVariants are the session/update variants that stream a turn's
// text, quoted. They are most of the traffic, so they are checked only
// down to their content block (see checkChunk) rather than at every depth.
var chunkVariants = [...]string{`"agent_message_chunk"`, `"agent_thought_chunk"`, `"user_message_chunk"`}

// chunkDepth is how deep checkChunk compares names: the message, its
// params, the update and its content block.
const chunkDepth = 4

// maxOtherNames bounds the names down to chunkDepth that a text chunk
// carries besides its own (see chunkNameOf) and chunkCheck compares
// pairwise; a chunk with more goes through the full check.
const maxOtherNames = 8

// Names a text chunk carries, numbered by chunkNameOf. They are read
// fields themselves, so need no case check against the read fields, and no
// two are equal under case folding, so two of them in one object collide
// only when they are the same name.
const (
	notChunkName uint8 = iota
	nameJSONRPC
	nameMethod
	nameParams
	nameSessionID
	nameUpdate
	nameSessionUpdate
	nameContent
	nameType
	nameText
	nameMeta
)

// chunkNameOf numbers quoted, one of the names a text chunk carries as
// written with its quotes, or returns notChunkName (an escaped name is
// never one of them).
func chunkNameOf(quoted []byte) uint8 {
	switch string(quoted) {
	case `"jsonrpc"`:
		return nameJSONRPC
	case `"method"`:
		return nameMethod
	case `"params"`:
		return nameParams
	case `"sessionId"`:
		return nameSessionID
	case `"update"`:
		return nameUpdate
	case `"sessionUpdate"`:
		return nameSessionUpdate
	case `"content"`:
		return nameContent
	case `"type"`:
		return nameType
	case `"text"`:
		return nameText
	case `"_meta"`:
		return nameMeta
	}
	return notChunkName
}

// chunkCheck decides, from the member names met while a line is
// validated (rawjson.ValidNames down to chunkDepth, see note), whether the
// line, if it is a session/update, is a text chunk that needs no further
// check: no two names down to its content block are equal under case
// folding in one object (or escaped: the full check decodes those), none
// differs only in case from a read field, and its
// params.update.sessionUpdate is a chunk variant. Anything else leaves it
// to the full check. Deeper names, and the UTF-8 of the chunk's text, are
// not checked: that would cost a pass over every byte of the stream, and
// the bridge reads nothing there. The zero value is ready; it is kept on
// the stack, so it holds no slices.
type chunkCheck struct {
	failed bool
	// objects holds, by depth, the object whose members are being met
	// and which of a chunk's names it has (a bit per chunkNameOf). An
	// object's members are all met before a sibling's.
	objects [chunkDepth]struct {
		at    int32
		names uint16
	}
	params int32 // where params' value starts, plus one (0: none yet)
	// updates and variants are the update members at depth 2 and the
	// sessionUpdate members at depth 3, in whichever object: members
	// are met as their values end, so an object's members come before
	// the member holding it, and they are linked at the end.
	updates, variants [2]link
	nu, nv            int
	// others are the names met that are not a chunk's own.
	others [maxOtherNames]other
	no     int
}

// link is a member whose value starts at at, in the object at object.
type link struct{ object, at int32 }

// other is a name a chunk does not carry, by position in the line.
type other struct{ object, start, end int32 }

// note takes the member quoted (its name as written; id is
// chunkNameOf(quoted)) at depth, in the object that starts at object,
// whose value starts at at.
func (c *chunkCheck) note(line []byte, depth, object, at int, quoted []byte, id uint8) {
	if c.failed {
		return
	}
	o := &c.objects[depth-1]
	if o.at != int32(object) {
		o.at, o.names = int32(object), 0
	}
	if id == notChunkName {
		c.noteOther(line, int32(object), quoted)
		return
	}
	if o.names&(1<<id) != 0 {
		c.failed = true // a duplicate
		return
	}
	o.names |= 1 << id
	switch {
	case id == nameParams && depth == 1:
		c.params = int32(at) + 1
	case id == nameUpdate && depth == 2:
		c.failed = !addLink(&c.updates, &c.nu, link{int32(object), int32(at)})
	case id == nameSessionUpdate && depth == 3:
		c.failed = !addLink(&c.variants, &c.nv, link{int32(object), int32(at)})
	}
}

func addLink(links *[2]link, n *int, l link) bool {
	if *n == len(links) {
		return false
	}
	links[*n] = l
	*n++
	return true
}

// noteOther checks a name a chunk does not carry: not escaped, not a case
// variant of a read field (every name a chunk carries is one, so this also
// keeps it apart from those), and not equal under case folding to another
// such name of its object.
func (c *chunkCheck) noteOther(line []byte, object int32, quoted []byte) {
	key := quoted[1 : len(quoted)-1]
	if c.no == len(c.others) || bytes.IndexByte(key, '\\') >= 0 {
		c.failed = true
		return
	}
	var buf [64]byte
	if field, known := readFieldOf(foldName(buf[:0], key)); known && field != string(key) {
		c.failed = true
		return
	}
	for _, prev := range c.others[:c.no] {
		if prev.object == object && bytes.EqualFold(line[prev.start:prev.end], key) {
			c.failed = true
			return
		}
	}
	start := int32(cap(line) - cap(key)) // key is a slice of line
	c.others[c.no] = other{object: object, start: start, end: start + int32(len(key))}
	c.no++
}

// chunk reports whether line, whose members chunkCheck has been told of,
// is a text chunk that needs no further check.
func (c *chunkCheck) chunk(line []byte) bool {
	if c.failed || c.params == 0 {
		return false
	}
	update := find(c.updates[:c.nu], c.params-1)
	if update < 0 {
		return false
	}
	variant := find(c.variants[:c.nv], update)
	if variant < 0 {
		return false
	}
	for _, v := range chunkVariants {
		if bytes.HasPrefix(line[variant:], []byte(v)) {
			return true
		}
	}
	return false
}

// find returns where the value of the link in object starts, or -1.
func find(links []link, object int32) int32 {
	for _, l := range links {
		if l.object == object {
			return l.at
		}
	}
	return -1
}
