package audit

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// ParseEntryBrief is ParseEntry for an index: the same entry, but with
// Raw, Output, Metadata and the tool-call mirror's Result and Error left
// empty, so the bulk of a line (a tool's output, and its copy in the
// mirror) is checked but not decoded or copied.
//
// It reads the line with a member scanner: rawjson.ValidMembers checks
// the whole line as encoding/json would and hands over the top-level
// members, and only the members an entry holds are decoded. The scanner
// takes the lines the writer produces (known member names, each once,
// with the expected types) and gives up on anything else (a name written
// with escapes or in another case, which encoding/json would match
// case-insensitively; a repeated name, of which encoding/json keeps the
// last; a value of an unexpected type in metadata); such a line is read
// by encoding/json as ParseEntry does. FuzzParseEntryBrief checks that
// both readings agree.
func ParseEntryBrief(line []byte) (e Entry, ok bool) {
	e, ok, sure := scanEntry(line)
	if sure {
		return e, ok
	}
	e, ok = parseEntry(line)
	e.Raw, e.Output, e.Metadata = nil, nil, nil
	if e.ToolCall != nil {
		e.ToolCall.Result, e.ToolCall.Error = nil, nil
	}
	return e, ok
}

// recordNames are the member names of a Record, as encoding/json matches
// them. Bit i of scanner.seen stands for recordNames[i].
var recordNames = []string{"$schema", "doctype", "seq", "ts", "actor", "action", "subject", "input", "output", "policy",
	"prevHash", "runId", "hash", "hashAlg", "metadataHash", "metadata"}

// metaNames are the members of metadata an Entry derives from.
var metaNames = []string{"session", "toolCall", "policyRule", "rule", "reason", "approved"}

// toolCallNames are the members of a ToolCallRecord.
var toolCallNames = []string{"kind", "operator", "session", "toolCallId", "tool", "arguments", "result", "error", "approval"}

// actorNames, subjectNames and policyNames are the members of an Actor, a
// Subject and a Policy.
var (
	actorNames   = []string{"id", "role"}
	subjectNames = []string{"kind", "path", "ref"}
	policyNames  = []string{"ref", "decision"}
)

// memberScan reads the members of one object for the scanner. It notes
// when the object holds something it cannot read as encoding/json would
// (unsure), and when a member has a type encoding/json would refuse
// (bad).
type memberScan struct {
	names       []string
	seen        uint32
	unsure, bad bool
}

// name returns the index in s.names of a member's name as written
// (quotes included), or -1 for a name encoding/json would ignore. A name
// it cannot be sure of makes the scan unsure.
func (s *memberScan) name(quoted []byte) int {
	n := quoted[1 : len(quoted)-1]
	for i, want := range s.names {
		if string(n) == want {
			if s.seen&(1<<i) != 0 {
				s.unsure = true // repeated: encoding/json keeps the last, merging objects
			}
			s.seen |= 1 << i
			return i
		}
	}
	for _, c := range n {
		if c == '\\' || c >= utf8.RuneSelf {
			s.unsure = true // may decode or fold to a known name
			return -1
		}
	}
	for _, want := range s.names {
		if strings.EqualFold(string(n), want) {
			s.unsure = true // encoding/json matches names case-insensitively
			return -1
		}
	}
	return -1
}

// holds reports whether the member value v is of the type that opens
// with the byte open ('"', '{'), to be read; null is not (it leaves the
// destination as it is), and another type is not and is bad.
func (s *memberScan) holds(v []byte, open byte) bool {
	switch v[0] {
	case 'n':
		return false
	case open:
		return true
	}
	s.bad = true
	return false
}

// str decodes a string member into dst as encoding/json would: null
// leaves dst as it is, another type is bad.
func (s *memberScan) str(v []byte, dst *string) {
	if !s.holds(v, '"') {
		return
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		*dst = string(inner)
		return
	}
	// Escapes or invalid UTF-8 (replaced by U+FFFD): rare in the log.
	if err := json.Unmarshal(v, dst); err != nil {
		s.bad = true
	}
}

// boolean decodes a boolean member into dst as encoding/json decodes one
// into a *bool: null leaves dst as it is, another type is bad.
func (s *memberScan) boolean(v []byte, dst **bool) {
	switch string(v) {
	case "true", "false":
		b := v[0] == 't'
		*dst = &b
	case "null":
	default:
		s.bad = true
	}
}

// raw copies a json.RawMessage member as encoding/json does (null is
// kept as the bytes null).
func raw(v []byte) json.RawMessage { return bytes.Clone(v) }

// object reads an object member with fields: null leaves it as it is,
// another type is bad.
func (s *memberScan) object(v []byte, names []string, fn func(i int, v []byte, in *memberScan)) {
	if !s.holds(v, '{') {
		return
	}
	in := memberScan{names: names}
	rawjson.ValidMembers(v, func(name, value []byte) {
		if i := in.name(name); i >= 0 {
			fn(i, value, &in)
		}
	})
	s.unsure = s.unsure || in.unsure
	s.bad = s.bad || in.bad
}

// scanEntry reads line as ParseEntryBrief does. sure is false when the
// line needs encoding/json to be read right.
func scanEntry(line []byte) (e Entry, ok, sure bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r') {
		i++
	}
	if i == len(line) || line[i] != '{' {
		// Not an object: not an event, whether valid JSON or not.
		return e, false, true
	}
	s := memberScan{names: recordNames}
	var meta, output []byte
	r := &e.Record
	valid := rawjson.ValidMembers(line, func(name, v []byte) {
		switch i := s.name(name); i {
		case 0:
			s.str(v, &r.Schema)
		case 1:
			s.str(v, &r.Doctype)
		case 2:
			switch {
			case v[0] == 'n':
			case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
				n, err := strconv.ParseInt(string(v), 10, 64)
				if err != nil {
					s.bad = true // a fraction, an exponent, or out of range
				}
				r.Seq = n
			default:
				s.bad = true
			}
		case 3:
			s.str(v, &r.TS)
		case 4:
			s.object(v, actorNames, func(i int, v []byte, in *memberScan) {
				in.str(v, []*string{&r.Actor.ID, &r.Actor.Role}[i])
			})
		case 5:
			s.str(v, &r.Action)
		case 6:
			s.object(v, subjectNames, func(i int, v []byte, in *memberScan) {
				in.str(v, []*string{&r.Subject.Kind, &r.Subject.Path, &r.Subject.Ref}[i])
			})
		case 7:
			r.Input = raw(v)
		case 8:
			// output: checked by ValidMembers, not kept; an
			// approval.recorded's is read for its answer below.
			output = v
		case 9:
			if v[0] == 'n' {
				r.Policy = nil
				return
			}
			p := &Policy{}
			s.object(v, policyNames, func(i int, v []byte, in *memberScan) {
				in.str(v, []*string{&p.Ref, &p.Decision}[i])
			})
			r.Policy = p
		case 10, 11, 12, 13, 14:
			s.str(v, []*string{&r.PrevHash, &r.RunID, &r.Hash, &r.HashAlg, &r.MetadataHash}[i-10])
		case 15:
			meta = v
		}
	})
	if !valid || s.bad {
		return e, false, true // encoding/json fails on it too
	}
	if s.unsure {
		return e, false, false
	}
	if r.Doctype != Doctype {
		return e, false, true
	}
	m, sure := scanMeta(meta)
	if !sure {
		return e, false, false
	}
	e.derive(m, output)
	return e, true, true
}

// scanMeta reads what an entry derives from metadata as jsonMeta does
// (a metadata that is not an object, or null, gives nothing). sure is
// false when jsonMeta must read it instead: encoding/json keeps reading
// past a member of the wrong type, which the scanner does not copy.
func scanMeta(v []byte) (m entryMeta, sure bool) {
	if len(v) == 0 || v[0] != '{' {
		return m, true
	}
	s := memberScan{names: metaNames}
	s.object(v, metaNames, func(i int, v []byte, in *memberScan) {
		switch i {
		case 0:
			in.str(v, &m.Session)
		case 1:
			switch v[0] {
			case 'n':
				m.ToolCall = nil
			case '{':
				tc := &ToolCallRecord{}
				in.object(v, toolCallNames, func(i int, v []byte, tin *memberScan) {
					switch i {
					case 5:
						tc.Arguments = raw(v)
					case 6, 7:
						// result, error: not kept.
					default:
						tin.str(v, []*string{&tc.Kind, &tc.Operator, &tc.Session, &tc.ToolCallID, &tc.Tool, 8: &tc.Approval}[i])
					}
				})
				m.ToolCall = tc
			default:
				in.bad = true
			}
		case 2, 3, 4:
			in.str(v, []*string{&m.PolicyRule, &m.Rule, &m.Reason}[i-2])
		case 5:
			in.boolean(v, &m.Approved)
		}
	})
	return m, !s.unsure && !s.bad
}
