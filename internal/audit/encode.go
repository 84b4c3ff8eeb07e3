package audit

import (
	"encoding/json"
	"slices"
)

// The metadata of every record is a map the caller made (session, rule,
// status, the tool-call mirror, ...). Copying it into a tree (toTree), so
// that the redactor may change it, then encoding and sorting the tree,
// cost a record more than anything but its output. appendMap encodes such
// a map straight into canonical form, deciding each member as the
// redactor's tree would (redactor.tree, the map case), and the mirror
// (a ToolCall) without making a map of it. Where the redactor would
// rename a key (a secret in it, a marker name), it is left to the tree.
// FuzzAppendMap compares the two.

// appendMap appends the redacted canonical form of m to dst, or reports
// false when a key would be renamed (the caller then takes the tree
// path, with dst unchanged up to its length).
func (r *redactor) appendMap(dst []byte, m map[string]any) ([]byte, bool, error) {
	return r.appendMapOver(dst, m, nil)
}

// member is a key and its value.
type member struct {
	k string
	v any
}

// appendMapOver is appendMap of m with the members over added, each in
// place of m's member of the same name: the record's metadata is the
// caller's map with the mirror and the policy rule put in, encoded
// without a copy of the map.
func (r *redactor) appendMapOver(dst []byte, m map[string]any, over []member) ([]byte, bool, error) {
	get := func(k string) (any, bool) {
		for _, o := range over {
			if o.k == k {
				return o.v, true
			}
		}
		v, ok := m[k]
		return v, ok
	}
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	for _, o := range over {
		if _, ok := m[o.k]; !ok {
			keys = append(keys, o.k)
		}
	}
	for _, k := range keys {
		if len(k) > 16 || keyRenamed(k) {
			// A key the redactor may rename; renamed keys can collide.
			return dst, false, nil
		}
	}
	slices.SortFunc(keys, compareUTF16)
	// {"name": "GITHUB_TOKEN", "value": "..."}: env entries, headers.
	pairSecret := ""
	if e, ok := get("name"); ok {
		t, err := toTree(e)
		if err != nil {
			return dst, false, err
		}
		if name, ok := t.(string); ok && isSecretKey(name) {
			if e, ok := get("value"); ok {
				t, err := toTree(e)
				if err != nil {
					return dst, false, err
				}
				if hasContent(t) {
					pairSecret = name
				}
			}
		}
	}
	dst, err := appendObject(dst, keys, func(dst []byte, k string) ([]byte, error) {
		e, _ := get(k)
		return r.appendMember(dst, k, e, pairSecret)
	})
	return dst, err == nil, err
}

// appendMember appends the redacted canonical form of e, the value of
// the member k; pairSecret is the secret name of a name/value pair, or "".
func (r *redactor) appendMember(dst []byte, k string, e any, pairSecret string) ([]byte, error) {
	pairValue, secretKey := pairSecret != "" && k == "value", isSecretKey(k)
	masked := pairValue || secretKey
	switch tc := e.(type) {
	case ToolCall:
		if !masked {
			return r.appendToolCall(dst, &tc)
		}
	case *ToolCall:
		if !masked && tc != nil {
			return r.appendToolCall(dst, tc)
		}
	}
	t, err := toTree(e)
	if err != nil {
		return dst, err
	}
	switch {
	case pairValue:
		return appendCanonical(dst, pairValueMarker(pairSecret))
	case secretKey && hasContent(t):
		return appendCanonical(dst, redacted("secret-key:"+shorten(k, 64)))
	}
	return appendCanonical(dst, r.tree(t))
}

// appendToolCall appends the redacted canonical form of the mirror tc,
// as the redactor and appendCanonical make it of tc.tree(): its members
// in RFC 8785 order, kind always, the others when not
// empty, each redacted as a member of that name is (none names a secret,
// and there is no name/value pair: TestToolCallKeys).
func (r *redactor) appendToolCall(dst []byte, tc *ToolCall) ([]byte, error) {
	// A string field (str) is s, any other v.
	members := [...]struct {
		k, s string
		v    any
		str  bool
	}{{k: "approval", s: tc.Approval, str: true}, {k: "arguments", v: tc.Arguments}, {k: "error", v: tc.Error},
		{k: "kind", s: tc.Kind, str: true}, {k: "operator", s: tc.Operator, str: true}, {k: "result", v: tc.Result},
		{k: "session", s: tc.Session, str: true}, {k: "tool", s: tc.Tool, str: true}, {k: "toolCallId", s: tc.ToolCallID, str: true}}
	dst = append(dst, '{')
	first := true
	for _, m := range members {
		var t any
		switch {
		case m.str:
			if m.s == "" && m.k != "kind" {
				continue
			}
			// As appendCanonical of the redactor's tree of m.s, without
			// boxing the string.
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(appendCanonicalString(dst, m.k), ':')
			out, changed := r.str(m.s)
			if !changed {
				dst = appendCanonicalString(dst, m.s)
				continue
			}
			var err error
			if dst, err = appendCanonical(dst, out); err != nil {
				return dst, err
			}
			continue
		case m.v == nil:
			continue
		default:
			if raw, ok := m.v.(json.RawMessage); ok && len(raw) > 0 {
				if canon, ok := r.scanJSON(raw); ok {
					if string(canon) == "null" {
						continue
					}
					if !first {
						dst = append(dst, ',')
					}
					first = false
					dst = append(appendCanonicalString(dst, m.k), ':')
					dst = append(dst, canon...)
					continue
				}
			}
			var err error
			if t, err = toTree(m.v); err != nil {
				return dst, err
			}
			if t == nil {
				continue
			}
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendCanonicalString(dst, m.k)
		dst = append(dst, ':')
		var err error
		if dst, err = appendCanonical(dst, r.tree(t)); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}
