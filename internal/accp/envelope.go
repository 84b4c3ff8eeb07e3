package accp

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

func isHex12(s string) bool {
	if len(s) != 12 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (s *Session) envelope(f *Frame) (Envelope, error) {
	var env Envelope
	intField := func(key string, dst *int64, required bool) error {
		v, ok := f.MetaValue(key)
		if !ok {
			if required {
				return errorf(CodeParse, -1, "metadata lacks required envelope field %s", key)
			}
			return nil
		}
		if v.Kind != KindInt {
			return errorf(CodeInvalidType, -1, "envelope field %s must be an integer, got %s", key, v.Kind)
		}
		n, err := strconv.ParseInt(v.Str, 10, 64)
		if err != nil {
			return errorf(CodeInvalidType, -1, "envelope field %s: %v", key, err)
		}
		*dst = n
		return nil
	}
	mid, ok := f.MetaValue("mid")
	if !ok {
		return env, errorf(CodeParse, -1, "metadata lacks required envelope field mid")
	}
	switch mid.Kind {
	case KindString, KindInt:
		env.MID = mid.Str
	default:
		return env, errorf(CodeInvalidType, -1, "envelope field mid must be a string, got %s", mid.Kind)
	}
	if !s.opt.LenientEnvelope && !isHex12(env.MID) {
		return env, errorf(CodeInvalidType, -1, "envelope field mid %q is not 12 lower-case hex digits", env.MID)
	}
	if err := intField("seq", &env.Seq, true); err != nil {
		return env, err
	}
	if err := intField("ts", &env.TS, !s.opt.LenientEnvelope); err != nil {
		return env, err
	}
	if err := intField("ttl", &env.TTL, false); err != nil {
		return env, err
	}
	for _, m := range f.Meta {
		switch m.Key {
		case "mid", "seq", "ts", "ttl":
		case "cid":
			env.CID = m.Val
		case "aid":
			env.AID = m.Val
		case "sid":
			if m.Val.Kind != KindString && m.Val.Kind != KindInt {
				return env, errorf(CodeInvalidType, -1, "envelope field sid must be a string, got %s", m.Val.Kind)
			}
			env.SID = m.Val.Str
		default:
			env.Extra = append(env.Extra, m)
		}
	}
	return env, nil
}

// expand resolves refs, expands keys and fills schema defaults (7.3 steps
// 2-5).
func (s *Session) expand(f *Frame, env Envelope, now time.Time) (*Message, error) {
	m := &Message{From: f.Agent, Intent: f.Intent, Op: f.Op, Env: env, Fields: make([]Field, 0, len(f.Params)+2)}
	var sc *Schema
	if v, ok := f.Param("schema"); ok {
		if v.Kind != KindString {
			return nil, errorf(CodeInvalidType, -1, "schema must be a code, got %s", v.Kind)
		}
		if sc, ok = s.reg.Schema(v.Str); !ok {
			return nil, errorf(CodeUnknownSchema, -1, "unknown schema %q", v.Str)
		}
		m.Schema = sc.Code
	}
	for _, p := range f.Params {
		if p.Key == "schema" && sc != nil {
			continue
		}
		key := ""
		if sc != nil {
			if full, ok := sc.expand(p.Key); ok {
				key = full
			}
		}
		if key == "" {
			key = s.reg.expandKey(p.Key)
		}
		v, err := s.resolve(p.Val, now)
		if err != nil {
			return nil, err
		}
		if sc != nil && slices.Contains(sc.Numeric, key) && v.Kind != KindInt && v.Kind != KindDecimal {
			return nil, errorf(CodeInvalidType, -1, "schema %s field %s must be a number, got %s", sc.Code, key, v.Kind)
		}
		if _, dup := lookup(m.Fields, key); dup {
			return nil, errorf(CodeParse, -1, "keys %q expand to the same field %q", p.Key, key)
		}
		m.Fields = append(m.Fields, Field{key, v})
	}
	if sc != nil {
		for _, name := range slices.Sorted(maps.Keys(sc.Defaults)) {
			if _, ok := lookup(m.Fields, name); !ok {
				m.Fields = append(m.Fields, Field{name, sc.Defaults[name]})
			}
		}
	}
	return m, nil
}

func (s *Session) resolve(v Value, now time.Time) (Value, error) {
	switch v.Kind {
	case KindRef:
		r, ok, err := s.store.Resolve(s.id, v.Str, now)
		if err != nil {
			return Value{}, err
		}
		if ok {
			return r, nil
		}
	case KindArray:
		var out *Value
		for i, e := range v.List {
			r, err := s.resolve(e, now)
			if err != nil {
				return Value{}, err
			}
			if out == nil && !r.Equal(e) {
				out = &Value{Kind: KindArray, List: slices.Clone(v.List)}
			}
			if out != nil {
				out.List[i] = r
			}
		}
		if out != nil {
			return *out, nil
		}
	case KindMap, KindPair:
		var out *Value
		for i, e := range v.Fields {
			r, err := s.resolve(e.Val, now)
			if err != nil {
				return Value{}, err
			}
			if out == nil && !r.Equal(e.Val) {
				out = &Value{Kind: v.Kind, Fields: slices.Clone(v.Fields)}
			}
			if out != nil {
				out.Fields[i].Val = r
			}
		}
		if out != nil {
			return *out, nil
		}
	}
	return v, nil
}
