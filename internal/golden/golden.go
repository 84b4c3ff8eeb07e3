// Package golden compares what a test produced with a file it keeps under
// testdata/, and rewrites that file instead when the test binary runs with
// -update:
//
//	golden.Check(t, "testdata/show.golden", out.Bytes())
//
//	go test ./internal/audit -run TestShow -update   # rewrite, then review the diff
//
// A package whose tests import golden gets the -update flag from it and must
// not define its own.
package golden

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from this run")

// Check fails t, showing the lines that differ, if got is not byte for byte
// the content of the file at path; with -update it writes got to path
// instead, so the next run compares against it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("rewriting golden file: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs from what the test produced (-want +got):\n%s", path, diff)
	}
}
