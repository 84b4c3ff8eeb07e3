package governance

import (
	"fmt"
	"strings"
)

// gitEntry is one variable of a git configuration file: section and key
// in lower case (git compares them so), sub the subsection as written.
type gitEntry struct {
	section, sub, key, value string
}

// parseGitConfig reads a git configuration file's variables as git does
// (git-config(1), "Syntax"): sections "[name]", "[name "sub"]" and the
// old "[name.sub]", keys with or without "= value", values with quotes,
// the escapes \n \t \b \" \\, comments after # or ; and lines continued by
// a backslash. What git would refuse is an error, with its line.
func parseGitConfig(src string) ([]gitEntry, error) {
	var out []gitEntry
	var section, sub string
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#' || c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '[':
			var err error
			section, sub, i, err = gitSection(src, i+1)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
		case isASCIILetter(c):
			j := i
			for j < len(src) && (isASCIILetter(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '-') {
				j++
			}
			key := strings.ToLower(src[i:j])
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			value := ""
			switch {
			case j < len(src) && src[j] == '=':
				var err error
				start := line
				value, j, line, err = gitValue(src, j+1, line)
				if err != nil {
					return nil, fmt.Errorf("line %d: %v", start, err)
				}
			case j == len(src) || src[j] == '\n' || src[j] == '\r' || src[j] == '#' || src[j] == ';':
			default:
				return nil, fmt.Errorf("line %d: bad variable %q", line, key)
			}
			if section != "" { // git reads a variable before any section, as no section's
				out = append(out, gitEntry{section: section, sub: sub, key: key, value: value})
			}
			i = j
		default:
			return nil, fmt.Errorf("line %d: unexpected %q", line, c)
		}
	}
	return out, nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// gitSection reads a section header from after its '[' to after its ']'.
func gitSection(src string, i int) (section, sub string, next int, err error) {
	j := i
	for j < len(src) && (isASCIILetter(src[j]) || src[j] >= '0' && src[j] <= '9' || src[j] == '-' || src[j] == '.') {
		j++
	}
	name := src[i:j]
	if name == "" {
		return "", "", 0, fmt.Errorf("bad section header")
	}
	if j < len(src) && src[j] == ']' {
		section, sub, _ = strings.Cut(name, ".")
		return strings.ToLower(section), strings.ToLower(sub), j + 1, nil
	}
	if j >= len(src) || src[j] != ' ' && src[j] != '\t' || strings.Contains(name, ".") {
		return "", "", 0, fmt.Errorf("bad section header")
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return "", "", 0, fmt.Errorf("bad section header")
	}
	var b strings.Builder
	for j++; ; j++ {
		if j >= len(src) || src[j] == '\n' {
			return "", "", 0, fmt.Errorf("unterminated subsection")
		}
		if src[j] == '"' {
			break
		}
		if src[j] == '\\' {
			j++
			if j >= len(src) || src[j] == '\n' {
				return "", "", 0, fmt.Errorf("unterminated subsection")
			}
		}
		b.WriteByte(src[j])
	}
	if j+1 >= len(src) || src[j+1] != ']' {
		return "", "", 0, fmt.Errorf("bad section header")
	}
	return strings.ToLower(name), b.String(), j + 2, nil
}

// gitValue reads a value from after its '=' to the end of its line (or of
// the lines a backslash continues it onto), counting those lines.
func gitValue(src string, i, line int) (string, int, int, error) {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	var b []byte
	keep := 0 // b[:keep] is the value without unquoted trailing blanks
	quoted := false
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			if quoted {
				return "", 0, 0, fmt.Errorf("unterminated quote")
			}
			return string(b[:keep]), i, line, nil
		case !quoted && (c == '#' || c == ';'):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			return string(b[:keep]), i, line, nil
		case c == '"':
			quoted = !quoted
		case c == '\\':
			i++
			if i >= len(src) {
				return "", 0, 0, fmt.Errorf("backslash at the end")
			}
			switch src[i] {
			case '\n':
				line++
				continue
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			case 'b':
				b = append(b, '\b')
			case '"', '\\':
				b = append(b, src[i])
			default:
				return "", 0, 0, fmt.Errorf("bad escape \\%c", src[i])
			}
			keep = len(b)
		default:
			b = append(b, c)
			if quoted || c != ' ' && c != '\t' && c != '\r' {
				keep = len(b)
			}
		}
	}
	if quoted {
		return "", 0, 0, fmt.Errorf("unterminated quote")
	}
	return string(b[:keep]), i, line, nil
}
