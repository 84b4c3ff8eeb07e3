package aacp

import "strings"

// A Field is one named key:value field of a packet. Value is the decoded
// value: escapes are resolved.
type Field struct {
	Key   string
	Value string
}

// A Packet is a decoded AACP packet: the two positional fields and the named
// fields in the order they appeared. Named fields are looked up by name (Get),
// never by position: v1.1 places return: right after DOM, and a receiver must
// not assume any other order.
type Packet struct {
	Task   string  // field 0, the action verb, e.g. "FETCH"
	Domain string  // field 1, the business domain, e.g. "HR"
	Fields []Field // the named fields, in packet order
}

// Get returns the value of the named field key and whether it is present.
// Keys are case-sensitive.
func (p *Packet) Get(key string) (string, bool) {
	for _, f := range p.Fields {
		if f.Key == key {
			return f.Value, true
		}
	}
	return "", false
}

// Value returns the value of the named field key, or "" when it is absent.
func (p *Packet) Value(key string) string {
	v, _ := p.Get(key)
	return v
}

// Return returns the return: field, the agent that receives the result.
func (p *Packet) Return() string { return p.Value("return") }

// Version returns the aacp: field, the protocol version of the packet.
func (p *Packet) Version() string { return p.Value("aacp") }

// Priority returns the p: field, or "2" (medium, the draft's default) when it
// is absent.
func (p *Packet) Priority() string {
	if v, ok := p.Get("p"); ok {
		return v
	}
	return "2"
}

// Set sets the named field key to value, replacing its value in place when
// present and appending it otherwise.
func (p *Packet) Set(key, value string) {
	for i := range p.Fields {
		if p.Fields[i].Key == key {
			p.Fields[i].Value = value
			return
		}
	}
	p.Fields = append(p.Fields, Field{key, value})
}

// String encodes p in canonical form: TASK|DOM|key:value|..., with every
// '\' and '|' in a value written as "\\" and "\|". A ':' in a value is
// written as is, because only the first ':' of a field separates key from
// value; so a packet whose values hold no '\' or '|' encodes to exactly the
// bytes an implementation without escaping would produce. String does not
// validate p: use Validate for that.
func (p *Packet) String() string {
	var b strings.Builder
	n := len(p.Task) + len(p.Domain) + 1
	for _, f := range p.Fields {
		n += len(f.Key) + len(f.Value) + 2
	}
	b.Grow(n)
	b.WriteString(p.Task)
	b.WriteByte('|')
	b.WriteString(p.Domain)
	for _, f := range p.Fields {
		b.WriteByte('|')
		b.WriteString(f.Key)
		b.WriteByte(':')
		writeEscaped(&b, f.Value)
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler with the canonical form.
func (p *Packet) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler. It fails when the text
// has error-severity diagnostics; warnings are ignored.
func (p *Packet) UnmarshalText(text []byte) error {
	q, ds := Parse(string(text))
	if err := ds.Err(); err != nil {
		return err
	}
	*p = *q
	return nil
}

// Validate checks p as a receiver would: it encodes p and parses the result,
// so the diagnostics' columns refer to p.String().
func (p *Packet) Validate() Diagnostics {
	_, ds := Parse(p.String())
	return ds
}

// Escape returns v with '\' and '|' escaped as "\\" and "\|", the form a value
// takes inside a packet.
func Escape(v string) string {
	if !strings.ContainsAny(v, `\|`) {
		return v
	}
	var b strings.Builder
	b.Grow(len(v) + 4)
	writeEscaped(&b, v)
	return b.String()
}

func writeEscaped(b *strings.Builder, v string) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '\\' || c == '|' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
}
