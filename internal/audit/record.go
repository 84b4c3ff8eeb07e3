package audit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
)

// timeFormat is the ts of every event: RFC 3339 in UTC with milliseconds,
// as AIP-7 asks.
const timeFormat = "2006-01-02T15:04:05.000Z07:00"

// prepared is an event with its redacted parts already in canonical form,
// so that only seq, ts and the chain are left for the log's lock.
type prepared struct {
	action, actor, subject []byte
	input, output, policy  []byte // nil when absent
	metadata               []byte // nil when absent
	metadataHash           string // "" when metadata is absent
	// buf is the buffer the parts were made in, kept with p in
	// preparedPool once the record is chained (release).
	buf []byte
}

// preparedPool keeps prepared records and their buffers between
// appends: a record's parts are copied into the log's buffer when it is
// chained, after which nothing reads them.
var preparedPool = sync.Pool{New: func() any { return new(prepared) }}

// maxPooledPrepared is the largest buffer preparedPool keeps.
const maxPooledPrepared = 64 << 10

// release returns p to preparedPool. p, and every part of it, must not be
// used afterwards.
func (p *prepared) release() {
	buf := p.buf[:0]
	*p = prepared{}
	if cap(buf) <= maxPooledPrepared {
		p.buf = buf
		preparedPool.Put(p)
	}
}

// prepare checks, redacts, caps and canonicalizes ev.
func (l *Log) prepare(ev *Event) (*prepared, error) {
	if err := ev.check(); err != nil {
		return nil, err
	}
	ev.redactNames()
	output, mirror, err := l.shareResult(ev)
	if err != nil {
		return nil, err
	}
	// All the parts share one buffer; each part is a full slice of it, so
	// growing the buffer never changes a part already made. A shared
	// result is copied into output and into the mirror.
	size := 1024
	if st, ok := output.(*sharedTree); ok {
		size += len(st.canon)
	}
	if mirror != nil {
		for _, v := range [...]any{mirror.Result, mirror.Error} {
			if st, ok := v.(*sharedTree); ok {
				size += len(st.canon)
			}
		}
	}
	p := preparedPool.Get().(*prepared)
	buf := p.buf[:0]
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	p.buf = buf
	cut := func(start int) []byte { return buf[start:len(buf):len(buf)] }
	start := len(buf)
	buf = appendCanonicalString(buf, ev.Action)
	p.action = cut(start)

	// Members in canonical order: actor {id, role}, subject {kind, path,
	// ref}, policy {decision, ref}.
	start = len(buf)
	buf = appendCanonicalString(append(buf, `{"id":`...), ev.Actor.ID)
	if ev.Actor.Role != "" {
		buf = appendCanonicalString(append(buf, `,"role":`...), ev.Actor.Role)
	}
	buf = append(buf, '}')
	p.actor = cut(start)
	start = len(buf)
	buf = appendCanonicalString(append(buf, `{"kind":`...), ev.Subject.Kind)
	if ev.Subject.Path != "" {
		buf = appendCanonicalString(append(buf, `,"path":`...), shorten(ev.Subject.Path, 1024))
	}
	if ev.Subject.Ref != "" {
		buf = appendCanonicalString(append(buf, `,"ref":`...), shorten(ev.Subject.Ref, 256))
	}
	buf = append(buf, '}')
	p.subject = cut(start)

	// Members put into the caller's metadata: the mirror as shareResult
	// made it, and the policy's reference when it is not a slug.
	var over []member
	if ev.Policy != nil {
		// The slug is made from the redacted reference: a slug keeps the
		// letters and digits of a secret in a rule's text. The original
		// goes to metadata, which is redacted as a whole.
		ref, _ := redactString(ev.Policy.Ref)
		slug := policySlug(ref)
		start = len(buf)
		buf = append(buf, '{')
		if ev.Policy.Decision != "" {
			buf = appendCanonicalString(append(buf, `"decision":`...), ev.Policy.Decision)
			buf = append(buf, ',')
		}
		buf = appendCanonicalString(append(buf, `"ref":`...), slug)
		buf = append(buf, '}')
		p.policy = cut(start)
		if _, set := ev.Metadata["policyRule"]; slug != ev.Policy.Ref && !set {
			over = append(over, member{"policyRule", ev.Policy.Ref})
		}
	}
	if buf, p.input, err = l.field(buf, "input", ev.Input, true); err != nil {
		return nil, err
	}
	if buf, p.output, err = l.field(buf, "output", output, true); err != nil {
		return nil, err
	}
	if mirror != nil {
		// The pointer: encoded as the ToolCall it points to, without
		// boxing a copy.
		over = append(over, member{"toolCall", mirror})
	}
	if len(ev.Metadata) > 0 || len(over) > 0 {
		if p.metadata, err = l.metadataField(buf, ev.Metadata, over); err != nil {
			return nil, err
		}
		p.metadataHash = hashHex(p.metadata)
	}
	p.buf = buf
	return p, nil
}

// metadataField is field for the metadata m with the members over put
// in: encoded without a tree unless a key would be renamed.
func (l *Log) metadataField(dst []byte, m map[string]any, over []member) (part []byte, err error) {
	start := len(dst)
	out, ok, err := l.red.appendMapOver(dst, m, over)
	if err != nil {
		return nil, fmt.Errorf("%w: encoding metadata: %v", ErrInvalidEvent, err)
	}
	if ok {
		_, part, err = l.capField(out, start)
		return part, err
	}
	meta := make(map[string]any, len(m)+len(over))
	for k, v := range m {
		meta[k] = v
	}
	for _, o := range over {
		meta[o.k] = o.v
	}
	_, part, err = l.fieldTree(dst[:start], "metadata", meta, false)
	return part, err
}

// shareResult returns the event's output and metadata["toolCall"] to
// encode. A tool's output (ToolOutput) is read as Options.Content says;
// one read already (*ReadOutput) is taken as it was read.
// A finished tool call's record carries its result twice, as output and
// as the mirror's result or error, from the same bytes: when they are,
// the result is decoded, redacted and canonicalized once, and both places
// take that (a *sharedTree). The record is the same as without sharing.
// mirror is nil when the mirror is to be encoded as it is.
func (l *Log) shareResult(ev *Event) (output any, mirror *ToolCall, err error) {
	output = ev.Output
	tc, hasMirror := ev.Metadata["toolCall"].(ToolCall)
	var shared *sharedTree
	var sharedRaw []byte
	switch v := ev.Output.(type) {
	case *ReadOutput:
		st, err := l.readBy(v)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: encoding output: %v", ErrInvalidEvent, err)
		}
		output = orNil(st)
	case ToolOutput:
		if len(v) == 0 {
			output = nil
			break
		}
		if shared, err = l.outputTree(v); err != nil {
			return nil, nil, fmt.Errorf("%w: encoding output: %v", ErrInvalidEvent, err)
		}
		output, sharedRaw = orNil(shared), v
	case json.RawMessage:
		if len(v) == 0 || !hasMirror || !sameBytes(rawOf(tc.Result), v) && !sameBytes(rawOf(tc.Error), v) {
			break
		}
		tree, err := decodeTree(v)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: encoding output: %v", ErrInvalidEvent, err)
		}
		shared = &sharedTree{v: l.red.tree(tree)}
		output, sharedRaw = shared, v
	}
	if !hasMirror {
		return output, nil, nil
	}
	changed := false
	for _, f := range [...]*any{&tc.Result, &tc.Error} {
		if r, ok := (*f).(*ReadOutput); ok {
			st, err := l.readBy(r)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: encoding the tool call's result: %v", ErrInvalidEvent, err)
			}
			*f, changed = orNil(st), true
			continue
		}
		raw := rawOf(*f)
		switch {
		case shared != nil && sameBytes(raw, sharedRaw):
			*f, changed = orNil(shared), true
		case len(raw) > 0 && isToolOutput(*f):
			st, err := l.outputTree(raw)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: encoding the tool call's result: %v", ErrInvalidEvent, err)
			}
			*f, changed = orNil(st), true
		}
	}
	if l.shareInput(ev, &tc) {
		changed = true
	}
	if !changed {
		return output, nil, nil
	}
	return output, &tc, nil
}

// shareInput reads the event's input once where the mirror's arguments
// are the same bytes (governance gives both the call's kept input): both
// then take its canonical form, as field and appendToolCall would each
// make it. It reports whether it replaced them.
func (l *Log) shareInput(ev *Event, tc *ToolCall) bool {
	in, ok := ev.Input.(json.RawMessage)
	args, _ := tc.Arguments.(json.RawMessage)
	if !ok || !sameBytes(in, args) {
		return false
	}
	canon, ok := l.red.scanJSON(in)
	if !ok {
		return false // each is read through the tree, as before
	}
	if string(canon) == "null" {
		// Left out of both, as a null input is.
		ev.Input, tc.Arguments = nil, nil
		return true
	}
	st := scannedTree(canon)
	ev.Input, tc.Arguments = st, st
	return true
}

// orNil returns st, or nil when it holds JSON null: a tool's output of
// null is left out, as a json.RawMessage null is.
func orNil(st *sharedTree) any {
	if st.v == nil {
		return nil
	}
	return st
}

// rawOf returns the bytes of a json.RawMessage or ToolOutput, else nil.
func rawOf(v any) []byte {
	switch v := v.(type) {
	case json.RawMessage:
		return v
	case ToolOutput:
		return v
	}
	return nil
}

func isToolOutput(v any) bool {
	_, ok := v.(ToolOutput)
	return ok
}

// sameBytes reports whether a and b are the same bytes in memory, not
// merely equal ones: a cheap test that needs no comparison of content.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// sharedTree is a decoded tree already redacted, taken by more than one
// part of a record: toTree and the redactor pass it through unchanged, and
// appendCanonical encodes it once and copies the bytes thereafter.
type sharedTree struct {
	v     any
	canon []byte
}

// redactNames redacts the strings of the record outside input, output
// and metadata: actor, subject and action. An agent chooses many of them
// (a terminal's command line as subject ref, a tool title, a session id),
// so they hold secrets as often as arguments do. The AIP-7 length limits
// are applied after redaction, since a marker may be longer than what it
// replaced.
func (ev *Event) redactNames() {
	red := func(s string, max int) string {
		s, _ = redactString(s)
		return shorten(s, max)
	}
	ev.Actor.ID = red(ev.Actor.ID, 256)
	ev.Actor.Role = red(ev.Actor.Role, 64)
	ev.Subject.Kind = red(ev.Subject.Kind, 32)
	ev.Subject.Ref = red(ev.Subject.Ref, 256)
	ev.Subject.Path = red(ev.Subject.Path, 1024)
	if a, _ := redactString(ev.Action); a != ev.Action {
		// Actions are names the bridge chooses; one that held a secret
		// is written as a name that says so.
		ev.Action = "redacted.action"
	}
}

// field redacts, caps and canonicalizes one of input, output and
// metadata, appending it to dst; part is the slice of dst it takes (nil
// when v is nil). With wrap, a value that is not an object is wrapped as
// {"value": v}, because AIP-7 wants objects there.
func (l *Log) field(dst []byte, name string, v any, wrap bool) (out, part []byte, err error) {
	if m, ok := v.(map[string]any); ok {
		// An object, so never wrapped: encoded without a tree unless a
		// key would be renamed (encode.go).
		start := len(dst)
		out, ok, err := l.red.appendMap(dst, m)
		if err != nil {
			return out[:start], nil, fmt.Errorf("%w: encoding %s: %v", ErrInvalidEvent, name, err)
		}
		if ok {
			return l.capField(out, start)
		}
		dst = out[:start]
	}
	if st, ok := v.(*sharedTree); ok && st.canon != nil {
		// A tool's output, read already: its canonical form, wrapped
		// as fieldTree would wrap it.
		start := len(dst)
		if wrap && !isObject(st.v) {
			dst = append(append(append(dst, `{"value":`...), st.canon...), '}')
		} else {
			dst = append(dst, st.canon...)
		}
		return l.capField(dst, start)
	}
	if raw, ok := v.(json.RawMessage); ok && len(raw) > 0 {
		// Raw JSON (a tool call's input) is read in one pass where
		// scanJSON takes it.
		if canon, ok := l.red.scanJSON(raw); ok {
			if string(canon) == "null" {
				return dst, nil, nil
			}
			start := len(dst)
			if canon[0] != '{' && wrap {
				dst = append(append(append(dst, `{"value":`...), canon...), '}')
			} else {
				dst = append(dst, canon...)
			}
			return l.capField(dst, start)
		}
	}
	return l.fieldTree(dst, name, v, wrap)
}

// fieldTree is field through a tree: toTree's copy of v, redacted in
// place, then encoded.
func (l *Log) fieldTree(dst []byte, name string, v any, wrap bool) (out, part []byte, err error) {
	if v == nil {
		return dst, nil, nil
	}
	tree, err := toTree(v)
	if err != nil {
		return dst, nil, fmt.Errorf("%w: encoding %s: %v", ErrInvalidEvent, name, err)
	}
	if tree == nil {
		return dst, nil, nil
	}
	tree = l.red.tree(tree)
	inner := tree
	if st, ok := tree.(*sharedTree); ok {
		inner = st.v
	}
	if !isObject(inner) && wrap {
		tree = map[string]any{"value": tree}
	}
	start := len(dst)
	if dst, err = appendCanonical(dst, tree); err != nil {
		return dst[:start], nil, fmt.Errorf("%w: encoding %s: %v", ErrInvalidEvent, name, err)
	}
	return l.capField(dst, start)
}

// isObject reports whether a redacted tree is a JSON object.
func isObject(v any) bool {
	switch v.(type) {
	case map[string]any, canonObject:
		return true
	}
	return false
}

// capField replaces the field that starts at dst[start:] by a truncation
// marker when it is larger than MaxFieldBytes, and returns it.
func (l *Log) capField(dst []byte, start int) (out, part []byte, err error) {
	if n := len(dst) - start; n > l.opts.MaxFieldBytes {
		sum := hashHex(dst[start:])
		dst, _ = appendCanonical(dst[:start], map[string]any{
			"$truncated": true,
			"bytes":      jsonInt(n),
			"sha256":     sum,
		})
	}
	return dst, dst[start:len(dst):len(dst)], nil
}

// appendHashed appends the canonical form of the event without hash,
// hashAlg and metadata: what its hash covers. Members are in RFC 8785 key
// order.
func (p *prepared) appendHashed(dst []byte, seq int64, ts, prev, run string) []byte {
	dst = p.appendHead(dst)
	dst = appendRawMember(dst, `,"input":`, p.input)
	if p.metadataHash != "" {
		dst = append(dst, `,"metadataHash":"`...)
		dst = append(dst, p.metadataHash...)
		dst = append(dst, '"')
	}
	return p.appendTail(dst, seq, ts, prev, run)
}

// appendLine appends the whole line: the canonical form of the complete
// record, newline-terminated.
func (p *prepared) appendLine(dst []byte, seq int64, ts, prev, run, hash string) []byte {
	dst = p.appendHead(dst)
	dst = append(dst, `,"hash":"`...)
	dst = append(dst, hash...)
	dst = append(dst, `","hashAlg":"`+HashAlg+`"`...)
	dst = appendRawMember(dst, `,"input":`, p.input)
	if p.metadata != nil {
		dst = append(dst, `,"metadata":`...)
		dst = append(dst, p.metadata...)
		dst = append(dst, `,"metadataHash":"`...)
		dst = append(dst, p.metadataHash...)
		dst = append(dst, '"')
	}
	dst = p.appendTail(dst, seq, ts, prev, run)
	return append(dst, '\n')
}

// appendHead appends the members both forms of the event start with
// (appendHashed, appendLine): $schema, action, actor and doctype.
func (p *prepared) appendHead(dst []byte) []byte {
	dst = append(dst, `{"$schema":"`+SchemaTag+`","action":`...)
	dst = append(dst, p.action...)
	dst = append(dst, `,"actor":`...)
	dst = append(dst, p.actor...)
	return append(dst, `,"doctype":"`+Doctype+`"`...)
}

// appendTail appends the members both forms of the event end with, from
// output on, and closes the object.
func (p *prepared) appendTail(dst []byte, seq int64, ts, prev, run string) []byte {
	dst = appendRawMember(dst, `,"output":`, p.output)
	dst = appendRawMember(dst, `,"policy":`, p.policy)
	dst = append(dst, `,"prevHash":"`...)
	dst = append(dst, prev...)
	if run != "" {
		dst = append(dst, `","runId":"`...)
		dst = append(dst, run...)
	}
	dst = append(dst, `","seq":`...)
	dst = strconv.AppendInt(dst, seq, 10)
	dst = append(dst, `,"subject":`...)
	dst = append(dst, p.subject...)
	dst = append(dst, `,"ts":"`...)
	dst = append(dst, ts...)
	return append(dst, `"}`...)
}

// appendRawMember appends the member whose value is the canonical JSON v,
// its name given with the comma before it and the colon after (`,"input":`),
// or nothing when v is nil: the member is absent.
func appendRawMember(dst []byte, name string, v []byte) []byte {
	if v == nil {
		return dst
	}
	dst = append(dst, name...)
	return append(dst, v...)
}

// Record is one line of an audit log, as read back.
type Record struct {
	Schema   string          `json:"$schema"`
	Doctype  string          `json:"doctype"`
	Seq      int64           `json:"seq"`
	TS       string          `json:"ts"`
	Actor    Actor           `json:"actor"`
	Action   string          `json:"action"`
	Subject  Subject         `json:"subject"`
	Input    json.RawMessage `json:"input,omitempty"`
	Output   json.RawMessage `json:"output,omitempty"`
	Policy   *Policy         `json:"policy,omitempty"`
	PrevHash string          `json:"prevHash"`
	// RunID names the bridge run (the Log) that wrote the event; empty
	// in logs written before run ids existed.
	RunID        string          `json:"runId,omitempty"`
	Hash         string          `json:"hash"`
	HashAlg      string          `json:"hashAlg,omitempty"`
	MetadataHash string          `json:"metadataHash,omitempty"`
	Metadata     json.RawMessage `json:"metadata,omitempty"`
}
