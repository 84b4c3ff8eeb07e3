package governance

import (
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// fileScheme reports whether a reader takes s as a file URI: its scheme is
// "file" in any case, as written or with white space around it (Go's
// readers), or as the WHATWG URL Standard's parser reads s. That parser
// (Node's fileURLToPath and every JavaScript reader, so an IDE on the
// TypeScript SDK) first drops the C0 control characters and spaces at
// either end of s and every tab, line feed and carriage return within it:
// "\x01file:///ws/a.key" and "fi\tle:///ws/a.key" open /ws/a.key there,
// and are file URIs to the bridge too.
func fileScheme(s string) bool {
	if scheme, _, found := strings.Cut(s, ":"); found && strings.EqualFold(strings.TrimSpace(scheme), "file") {
		return true
	}
	if !whatwgFilePrefix(s) {
		return false
	}
	u, err := whatwg.Parse(s)
	return err == nil && u.Scheme() == "file"
}

// whatwgFilePrefix reports whether s begins with "file:" in any case once
// the C0 control characters and spaces before it and the tabs and line
// breaks within it are dropped: the only strings the WHATWG parser may read
// as file URIs, told apart before that parser reads the whole of s (a
// tool's input may hold a whole file's text).
func whatwgFilePrefix(s string) bool {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return r <= ' ' })
	want := "file:"
	for i := 0; i < len(s) && want != ""; i++ {
		c := s[i]
		switch {
		case c == '\t' || c == '\n' || c == '\r':
		case c == want[0] || 'A' <= c && c <= 'Z' && c+'a'-'A' == want[0]:
			want = want[1:]
		default:
			return false
		}
	}
	return want == ""
}
