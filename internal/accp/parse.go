package accp

import (
	"fmt"
	"sync"
)

// Limits bound the work a parser does on one frame (section 9, item 5).
// The zero value means the defaults.
type Limits struct {
	// MaxDepth is the deepest nesting of arrays and maps; optional, if zero
	// defaults to 5 as the draft recommends.
	MaxDepth int
	// MaxFrameBytes is the longest frame accepted; optional, if zero
	// defaults to 1 MiB.
	MaxFrameBytes int
	// MaxElements is the most values one frame may hold; optional, if zero
	// defaults to 10,000.
	MaxElements int
}

// Default limits.
const (
	DefaultMaxDepth      = 5
	DefaultMaxFrameBytes = 1 << 20
	DefaultMaxElements   = 10000
)

func (l Limits) withDefaults() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultMaxElements
	}
	return l
}

// ParseFrame parses one frame with the default limits, checking its intent
// against the core intents of section 4.1. A malformed frame is rejected
// whole: the result is either a complete frame or an *Error.
func ParseFrame(s string) (*Frame, error) {
	return Limits{}.Parse(s, nil)
}

// Parse parses one frame within l. Intents are checked against reg (nil
// means the built-in registry).
func (l Limits) Parse(s string, reg *Registry) (*Frame, error) {
	l = l.withDefaults()
	if len(s) > l.MaxFrameBytes {
		return nil, errorf(CodeParse, l.MaxFrameBytes, "frame of %d bytes exceeds the limit of %d", len(s), l.MaxFrameBytes)
	}
	p := parserPool.Get().(*parser)
	p.s, p.i, p.lim, p.elems = s, 0, l, 0
	p.counts, p.next = p.counts[:0], 0
	p.nfields, p.nvalues = 0, 0
	p.prescan()
	if p.nfields+p.nvalues <= maxSlab {
		if p.nfields > 0 {
			p.fslab = make([]Field, p.nfields)
		}
		if p.nvalues > 0 {
			p.vslab = make([]Value, p.nvalues)
		}
	}
	f, err := p.frame()
	p.s, p.keySets, p.fslab, p.vslab = "", nil, nil, nil
	if cap(p.counts) <= 4096 {
		parserPool.Put(p)
	}
	if err != nil {
		return nil, err
	}
	if reg == nil {
		reg = defaultRegistry
	}
	if !reg.HasIntent(f.Intent) {
		return nil, errorf(CodeInvalidIntent, 1+len(f.Agent)+1, "unknown intent %q", f.Intent)
	}
	return f, nil
}

type parser struct {
	s     string
	i     int
	lim   Limits
	elems int
	// keySets indexes the keys of large containers by container id.
	keySets map[int]map[string]bool
	// counts holds, for each container in order of opening, how many
	// elements a pre-scan found, so each is allocated once at its size;
	// next is the next container's index.
	counts []int32
	next   int
	// nfields and nvalues are the pre-scanned totals of fields (body,
	// metadata, map entries and pairs) and of array elements. A small
	// frame takes its containers from fslab and vslab, carved from one
	// allocation each, instead of allocating every container apart.
	nfields, nvalues int
	fslab            []Field
	vslab            []Value
}

// maxSlab is the most fields and elements a frame may hold for its
// containers to be carved from slabs; larger frames allocate each container
// at its size, so an invalid frame cannot make the parser allocate up front
// for elements it never reaches.
const maxSlab = 64

// fields returns an empty slice with room for n fields (see carve).
func (p *parser) fields(n int) []Field { return carve(&p.fslab, n) }

// values returns an empty slice with room for n array elements (see carve).
func (p *parser) values(n int) []Value { return carve(&p.vslab, n) }

// carve returns an empty slice with room for n elements, carved from *slab
// when it has room. The slice's capacity is exactly n, so an append past it
// (only possible for an invalid frame, whose counts are hints) reallocates
// rather than overwriting the next container.
func carve[T any](slab *[]T, n int) []T {
	if n <= len(*slab) {
		s := (*slab)[:0:n]
		*slab = (*slab)[n:]
		return s
	}
	return make([]T, 0, n)
}

// prescan counts the elements of every container ("{" and "[") in order of
// opening. Structure characters inside strings are always escaped, so the
// counts are exact for a valid frame; for an invalid one they are only a
// capacity hint.
func (p *parser) prescan() {
	var stack [64]int32
	var isList [64]bool // whether the container at each depth is an array
	depth := 0
	s := p.s
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&cDelim == 0 {
			continue
		}
		switch c := s[i]; c {
		case '\\':
			i++
		case '{', '[':
			n := int32(0)
			if i+1 < len(s) && s[i+1] != '}' && s[i+1] != ']' {
				n = 1
			}
			p.counts = append(p.counts, n)
			list := c == '[' && depth > 0
			if depth < len(stack) {
				stack[depth] = int32(len(p.counts) - 1)
				isList[depth] = list
			}
			p.tally(list, int(n))
			depth++
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case ',', '|':
			if depth > 0 && depth <= len(stack) {
				p.counts[stack[depth-1]]++
				p.tally(isList[depth-1], 1)
			}
		case ':':
			// In an array a ":" is a pair's (or an agent reference's),
			// and a pair takes one field.
			if depth > 0 && depth <= len(stack) && isList[depth-1] {
				p.nfields++
			}
		}
	}
}

// tally adds n to the pre-scanned total of array elements or of fields.
func (p *parser) tally(list bool, n int) {
	if list {
		p.nvalues += n
	} else {
		p.nfields += n
	}
}

// size returns the pre-scanned element count of the container being opened.
func (p *parser) size() int {
	if p.next < len(p.counts) {
		n := p.counts[p.next]
		p.next++
		return int(min(n, 1<<12))
	}
	return 4
}

var parserPool = sync.Pool{New: func() any { return &parser{counts: make([]int32, 0, 32)} }}

func (p *parser) frame() (*Frame, error) {
	f := &Frame{}
	var err error
	if err = p.expect('@', `"@" starting the header`); err != nil {
		return nil, err
	}
	if f.Agent, err = p.name(cAgent, "an agent id"); err != nil {
		return nil, err
	}
	if err = p.expect('>', `">" after the agent id`); err != nil {
		return nil, err
	}
	at := p.i
	if f.Intent, err = p.name(cOp, "an intent"); err != nil {
		return nil, err
	}
	if !allOf(f.Intent, isAlpha) {
		return nil, errorf(CodeInvalidIntent, at, "intent %q must be letters only", f.Intent)
	}
	if err = p.expect(':', `":" before the operation`); err != nil {
		return nil, err
	}
	if f.Op, err = p.name(cOp, "an operation"); err != nil {
		return nil, err
	}
	if err = p.expect('{', `"{" opening the body`); err != nil {
		return nil, err
	}
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
	} else {
		if f.Params, err = p.params('|', '}'); err != nil {
			return nil, err
		}
	}
	if p.i < len(p.s) && p.s[p.i] == '[' {
		p.i++
		if f.Meta, err = p.params(',', ']'); err != nil {
			return nil, err
		}
	}
	if p.i != len(p.s) {
		return nil, p.unexpected("end of frame")
	}
	return f, nil
}

// params parses param *(sep param) close.
func (p *parser) params(sep, close byte) ([]Field, error) {
	id := p.next
	fields := p.fields(p.size())
	for {
		key, err := p.name(cOp, "a key")
		if err != nil {
			return nil, err
		}
		if p.hasKey(id, fields, key) {
			return nil, p.errf(CodeParse, "duplicate key %q", key)
		}
		if err := p.expect(':', `":" after a key`); err != nil {
			return nil, err
		}
		fields = addField(fields, key)
		if err := p.value(&fields[len(fields)-1].Val, 0); err != nil {
			return nil, err
		}
		if p.i < len(p.s) && p.s[p.i] == sep {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			delete(p.keySets, id)
			return fields, nil
		}
		return nil, p.unexpected(fmt.Sprintf("%q or %q", sep, close))
	}
}

// hasKey reports whether key is among fs, the fields collected so far by
// container id. Past a few fields it indexes them, so a frame of thousands
// of keys stays linear.
func (p *parser) hasKey(id int, fs []Field, key string) bool {
	if len(fs) < 16 {
		for _, f := range fs {
			if f.Key == key {
				return true
			}
		}
		return false
	}
	if p.keySets == nil {
		p.keySets = map[int]map[string]bool{}
	}
	set := p.keySets[id]
	if set == nil || len(set) > len(fs) {
		set = make(map[string]bool, len(fs))
		p.keySets[id] = set
	}
	for _, f := range fs[len(set):] {
		set[f.Key] = true
	}
	return set[key]
}

func (p *parser) count() error {
	p.elems++
	if p.elems > p.lim.MaxElements {
		return p.errf(CodeParse, "frame holds more than %d values", p.lim.MaxElements)
	}
	return nil
}
