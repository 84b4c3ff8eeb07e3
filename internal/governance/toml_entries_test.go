package governance

import (
	"strings"
	"testing"
)

// TestTOMLEntries reads each spelling TOML gives a key and a value as the
// one it is: a quoted or escaped key, a dotted key, an inline table, an
// array over lines with comments, a multi-line string; a document that is
// no TOML is an error.
func TestTOMLEntries(t *testing.T) {
	for _, c := range []struct {
		text, want string
		bad        bool
	}{
		{text: "[package]\nname = \"x\"\n", want: "package.name=x"},
		{text: "[dependencies]\nrb = { \"path\" = \"../rb\" }\n", want: "dependencies.rb.path=../rb"},
		{text: "[dependencies]\nrb = { 'path' = '../rb' }\n", want: "dependencies.rb.path=../rb"},
		{text: "[dependencies]\nrb={\"pa\\u0074h\"=\"../rb\"}\n", want: "dependencies.rb.path=../rb"},
		{text: "[dependencies]\nrb.path = \"../rb\"\n", want: "dependencies.rb.path=../rb"},
		{text: "[ dependencies . \"rb\" ]\npath = \"../rb\" # a comment\n", want: "dependencies.rb.path=../rb"},
		{text: "[[bin]]\nname = \"a\"\n[[bin]]\npath = \"b.rs\"\n", want: "bin.name=a bin.path=b.rs"},
		{text: "[workspace]\nmembers = [\n    \"a\", # first\n    'b',\n]\n", want: "workspace.members=a workspace.members=b"},
		{text: "a = \"\"\"\nx\\\n   y\"\"\"\n", want: "a=xy"},
		{text: "a = '''\nx\\y'''\n", want: "a=x\\y"},
		{text: "a = \"\\U0001F600\\t\"\n", want: "a=\U0001F600\t"},
		{text: "[package]\nbuild = false\nversion = 1\n", want: "package.build:false package.version:1"},
		{text: "a = { b = [1, 2], c = { d = \"e\" } }\n", want: "a.b:1 a.b:2 a.c.d=e"},
		{text: "\ufeffa = 1\r\nb = 'c'\r\n", want: "a:1 b=c"},
		{text: "a = \"x\" b = 1\n", bad: true},
		{text: "a = \"x\n", bad: true},
		{text: "a = \"\\q\"\n", bad: true},
		{text: "[a\n", bad: true},
		{text: "a\n", bad: true},
		{text: "a = [1, 2\n", bad: true},
		{text: "a = 1\na = 2\n", bad: true},
		{text: "[dependencies]\nrb = { path = \"a\", path = \"b\" }\n", bad: true},
	} {
		entries, err := tomlEntries(c.text)
		if c.bad {
			if err == nil {
				t.Errorf("tomlEntries(%q) = %v; want an error", c.text, entries)
			}
			continue
		}
		if err != nil {
			t.Errorf("tomlEntries(%q): %v", c.text, err)
			continue
		}
		var got []string
		for _, e := range entries {
			if e.isStr {
				got = append(got, strings.Join(e.key, ".")+"="+e.str)
			} else {
				got = append(got, strings.Join(e.key, ".")+":"+e.raw)
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("tomlEntries(%q) = %q; want %q", c.text, g, c.want)
		}
	}
}
