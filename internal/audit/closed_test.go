package audit

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestClosedFiles: the files a log no longer writes are its rotated files
// in rotation order (a seventh digit included) and then those moved aside
// after tampering, regular files only; other names and the live file are
// not among them.
func TestClosedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	for _, name := range []string{"audit.jsonl", "audit.jsonl.000002", "audit.jsonl.000010", "audit.jsonl.1000000",
		"audit.jsonl.tampered-20261125T100000.000000000Z", "audit.jsonl.tampered-20261125T090000.000000000Z",
		"audit.jsonl.00001", "audit.jsonl.000000", "audit.jsonl.bak", "other.jsonl.000001"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "audit.jsonl.000003"), 0o700); err != nil {
		t.Fatal(err)
	}
	got, err := ClosedFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	want := []string{"audit.jsonl.000002", "audit.jsonl.000010", "audit.jsonl.1000000",
		"audit.jsonl.tampered-20261125T090000.000000000Z", "audit.jsonl.tampered-20261125T100000.000000000Z"}
	if !slices.Equal(names, want) {
		t.Errorf("ClosedFiles = %v, want %v", names, want)
	}
	// Rotation counts every rotated name, a directory included, so that it
	// never picks a number that is taken.
	ns, err := RotatedNumbers(path)
	if err != nil || !slices.Equal(ns, []int{2, 3, 10, 1000000}) {
		t.Errorf("RotatedNumbers = %v, %v", ns, err)
	}
	if got, err := ClosedFiles(filepath.Join(dir, "missing", "audit.jsonl")); got != nil || err != nil {
		t.Errorf("ClosedFiles of a missing directory = %v, %v", got, err)
	}
}
