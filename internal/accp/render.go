package accp

import (
	"fmt"
	"strings"
)

// Render returns a readable multi-line rendering of a frame for humans
// auditing the compact format (section 9, item 1): intents and keys spelled
// out, strings unescaped, the envelope named. reg may be nil.
func Render(f *Frame, reg *Registry) string {
	if reg == nil {
		reg = defaultRegistry
	}
	var sc *Schema
	if v, ok := f.Param("schema"); ok {
		sc, _ = reg.Schema(v.Str)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "from %s: %s (%s) %s\n", f.Agent, f.Intent, reg.IntentMeaning(f.Intent), f.Op)
	if sc != nil {
		fmt.Fprintf(&b, "  schema %s\n", sc.describe())
	}
	for _, p := range f.Params {
		if p.Key == "schema" {
			continue
		}
		key := reg.expandKey(p.Key)
		if sc != nil {
			if full, ok := sc.expand(p.Key); ok {
				key = full
			}
		}
		fmt.Fprintf(&b, "  %s = %s\n", key, renderValue(p.Val))
	}
	names := map[string]string{"mid": "msg_id", "seq": "sequence", "ts": "timestamp", "cid": "correlation_id",
		"aid": "causation_id", "sid": "session_id", "ttl": "ttl"}
	for _, m := range f.Meta {
		name := names[m.Key]
		if name == "" {
			name = m.Key
		}
		fmt.Fprintf(&b, "  [%s = %s]\n", name, renderValue(m.Val))
	}
	return b.String()
}

func renderValue(v Value) string {
	switch v.Kind {
	case KindString:
		return fmt.Sprintf("%q", v.Str)
	case KindRef:
		return "ref $" + v.Str
	case KindAgent:
		return "agent @" + v.Str
	case KindNull:
		return "null"
	case KindNumber:
		return v.Str
	case KindArray:
		parts := make([]string, len(v.List))
		for i, e := range v.List {
			parts[i] = renderValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case KindMap, KindPair:
		parts := make([]string, len(v.Fields))
		for i, f := range v.Fields {
			parts[i] = f.Key + ": " + renderValue(f.Val)
		}
		if v.Kind == KindPair {
			return parts[0]
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return string(AppendValue(nil, v))
}
