package governance

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNpmrcEntries reads an .npmrc as npm's ini reader does: quoted keys
// and values as JSON strings, single quotes taken off, an unquoted value
// ending at a ; or # not escaped, comments, sections and arrays.
func TestNpmrcEntries(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"logs-dir=/tmp/x\n", "logs-dir=/tmp/x"},
		{"  logs-dir  =  /tmp/x  \r\n", "logs-dir=/tmp/x"},
		{"\"logs-dir\" = /tmp/x\n", "logs-dir=/tmp/x"},
		{"'logs-dir'=x\n", "logs-dir=x"},
		{"userconfig = \"\\u002eenv\"\n", "userconfig=.env"},
		{"userconfig = '.env'\n", "userconfig=.env"},
		{"userconfig = '\"\\u002eenv\"'\n", "userconfig=.env"},
		{"logs-dir=audit;x\n", "logs-dir=audit"},
		{"logs-dir=audit # a comment\n", "logs-dir=audit"},
		{"logs-dir=a\\;b\\#c\\d\n", "logs-dir=a;b#c\\d"},
		{"; logs-dir=x\n# cache=y\n\n", ""},
		{"[section]\ncache=y\n", "cache=y"},
		{"ca[]=a.pem\nca[]=b.pem\n", "ca=a.pem ca=b.pem"},
		{"LOGS-DIR=x\n", "logs-dir=x"},
		{"=x\nflag\n", "flag="},
		{"a=b=c\n", "a=b=c"},
		{"logs-dir=\"unterminated\n", "logs-dir=\"unterminated"},
	} {
		var got string
		for i, e := range npmrcEntries(c.text) {
			if i > 0 {
				got += " "
			}
			got += e.key + "=" + e.value
		}
		if got != c.want {
			t.Errorf("npmrcEntries(%q) = %q; want %q", c.text, got, c.want)
		}
	}
}

// FuzzNpmrcEntries holds npmrcEntries to the plain reading where nothing
// quotes or escapes: on text with no quote, backslash, ; # [ or ], each line
// with an "=" after its first byte is one entry, split at its first "=",
// both sides trimmed and the key in lower case (text as node reads a file:
// valid UTF-8); and it never panics.
func FuzzNpmrcEntries(f *testing.F) {
	for _, s := range []string{"logs-dir=/tmp/x\n", "\"a\"=b;c\n", "[s]\nk[]=v\r\n", "a=b=c", "'x'='y'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := npmrcEntries(text)
		if strings.ContainsAny(text, "\"'\\;#[]") || !utf8.ValidString(text) {
			return
		}
		var want []npmrcEntry
		for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' }) {
			if jsTrim(line) == "" || line[0] == '=' {
				continue
			}
			k, v, _ := strings.Cut(line, "=")
			if jsTrim(k) == "" && !strings.Contains(line, "=") {
				continue
			}
			want = append(want, npmrcEntry{key: strings.ToLower(jsTrim(k)), value: jsTrim(v)})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("npmrcEntries(%q) = %q; want %q", text, got, want)
		}
	})
}
