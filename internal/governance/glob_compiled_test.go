package governance

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// checkCompiledMatch fails t when the compiled matcher and
// pathPattern.match disagree on pattern, path and root, either way of
// comparing case.
func checkCompiledMatch(t *testing.T, pattern, p, root string) {
	t.Helper()
	pp, err := compilePathPattern(pattern, "/w", "/h")
	if err != nil {
		return
	}
	roots := []string{root}
	s := newPathSubject(p)
	for _, fold := range []bool{false, true} {
		want := pp.match(p, roots, fold)
		if got := pp.matchSubject(&s, roots, lowerAll(roots), fold); got != want {
			t.Fatalf("pattern %q, path %q, root %q, fold %v: compiled %v, match %v", pattern, p, root, fold, got, want)
		}
	}
}

// TestPathMatchCompiled compares the compiled matcher with
// pathPattern.match on the cases where they could part: case, wildcards
// in a segment, "**" between segments, roots and fixed directories with
// a trailing slash, and paths with runes whose lower case is longer or
// shorter than they are.
func TestPathMatchCompiled(t *testing.T) {
	for _, c := range []struct{ pattern, path, root string }{
		{"**/.env", "/w/a/.ENV", "/w"},
		{".env", "/w/.env/x", "/w"},
		{"*.pem", "/w/A.PEM", "/w"},
		{"./src/**", "/W/src/a.go", "/w"},
		{"src/**/*.go", "/w/src/a/b/c.go", "/w/"},
		{"src/*.go", "/w/src/a/b.go", "/w"},
		{"//etc/**", "/ETC/passwd", "/w"},
		{"//", "/anything", "/w"},
		{"~/.ssh/**", "/h/.SSH/id", "/w"},
		{"/GOVERNANCE.md", "/w/governance.md", "/w"},
		{"[a-c]?/\\*", "/w/B1/*", "/w"},
		{"a**b", "/w/aXXb", "/w"},
		{"**/K", "/w/\u212a", "/w"},         // Kelvin sign: lower case is "k"
		{"./k/x", "/\u212a/k/x", "/\u212a"}, // a root whose lower case is shorter
		{"./i/x", "/\u0130/i/x", "/\u0130"}, // one whose lower case is longer
		{"./x", "/w/" + strings.Repeat("a/", 40) + "x", "/w"},
		{"**/a", "/" + strings.Repeat("a/", 40), "/"},
	} {
		checkCompiledMatch(t, c.pattern, c.path, c.root)
	}
	// Random patterns and paths over a small alphabet, so that they meet.
	r := rand.New(rand.NewPCG(7, 7))
	alpha := []string{"a", "A", "b", "/", "/", ".", "*", "**", "?", "[a-b]", "[!a]", `\`, "~", "\u212a", "k"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	for range 20000 {
		pattern := word(1 + r.IntN(6))
		if r.IntN(3) == 0 {
			pattern = "/" + pattern
		}
		p := "/" + strings.NewReplacer("*", "", "?", "", "[", "", "]", "", "!", "").Replace(word(r.IntN(10)))
		root := []string{"/", "/a", "/A/", "/a/b", "/w"}[r.IntN(5)]
		checkCompiledMatch(t, pattern, p, root)
	}
}

// FuzzPathMatchCompiled checks that the compiled matcher decides as
// pathPattern.match on any pattern, path and root.
func FuzzPathMatchCompiled(f *testing.F) {
	f.Add("**/.env", "/w/a/.ENV", "/w")
	f.Add("./src/**/*.go", "/w/src/a/b.go", "/w/")
	f.Add("//etc/*", "/etc/passwd", "/")
	f.Add("[a-c]?", "/W/b1", "/w")
	f.Add("./k", "/\u212a/k", "/\u212a")
	f.Fuzz(func(t *testing.T, pattern, p, root string) {
		checkCompiledMatch(t, pattern, p, root)
	})
}
