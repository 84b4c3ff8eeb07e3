package acpmap

import (
	"fmt"

	"github.com/acp-bridge/acp-bridge/internal/accp"
)

func isTextBlock(x any) (string, bool) {
	m, ok := x.(map[string]any)
	if !ok || len(m) != 2 || m["type"] != "text" {
		return "", false
	}
	s, ok := m["text"].(string)
	return s, ok
}

func textBlockJSON(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// compact converts a JSON field by its codec. A value the codec does not
// fit is kept verbatim; the round-trip check in Encoder catches the rare
// shape that then decodes differently.
func compact(c codec, x any) (accp.Value, error) {
	switch c {
	case textBlock:
		if s, ok := isTextBlock(x); ok {
			return accp.String(s), nil
		}
	case blocks, toolContent, locations:
		arr, ok := x.([]any)
		if !ok {
			break
		}
		out := make([]accp.Value, len(arr))
		for i, e := range arr {
			v, err := compactItem(c, e)
			if err != nil {
				return accp.Value{}, err
			}
			out[i] = v
		}
		return accp.Array(out...), nil
	}
	return toValue(x)
}

func compactItem(c codec, e any) (accp.Value, error) {
	switch c {
	case blocks:
		if s, ok := isTextBlock(e); ok {
			return accp.String(s), nil
		}
	case toolContent:
		if m, ok := e.(map[string]any); ok && len(m) == 2 && m["type"] == "content" {
			if s, ok := isTextBlock(m["content"]); ok {
				return accp.String(s), nil
			}
		}
	case locations:
		if m, ok := e.(map[string]any); ok && len(m) == 1 {
			if s, ok := m["path"].(string); ok {
				return accp.String(s), nil
			}
		}
	}
	if _, isStr := e.(string); isStr {
		// A bare string would read back as the compact form.
		return accp.Value{}, fmt.Errorf("string item in a %v array", c)
	}
	return toValue(e)
}

// expand is the inverse of compact.
func expand(c codec, v accp.Value) any {
	switch c {
	case textBlock:
		if v.Kind == accp.KindString {
			return textBlockJSON(v.Str)
		}
	case blocks, toolContent, locations:
		if v.Kind != accp.KindArray {
			break
		}
		out := make([]any, len(v.List))
		for i, e := range v.List {
			if e.Kind != accp.KindString {
				out[i] = fromValue(e)
				continue
			}
			switch c {
			case blocks:
				out[i] = textBlockJSON(e.Str)
			case toolContent:
				out[i] = map[string]any{"type": "content", "content": textBlockJSON(e.Str)}
			case locations:
				out[i] = map[string]any{"path": e.Str}
			}
		}
		return out
	}
	return fromValue(v)
}

func deepCopy(x any) any {
	switch t := x.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			m[k] = deepCopy(v)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, v := range t {
			a[i] = deepCopy(v)
		}
		return a
	}
	return x
}

func getPath(obj map[string]any, path []string) (any, bool) {
	var cur any = obj
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// delPath removes path and any object it leaves empty on the way up.
func delPath(obj map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	if len(path) == 1 {
		delete(obj, path[0])
		return
	}
	child, ok := obj[path[0]].(map[string]any)
	if !ok {
		return
	}
	delPath(child, path[1:])
	if len(child) == 0 {
		delete(obj, path[0])
	}
}

func setPath(obj map[string]any, path []string, v any) error {
	for i, k := range path {
		if i == len(path)-1 {
			if _, exists := obj[k]; exists {
				return fmt.Errorf("field %v set twice", path)
			}
			obj[k] = v
			return nil
		}
		next, ok := obj[k]
		if !ok {
			m := map[string]any{}
			obj[k] = m
			obj = m
			continue
		}
		if obj, ok = next.(map[string]any); !ok {
			return fmt.Errorf("field %v crosses a non-object", path)
		}
	}
	return nil
}
