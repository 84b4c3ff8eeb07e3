package manifest

import (
	"bytes"
)

// frontmatter is an ACP.md split at its "---" delimiter lines.
type frontmatter struct {
	// yaml is the text between the delimiters.
	yaml []byte
	// line is the file line of the first line of yaml (1-based); YAML
	// line n is file line n+line-1.
	line int
	// body is the Markdown after the closing delimiter.
	body []byte
	// bodyLine is the file line where body starts.
	bodyLine int
}

// splitFrontmatter separates the YAML frontmatter from the Markdown body. The
// file must start with a line "---" (a UTF-8 byte order mark before it, and
// spaces or a carriage return after it, are allowed); the frontmatter ends at
// the next line that is "---".
func splitFrontmatter(file string, data []byte) (*frontmatter, *Error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isDelimiter(first) {
		return nil, &Error{File: file, Line: 1, Column: 1,
			Msg: `missing YAML frontmatter: an ACP.md must start with a "---" line`}
	}
	start := len(first) + 1
	line := 2
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		var l []byte
		next := len(rest)
		if end < 0 {
			l = rest[off:]
		} else {
			l = rest[off : off+end]
			next = off + end + 1
		}
		if isDelimiter(l) {
			return &frontmatter{
				yaml:     data[start : start+off],
				line:     2,
				body:     rest[next:],
				bodyLine: line + 1,
			}, nil
		}
		off = next
		line++
	}
	return nil, &Error{File: file, Line: 1, Column: 1,
		Msg: `unterminated frontmatter: no closing "---" line`}
}

// isDelimiter reports whether line is "---", ignoring trailing white space.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}
