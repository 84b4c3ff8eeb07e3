package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// globTree makes a small tree for comparing boundedGlob with filepath.Glob.
func globTree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	tree{
		files: []string{"a/x.go", "a/y.txt", "a/.hidden", "a/X.GO", "b/c/x.go", "b/c/z.md", "b/[odd].txt", "b/star*.txt", "d.go", "e/f/g/h.txt", "E/.Env"},
		links: map[string]string{"l": "a", "dang": "missing"},
	}.make(t, root)
	return root
}

// TestBoundedGlobMatchesGlob checks that boundedGlob finds what
// filepath.Glob finds and, as a shell with nocaseglob would, the names
// that differ from those in case only, while within its budget, and
// refuses once a pattern reads more directory entries than that.
func TestBoundedGlobMatchesGlob(t *testing.T) {
	root := globTree(t)
	for _, p := range []string{"*", "*/*", "*/*/*", "a/*.go", "?/*", "[ab]/*", "b/\\[odd].txt", "b/star\\*.txt",
		"*/c/*", "l/*", "da*", "missing/*", "a/[", "e/*/*/*", "*.go", "a/x.go", "a/*.go", "?/.e*", "[e]/.[E]NV", "A/*"} {
		checkGlobMatches(t, root+"/"+p)
	}
	many := filepath.Join(root, "many")
	for i := 0; i < 50; i++ {
		if err := os.MkdirAll(filepath.Join(many, fmt.Sprintf("d%02d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	budget := 40
	if got, ok := boundedGlob(many+"/*/*", &budget); ok {
		t.Errorf("boundedGlob over 50 directories with a budget of 40 entries = %d names, ok; want refused", len(got))
	}
}

// FuzzBoundedGlob compares boundedGlob with filepath.Glob on patterns
// over a small tree (checkGlobMatches).
func FuzzBoundedGlob(f *testing.F) {
	for _, s := range []string{"*", "*/*", "a/*.go", "[ab]/?", "b/\\[odd].txt", "*/c/[xz]*", "l/.*", "a/[", "A/*.GO", "?/.[e]nv"} {
		f.Add(s)
	}
	root := globTree(f)
	f.Fuzz(func(t *testing.T, p string) {
		pat := filepath.Clean(root + "/" + p)
		if !filepath.IsAbs(pat) || len(p) > 64 {
			return
		}
		checkGlobMatches(t, pat)
	})
}

// checkGlobMatches checks that boundedGlob, with the whole budget, finds
// every name filepath.Glob finds for pat, once each, and only names that
// pat matches whole when case is ignored (pattern and name both lowered,
// or both raised), as a shell with nocaseglob matches them.
func checkGlobMatches(t *testing.T, pat string) {
	t.Helper()
	want, err := filepath.Glob(pat)
	if err != nil {
		want = nil
	}
	budget := globBudget
	got, ok := boundedGlob(pat, &budget)
	if !ok {
		t.Fatalf("boundedGlob(%q) refused within its budget", pat)
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("boundedGlob(%q) = %q lacks %q, which filepath.Glob gives", pat, got, w)
		}
	}
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			t.Errorf("boundedGlob(%q) gives %q twice", pat, g)
		}
		seen[g] = true
		m1, _ := filepath.Match(pat, g)
		m2, _ := filepath.Match(strings.ToLower(pat), strings.ToLower(g))
		m3, _ := filepath.Match(strings.ToUpper(pat), strings.ToUpper(g))
		if !m1 && !m2 && !m3 {
			t.Errorf("boundedGlob(%q) gives %q, which the pattern does not match with case ignored", pat, g)
		}
	}
}
