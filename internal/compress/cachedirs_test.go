package compress

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStoreWritesNoLinkedDirectory: a symbolic link planted at one of the
// cache's own directories (the cache itself, offloaded/, conversations/)
// fails the write, and nothing reaches the directory the link leads to.
func TestStoreWritesNoLinkedDirectory(t *testing.T) {
	tests := []struct {
		name  string
		link  string // relative to the cache's parent
		write func(s *Store) error
	}{
		{"offloaded", "cache/offloaded", func(s *Store) error { _, err := s.WriteOffloaded("terminal_output", "content"); return err }},
		{"conversations", "cache/conversations", func(s *Store) error { _, err := s.WriteArchive("sess-1", "archive"); return err }},
		{"cache for an offload", "cache", func(s *Store) error { _, err := s.WriteOffloaded("terminal_output", "content"); return err }},
		{"cache for an archive", "cache", func(s *Store) error { _, err := s.WriteArchive("sess-1", "archive"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, out := t.TempDir(), t.TempDir()
			link := filepath.Join(root, tt.link)
			if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, link); err != nil {
				t.Fatal(err)
			}
			if err := tt.write(NewStore(filepath.Join(root, "cache"), nil)); err == nil {
				t.Error("the write through a link succeeded")
			}
			if ents, _ := os.ReadDir(out); len(ents) > 0 {
				t.Errorf("%s was written in the directory the link leads to", ents[0].Name())
			}
		})
	}
}

// TestOpenRefusesLinkedEventLog: Open does not follow a link planted at
// the event log's path, and creates nothing where it leads.
func TestOpenRefusesLinkedEventLog(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(t.TempDir(), "planted.jsonl")
	log := filepath.Join(root, "compress.jsonl")
	if err := os.Symlink(target, log); err != nil {
		t.Fatal(err)
	}
	p, err := Open(Options{Config: Config{CacheDir: filepath.Join(root, "cache")}, LogPath: log}, nil)
	if err == nil {
		p.Close()
		t.Fatal("Open followed the link")
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the file the link leads to was created")
	}
}
