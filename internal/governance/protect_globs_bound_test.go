package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// globTree makes a small tree for comparing boundedGlob with filepath.Glob.
func globTree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	tree{
		files: []string{"a/x.go", "a/y.txt", "a/.hidden", "b/c/x.go", "b/c/z.md", "b/[odd].txt", "b/star*.txt", "d.go", "e/f/g/h.txt"},
		links: map[string]string{"l": "a", "dang": "missing"},
	}.make(t, root)
	return root
}

// TestBoundedGlobMatchesGlob checks that boundedGlob finds what
// filepath.Glob finds, in the same order, while within its budget, and
// refuses once a pattern reads more directory entries than that.
func TestBoundedGlobMatchesGlob(t *testing.T) {
	root := globTree(t)
	for _, p := range []string{"*", "*/*", "*/*/*", "a/*.go", "?/*", "[ab]/*", "b/\\[odd].txt", "b/star\\*.txt",
		"*/c/*", "l/*", "da*", "missing/*", "a/[", "e/*/*/*", "*.go", "a/x.go"} {
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
// over a small tree: the same names, in the same order.
func FuzzBoundedGlob(f *testing.F) {
	for _, s := range []string{"*", "*/*", "a/*.go", "[ab]/?", "b/\\[odd].txt", "*/c/[xz]*", "l/.*", "a/["} {
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
// the names filepath.Glob finds for pat, in the same order.
func checkGlobMatches(t *testing.T, pat string) {
	t.Helper()
	want, err := filepath.Glob(pat)
	if err != nil {
		want = nil
	}
	budget := globBudget
	got, ok := boundedGlob(pat, &budget)
	if !ok || !slices.Equal(got, want) {
		t.Errorf("boundedGlob(%q) = %q, %v; filepath.Glob gives %q", pat, got, ok, want)
	}
}
