package governance

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPathHelpersEquivalent compares the allocation-free path helpers with
// string-building forms of them (within without case folding for
// cutDir and beneath), on random paths that meet.
func TestPathHelpersEquivalent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	alpha := []string{"/", "/", "a", "b", ".", "a.", ".a"}
	word := func() string {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	oldRotated := func(pf, f string) bool {
		dir, name := splitLast(strings.ToLower(pf))
		fdir, fname := splitLast(strings.ToLower(f))
		return dir == fdir && (len(fname) > len(name) && strings.HasPrefix(fname, name) ||
			len(fname) > len(name)+1 && strings.HasPrefix(fname, "."+name))
	}
	for range 50000 {
		d, p := word(), word()
		wantRel, wantOK := within(d, p, false)
		if rel, ok := cutDir(d, p); rel != wantRel || ok != wantOK {
			t.Fatalf("cutDir(%q, %q) = %q, %v; want %q, %v", d, p, rel, ok, wantRel, wantOK)
		}
		if got := beneath(d, p); got != wantOK {
			t.Fatalf("beneath(%q, %q) = %v, want %v", d, p, got, wantOK)
		}
		if got, want := rotatedSiblingLower(d, p), oldRotated(d, p); got != want {
			t.Fatalf("rotatedSiblingLower(%q, %q) = %v, want %v", d, p, got, want)
		}
	}
}

// splitLast is filepath.Split for slash-separated paths.
func splitLast(p string) (dir, name string) {
	i := strings.LastIndex(p, "/")
	return p[:i+1], p[i+1:]
}
