package governance

import (
	"encoding/json"
	"regexp"
	"strings"
)

// npm reads an .npmrc with the ini package's decode, whose spelling of a
// key and a value is not the line's text: a key or value in double quotes
// is read as a JSON string ("logs-dir" = "\u0061udit" is logs-dir=audit),
// one in single quotes without them, and an unquoted one ends at the
// first ; or # not escaped (logs-dir=audit;x is logs-dir=audit). The
// bridge reads the .npmrc the same way, so that the key and the name it
// decides are those npm uses.

// npmrcEntry is one key and its value in an .npmrc, as npm reads them.
type npmrcEntry struct {
	key, value string
}

// iniEntry matches a key and its value.
var iniEntry = regexp.MustCompile(`^([^=]+)(=(.*))?$`)

// iniSkipped reports whether the ini reader passes over line: blank, a
// comment (; or # after white space) or a section ("[name]", white space
// after it), white space as JavaScript's regular expressions read it.
func iniSkipped(line string) bool {
	t := jsTrim(line)
	if t == "" || t[0] == ';' || t[0] == '#' {
		return true
	}
	s := strings.TrimRightFunc(line, jsSpace)
	return len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' && !strings.Contains(s[1:len(s)-1], "]")
}

// npmrcEntries returns the entries of the .npmrc text in order, each key
// in lower case with an array's "[]" taken off. Entries of a section are
// kept too (npm uses only those outside one; reading them as well decides
// more, never less).
func npmrcEntries(text string) []npmrcEntry {
	var out []npmrcEntry
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if iniSkipped(line) {
			continue
		}
		m := iniEntry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key := iniUnquote(m[1])
		if len(key) > 2 && strings.HasSuffix(key, "[]") {
			key = key[:len(key)-2]
		}
		value := ""
		if m[2] != "" {
			value = iniUnquote(m[3])
		}
		out = append(out, npmrcEntry{key: strings.ToLower(key), value: value})
	}
	return out
}

// iniUnquote reads a key or value as the ini package's unsafe does: white
// space around it trimmed; in double quotes, a JSON string (as written,
// quotes included, where it is none); in single quotes, what is between
// them (a JSON string there is decoded too); otherwise up to the first ;
// or # not escaped, "\;", "\#" and "\\" read as the character.
func iniUnquote(v string) string {
	v = jsTrim(v)
	if n := len(v); n > 0 && (v[0] == '"' && v[n-1] == '"' || v[0] == '\'' && v[n-1] == '\'') {
		inner := v
		if v[0] == '\'' {
			inner = v[1:max(n-1, 1)]
		}
		var s string
		if json.Unmarshal([]byte(inner), &s) == nil {
			return s
		}
		return inner
	}
	var b strings.Builder
	esc := false
	for _, r := range v {
		switch {
		case esc:
			if !strings.ContainsRune(`\;#`, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
			esc = false
		case r == ';' || r == '#':
			return jsTrim(b.String())
		case r == '\\':
			esc = true
		default:
			b.WriteRune(r)
		}
	}
	if esc {
		b.WriteByte('\\')
	}
	return jsTrim(b.String())
}

// jsTrim trims the white space JavaScript's String.prototype.trim does.
func jsTrim(s string) string { return strings.TrimFunc(s, jsSpace) }
