package audit

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// text renders a JSON value for a person: a string as itself, an object
// holding one well-known field (command, path, value, ...) as that field,
// markers as [redacted: reason] and [truncated: N bytes], anything else
// as compact JSON.
// Text renders a JSON value of a record (an input, output, argument or
// result) as the review views show it: a string as it is, content blocks
// as their text, an object as its lead member then key=value pairs, the
// redaction and truncation markers in words. The result is not yet
// printable (see Printable).
func Text(raw json.RawMessage) string { return text(raw) }

func text(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return textOf(v)
}

func textOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		if t, ok := contentText(v); ok {
			return t
		}
	case map[string]any:
		if r, ok := v["$redacted"].(bool); ok && r {
			return fmt.Sprintf("[redacted: %v]", v["reason"])
		}
		if t, ok := v["$truncated"].(bool); ok && t {
			return fmt.Sprintf("[truncated: %v bytes]", v["bytes"])
		}
		if d, ok := v["$digest"].(bool); ok && d {
			return digestSummary(v)
		}
		if n, ok := v["$number"].(string); ok && len(v) == 1 {
			return n // a number no double holds, as it came
		}
		return fieldsText(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// digestSummary renders a digest record (a tool's long output kept as its
// size, hash and preview): the preview, then what was left out.
func digestSummary(v map[string]any) string {
	sum, _ := v["sha256"].(string)
	tail := fmt.Sprintf("[%v bytes, sha256 %s…]", v["bytes"], sum[:min(12, len(sum))])
	if p, _ := v["preview"].(string); p != "" {
		return p + " … " + tail
	}
	return tail
}

// leadKeys are members shown first and without their name: what a person
// most wants to see of a tool's arguments or an event's input.
var leadKeys = []string{"command", "cmd", "prompt", "text", "path", "file_path", "url", "value", "message", "detail"}

// fieldsText renders an object as its lead member (a command, a path, ...)
// or a "from → to" transition, then the other members as key=value, in
// key order.
func fieldsText(m map[string]any) string {
	var parts []string
	used := make(map[string]bool)
	if to, ok := m["to"]; ok {
		t := textOf(to)
		if from, ok := m["from"]; ok {
			t = textOf(from) + " → " + t
			used["from"] = true
		}
		parts, used["to"] = append(parts, t), true
	} else {
		for _, k := range leadKeys {
			if e, ok := m[k]; ok {
				parts, used[k] = append(parts, textOf(e)), true
				break
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if used[k] {
			continue
		}
		t := textOf(m[k])
		if strings.ContainsAny(t, " \t") {
			t = strconv.Quote(t)
		}
		parts = append(parts, k+"="+t)
	}
	return strings.Join(parts, " ")
}

// contentText renders ACP content blocks (a prompt): the text of text
// blocks, and [image], [audio] or [resource: uri] for the others.
func contentText(blocks []any) (string, bool) {
	var parts []string
	for _, b := range blocks {
		m, ok := b.(map[string]any)
		if !ok {
			return "", false
		}
		typ, _ := m["type"].(string)
		switch typ {
		case "text":
			parts = append(parts, textOf(m["text"]))
		case "content": // a tool call's content: one block
			parts = append(parts, textOf([]any{m["content"]}))
		case "diff":
			parts = append(parts, fmt.Sprintf("[diff: %v]", m["path"]))
		case "terminal":
			parts = append(parts, fmt.Sprintf("[terminal: %v]", m["terminalId"]))
		case "resource_link":
			parts = append(parts, fmt.Sprintf("[link: %v]", m["uri"]))
		case "resource":
			uri := ""
			if r, ok := m["resource"].(map[string]any); ok {
				uri, _ = r["uri"].(string)
			}
			parts = append(parts, "[resource: "+uri+"]")
		case "":
			return "", false
		default:
			parts = append(parts, "["+typ+"]")
		}
	}
	return strings.Join(parts, " "), len(parts) > 0
}

func oneLine(s string) string { return OneLine(s) }

// OneLine folds each run of spaces in s into one and trims them at both
// ends, for a view that shows a value on one row. Only spaces: a newline,
// a carriage return or a tab is left for Printable to write as \n, \r or
// \t, since to a shell a command holding one is not the command with a
// space there ("echo ok", newline, "rm -rf ~" runs rm; folded, it read as
// one echo).
func OneLine(s string) string {
	if !strings.Contains(s, "  ") && !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ") {
		return s
	}
	var b strings.Builder
	for _, f := range strings.Split(s, " ") {
		if f == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}

// clip cuts s to n runes, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
