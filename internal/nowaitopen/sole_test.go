package nowaitopen

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSoleFile: a file of one name, new or found in place, is opened; a
// name that is a second name of another file (a hard link) is refused in
// words naming the path, and the other file is left as it was.
func TestSoleFile(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(victim, []byte("alias ls=ls\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "linked.jsonl")
	if err := os.Link(victim, linked); err != nil {
		t.Fatal(err)
	}
	found := filepath.Join(dir, "found.jsonl")
	if err := os.WriteFile(found, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	checkOpens(t, "SoleFile", SoleFile, []openCase{
		{"new file", filepath.Join(dir, "new.jsonl"), appendFlags, nil, ""},
		{"file found in place", found, appendFlags, nil, ""},
		{"hard link appended to", linked, appendFlags, ErrHardLink, linked + " is a file with another name (a hard link)"},
		{"hard link locked", linked, os.O_CREATE | os.O_RDWR, ErrHardLink, linked + " is a file with another name"},
	})
	if b, _ := os.ReadFile(victim); string(b) != "alias ls=ls\n" {
		t.Errorf("the other file now holds %q", b)
	}
}
