package governance

import (
	"path/filepath"
	"testing"
)

// checkCreatedIfMissing holds createdIfMissingLooked, given the facts a
// decision finds of each path of a tree, to createdIfMissing.
func checkCreatedIfMissing(t *testing.T, dir string, paths []string) {
	t.Helper()
	for _, p := range paths {
		for _, q := range []string{p, filepath.Join(p, "new"), filepath.Join(p, "a", "new")} {
			in := &reqInfo{roots: []string{dir}, memo: &decisionMemo{}}
			if got, want := createdIfMissingLooked(in.facts(q), q), createdIfMissing(q); got != want {
				t.Errorf("createdIfMissingLooked(%s) = %v, createdIfMissing says %v", q, got, want)
			}
		}
	}
}

// TestCreatedIfMissingLooked checks it on trees of directories, files and
// links of every kind (rootTree).
func TestCreatedIfMissingLooked(t *testing.T) {
	for name, ops := range map[string][]byte{
		"directories":         {0, 0, 1, 0, 2, 0, 13, 1, 14, 1},
		"files":               {0, 0, 1, 2, 2, 2, 13, 2},
		"link to a directory": {0, 0, 1, 0 | 3<<3, 2, 3 | 1<<3, 14, 0},
		"dangling links":      {0, 3 | 30<<3, 1, 4 | 31<<3, 2, 5},
		"missing":             {},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			checkCreatedIfMissing(t, dir, rootTree(dir, ops))
		})
	}
}

// FuzzCreatedIfMissingLooked is TestCreatedIfMissingLooked on trees the
// fuzzer makes.
func FuzzCreatedIfMissingLooked(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 2, 2, 13, 2})
	f.Add([]byte{0, 3 | 30<<3, 1, 4 | 31<<3, 2, 5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		dir := t.TempDir()
		checkCreatedIfMissing(t, dir, rootTree(dir, ops))
	})
}
