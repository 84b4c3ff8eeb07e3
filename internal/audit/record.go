package audit

import (
	"encoding/json"
	"fmt"
	"strconv"
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
}

// prepare checks, redacts, caps and canonicalizes ev.
func (l *Log) prepare(ev *Event) (*prepared, error) {
	if err := ev.check(); err != nil {
		return nil, err
	}
	p := &prepared{
		action: appendCanonicalString(nil, ev.Action),
	}
	// Members in canonical order: actor {id, role}, subject {kind, path,
	// ref}, policy {decision, ref}.
	p.actor = appendCanonicalString(append(p.actor, `{"id":`...), ev.Actor.ID)
	if ev.Actor.Role != "" {
		p.actor = appendCanonicalString(append(p.actor, `,"role":`...), ev.Actor.Role)
	}
	p.actor = append(p.actor, '}')
	p.subject = appendCanonicalString(append(p.subject, `{"kind":`...), ev.Subject.Kind)
	if ev.Subject.Path != "" {
		p.subject = appendCanonicalString(append(p.subject, `,"path":`...), shorten(ev.Subject.Path, 1024))
	}
	if ev.Subject.Ref != "" {
		p.subject = appendCanonicalString(append(p.subject, `,"ref":`...), shorten(ev.Subject.Ref, 256))
	}
	p.subject = append(p.subject, '}')

	var meta map[string]any
	if ev.Policy != nil {
		slug := policySlug(ev.Policy.Ref)
		p.policy = append(p.policy, '{')
		if ev.Policy.Decision != "" {
			p.policy = appendCanonicalString(append(p.policy, `"decision":`...), ev.Policy.Decision)
			p.policy = append(p.policy, ',')
		}
		p.policy = appendCanonicalString(append(p.policy, `"ref":`...), slug)
		p.policy = append(p.policy, '}')
		if slug != ev.Policy.Ref {
			meta = map[string]any{"policyRule": ev.Policy.Ref}
		}
	}
	var err error
	if p.input, err = l.field("input", ev.Input, true); err != nil {
		return nil, err
	}
	if p.output, err = l.field("output", ev.Output, true); err != nil {
		return nil, err
	}
	if len(ev.Metadata) > 0 || meta != nil {
		if meta == nil {
			meta = make(map[string]any, len(ev.Metadata))
		}
		for k, v := range ev.Metadata {
			meta[k] = v
		}
		if p.metadata, err = l.field("metadata", meta, false); err != nil {
			return nil, err
		}
		p.metadataHash = hashHex(p.metadata)
	}
	return p, nil
}

// field redacts, caps and canonicalizes one of input, output and
// metadata. With wrap, a value that is not an object is wrapped as
// {"value": v}, because AIP-7 wants objects there.
func (l *Log) field(name string, v any, wrap bool) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	tree, err := toTree(v)
	if err != nil {
		return nil, fmt.Errorf("%w: encoding %s: %v", ErrInvalidEvent, name, err)
	}
	if tree == nil {
		return nil, nil
	}
	tree = l.red.tree(tree)
	if _, ok := tree.(map[string]any); !ok && wrap {
		tree = map[string]any{"value": tree}
	}
	out, err := appendCanonical(nil, tree)
	if err != nil {
		return nil, fmt.Errorf("%w: encoding %s: %v", ErrInvalidEvent, name, err)
	}
	if len(out) > l.opts.MaxFieldBytes {
		out, _ = appendCanonical(nil, map[string]any{
			"$truncated": true,
			"bytes":      jsonInt(len(out)),
			"sha256":     hashHex(out),
		})
	}
	return out, nil
}

// appendHashed appends the canonical form of the event without hash,
// hashAlg and metadata: what its hash covers. Members are in RFC 8785 key
// order.
func (p *prepared) appendHashed(dst []byte, seq int64, ts, prev string) []byte {
	dst = append(dst, `{"$schema":"`+SchemaTag+`","action":`...)
	dst = append(dst, p.action...)
	dst = append(dst, `,"actor":`...)
	dst = append(dst, p.actor...)
	dst = append(dst, `,"doctype":"`+Doctype+`"`...)
	if p.input != nil {
		dst = append(dst, `,"input":`...)
		dst = append(dst, p.input...)
	}
	if p.metadataHash != "" {
		dst = append(dst, `,"metadataHash":"`...)
		dst = append(dst, p.metadataHash...)
		dst = append(dst, '"')
	}
	return p.appendTail(dst, seq, ts, prev)
}

// appendLine appends the whole line: the canonical form of the complete
// record, newline-terminated.
func (p *prepared) appendLine(dst []byte, seq int64, ts, prev, hash string) []byte {
	dst = append(dst, `{"$schema":"`+SchemaTag+`","action":`...)
	dst = append(dst, p.action...)
	dst = append(dst, `,"actor":`...)
	dst = append(dst, p.actor...)
	dst = append(dst, `,"doctype":"`+Doctype+`","hash":"`...)
	dst = append(dst, hash...)
	dst = append(dst, `","hashAlg":"`+HashAlg+`"`...)
	if p.input != nil {
		dst = append(dst, `,"input":`...)
		dst = append(dst, p.input...)
	}
	if p.metadata != nil {
		dst = append(dst, `,"metadata":`...)
		dst = append(dst, p.metadata...)
		dst = append(dst, `,"metadataHash":"`...)
		dst = append(dst, p.metadataHash...)
		dst = append(dst, '"')
	}
	dst = p.appendTail(dst, seq, ts, prev)
	return append(dst, '\n')
}

func (p *prepared) appendTail(dst []byte, seq int64, ts, prev string) []byte {
	if p.output != nil {
		dst = append(dst, `,"output":`...)
		dst = append(dst, p.output...)
	}
	if p.policy != nil {
		dst = append(dst, `,"policy":`...)
		dst = append(dst, p.policy...)
	}
	dst = append(dst, `,"prevHash":"`...)
	dst = append(dst, prev...)
	dst = append(dst, `","seq":`...)
	dst = strconv.AppendInt(dst, seq, 10)
	dst = append(dst, `,"subject":`...)
	dst = append(dst, p.subject...)
	dst = append(dst, `,"ts":"`...)
	dst = append(dst, ts...)
	return append(dst, `"}`...)
}

// Record is one line of an audit log, as read back.
type Record struct {
	Schema       string          `json:"$schema"`
	Doctype      string          `json:"doctype"`
	Seq          int64           `json:"seq"`
	TS           string          `json:"ts"`
	Actor        Actor           `json:"actor"`
	Action       string          `json:"action"`
	Subject      Subject         `json:"subject"`
	Input        json.RawMessage `json:"input,omitempty"`
	Output       json.RawMessage `json:"output,omitempty"`
	Policy       *Policy         `json:"policy,omitempty"`
	PrevHash     string          `json:"prevHash"`
	Hash         string          `json:"hash"`
	HashAlg      string          `json:"hashAlg,omitempty"`
	MetadataHash string          `json:"metadataHash,omitempty"`
	Metadata     json.RawMessage `json:"metadata,omitempty"`
}
