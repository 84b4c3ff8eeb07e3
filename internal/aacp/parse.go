package aacp

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Limits that bound the work Parse does on untrusted input.
const (
	// MaxPacketBytes is the longest packet Parse accepts (64 KiB). Draft
	// packets are under 200 bytes; the limit only stops abuse.
	MaxPacketBytes = 64 << 10
	// MaxFields is the largest number of fields Parse accepts in one packet.
	MaxFields = 256
)

// Parse decodes and validates one packet, s, without its line terminator.
// It returns every problem it finds, in column order, so a user sees them all
// at once. The packet is returned only when no diagnostic is an error;
// warnings never reject a packet.
//
// Parse never panics and runs in time linear in len(s).
func Parse(s string) (*Packet, Diagnostics) {
	p := &parser{src: s}
	pkt := p.parse()
	sort.SliceStable(p.diags, func(i, j int) bool { return p.diags[i].Column < p.diags[j].Column })
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	return pkt, p.diags
}

type parser struct {
	src   string
	diags Diagnostics
}

func (p *parser) report(code Code, field string, col int, format string, args ...any) {
	p.diags = append(p.diags, Diagnostic{Code: code, Field: field, Column: col, Message: fmt.Sprintf(format, args...)})
}

// rawField is a field as cut from the packet: its text, still escaped, and the
// byte offset where it starts.
type rawField struct {
	text string
	off  int
}

func (p *parser) parse() *Packet {
	s := p.src
	if strings.TrimSpace(s) == "" {
		p.report(CodeEmptyPacket, "", 1, "empty packet")
		return nil
	}
	if len(s) > MaxPacketBytes {
		p.report(CodeTooLarge, "", 1, "packet is %d bytes, more than the limit of %d", len(s), MaxPacketBytes)
		return nil
	}
	p.checkChars()
	fields, ok := p.split()
	if !ok {
		return nil
	}

	pkt := &Packet{}
	// Field 0: TASK. A named field there means both positional fields are
	// missing; an empty one still leaves field 1 to be the DOM.
	f0 := fields[0]
	if f0.text != "" && firstColon(f0.text) >= 0 {
		p.report(CodeMissingTask, "TASK", 1, "missing TASK: field 0 is the named field %q, not an action verb", f0.text)
		p.report(CodeMissingDomain, "DOM", 1, "missing DOM: a packet starts with TASK|DOM")
		p.namedFields(pkt, fields)
		return pkt
	}
	if f0.text == "" {
		p.report(CodeMissingTask, "TASK", 1, "missing TASK: field 0 is empty")
	} else {
		pkt.Task = f0.text
		p.checkToken("TASK", f0, CodeMalformedTask, CodeUnknownTask, knownTasks)
	}
	// Field 1: DOM.
	if len(fields) == 1 {
		p.report(CodeMissingDomain, "DOM", len(s)+1, "missing DOM: the packet ends after TASK")
		p.namedFields(pkt, nil)
		return pkt
	}
	f1 := fields[1]
	switch {
	case f1.text == "":
		p.report(CodeMissingDomain, "DOM", f1.off+1, "missing DOM: field 1 is empty")
		p.namedFields(pkt, fields[2:])
	case firstColon(f1.text) >= 0:
		p.report(CodeMissingDomain, "DOM", f1.off+1, "missing DOM: field 1 is the named field %q, not a domain", f1.text)
		p.namedFields(pkt, fields[1:])
	default:
		pkt.Domain = f1.text
		p.checkToken("DOM", f1, CodeMalformedDomain, CodeUnknownDomain, knownDomains)
		p.namedFields(pkt, fields[2:])
	}
	return pkt
}

// namedFields decodes the fields after TASK and DOM, then checks the packet
// as a whole (required fields, companions, known keys).
func (p *parser) namedFields(pkt *Packet, named []rawField) {
	cols := make(map[string]int, len(named)) // key -> column of its first occurrence
	pkt.Fields = make([]Field, 0, len(named))
	for _, f := range named {
		p.namedField(pkt, f, cols)
	}
	p.checkSemantics(pkt, cols)
}

// checkChars reports the first control character or invalid UTF-8 sequence.
// Both would corrupt the one-packet-per-line framing or the audit log.
func (p *parser) checkChars() {
	s := p.src
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			p.report(CodeInvalidChar, "", i+1, "invalid UTF-8 byte 0x%02x", s[i])
			return
		case r < 0x20 || r == 0x7f:
			p.report(CodeInvalidChar, "", i+1, "control character %U is not allowed in a packet", r)
			return
		}
		i += size
	}
}

// split cuts the packet at every '|' that is not escaped by a '\'.
func (p *parser) split() ([]rawField, bool) {
	s := p.src
	var fields []rawField
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the escaped byte, whatever it is, cannot end the field
		case '|':
			fields = append(fields, rawField{s[start:i], start})
			start = i + 1
			if len(fields) >= MaxFields {
				p.report(CodeTooLarge, "", i+1, "packet has more than %d fields", MaxFields)
				return nil, false
			}
		}
	}
	fields = append(fields, rawField{s[start:], start})
	return fields, true
}

// firstColon returns the index of the first ':' in a raw field that is not
// escaped, or -1.
func firstColon(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ':':
			return i
		}
	}
	return -1
}

func (p *parser) checkToken(name string, f rawField, malformed, unknown Code, known map[string]bool) {
	example, defined := "FETCH", Tasks
	if name == "DOM" {
		example, defined = "HR", Domains
	}
	if !isToken(f.text) {
		p.report(malformed, name, f.off+1, "malformed %s %q: want an upper-case token such as %q", name, f.text, example)
		return
	}
	if !known[f.text] {
		p.report(unknown, name, f.off+1, "unknown %s %q (AACP %s defines %s); accepted for forward compatibility",
			name, f.text, Version, strings.Join(defined, ", "))
	}
}

func (p *parser) namedField(pkt *Packet, f rawField, cols map[string]int) {
	col := f.off + 1
	if f.text == "" {
		p.report(CodeEmptyField, "", col, "empty field: empty slots are not allowed")
		return
	}
	c := firstColon(f.text)
	if c < 0 {
		p.report(CodeNotNamed, "", col, "field %q is not a key:value pair", f.text)
		return
	}
	key := f.text[:c]
	if !isKey(key) {
		p.report(CodeInvalidKey, key, col, "invalid key %q: want a letter followed by letters, digits, '_', '-' or '.'", key)
		return
	}
	value, ok := p.unescape(key, f.text[c+1:], f.off+c+1)
	if !ok {
		return
	}
	if first, dup := cols[key]; dup {
		p.report(CodeDuplicateKey, key, col, "duplicate key %q (first at column %d)", key, first)
		return
	}
	cols[key] = col
	pkt.Fields = append(pkt.Fields, Field{key, value})
}

// unescape resolves "\\", "\|" and "\:" in a value starting at byte offset
// off of the packet. Any other '\' sequence is an error; only the first in a
// value is reported.
func (p *parser) unescape(key, v string, off int) (string, bool) {
	i := strings.IndexByte(v, '\\')
	if i < 0 {
		return v, true
	}
	var b strings.Builder
	b.Grow(len(v))
	b.WriteString(v[:i])
	for ; i < len(v); i++ {
		c := v[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(v) {
			p.report(CodeInvalidEscape, key, off+i+1, `invalid escape: '\' at the end of the value (write "\\" for a backslash)`)
			return "", false
		}
		switch n := v[i+1]; n {
		case '\\', '|', ':':
			b.WriteByte(n)
			i++
		default:
			// Only the first bad escape of a value is reported, so the
			// list stays short whatever the input.
			r, _ := utf8.DecodeRuneInString(v[i+1:])
			p.report(CodeInvalidEscape, key, off+i+1, `invalid escape "\%c": only "\\", "\|" and "\:" are defined`, r)
			return "", false
		}
	}
	return b.String(), true
}

func (p *parser) checkSemantics(pkt *Packet, cols map[string]int) {
	if v, ok := pkt.Get("return"); !ok {
		p.report(CodeMissingReturn, "return", 1, "missing return: field (the agent that receives the result)")
	} else if v == "" {
		p.report(CodeEmptyReturn, "return", cols["return"], "return: is empty")
	}
	if v, ok := pkt.Get("aacp"); !ok {
		p.report(CodeMissingVersion, "aacp", 1, "missing aacp: field (the protocol version, %q)", Version)
	} else if v == "" {
		p.report(CodeEmptyVersion, "aacp", cols["aacp"], "aacp: is empty (want %q)", Version)
	} else if v != Version {
		p.report(CodeVersionMismatch, "aacp", cols["aacp"], "version mismatch: packet is aacp:%s, this implementation speaks %s", v, Version)
	}
	if v, ok := pkt.Get("p"); !ok {
		p.report(CodeMissingPriority, "p", 1, "missing p: field (priority defaults to 2)")
	} else if !knownPrio[v] {
		p.report(CodeInvalidPriority, "p", cols["p"], "priority %q is not 1 (critical), 2 (medium) or 3 (low)", v)
	}
	for _, f := range pkt.Fields {
		col := cols[f.Key]
		if !knownKeys[f.Key] {
			if lk := strings.ToLower(f.Key); lk != f.Key && knownKeys[lk] {
				p.report(CodeUnknownKey, f.Key, col, "unknown key %q (keys are case-sensitive: did you mean %q?)", f.Key, lk)
			} else {
				p.report(CodeUnknownKey, f.Key, col, "unknown key %q; accepted as an extension", f.Key)
			}
		}
		if f.Value == "" && f.Key != "return" && f.Key != "aacp" && f.Key != "p" {
			p.report(CodeEmptyValue, f.Key, col, "%s: has an empty value", f.Key)
		}
	}
	if _, ok := pkt.Get("sentiment"); ok {
		if _, ok := pkt.Get("tone"); !ok {
			p.report(CodeSentimentNoTone, "sentiment", cols["sentiment"], "sentiment: without tone: (add tone:empathetic, formal or terse)")
		}
	}
	if _, ok := pkt.Get("ltv"); ok {
		if _, ok := pkt.Get("ccy"); !ok {
			p.report(CodeLTVNoCurrency, "ltv", cols["ltv"], "ltv: without ccy: (add the currency of the value)")
		}
	}
}
