package nowaitopen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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
	const appendFlags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	tests := []struct {
		name, path string
		flag       int
		want       error
		words      string
	}{
		{"new file", filepath.Join(dir, "new.jsonl"), appendFlags, nil, ""},
		{"file found in place", found, appendFlags, nil, ""},
		{"hard link appended to", linked, appendFlags, ErrHardLink, linked + " is a file with another name (a hard link)"},
		{"hard link locked", linked, os.O_CREATE | os.O_RDWR, ErrHardLink, linked + " is a file with another name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := SoleFile(tt.path, tt.flag, 0o600)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("SoleFile: %v", err)
				}
				f.Close()
				return
			}
			if f != nil {
				f.Close()
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("SoleFile: %v, want %v saying %q", err, tt.want, tt.words)
			}
		})
	}
	if b, _ := os.ReadFile(victim); string(b) != "alias ls=ls\n" {
		t.Errorf("the other file now holds %q", b)
	}
}
