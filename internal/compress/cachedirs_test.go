package compress

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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

// TestRecoverSearchesOnlyWhatTheBridgeWrote: /bridge-recover searches the
// files the bridge wrote, not what a link planted in the cache leads to (a
// file, or a directory at offloaded/), and a named pipe planted there does
// not hold the answer: only the bridge's own offload is found, at once.
func TestRecoverSearchesOnlyWhatTheBridgeWrote(t *testing.T) {
	for _, tt := range []struct {
		name  string
		plant func(t *testing.T, cache, outside string)
	}{
		{"link to a file", func(t *testing.T, cache, outside string) {
			mustDo(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(cache, "conversations", "planted_full.md")))
		}},
		{"link at conversations", func(t *testing.T, cache, outside string) {
			mustDo(t, os.Remove(filepath.Join(cache, "conversations")))
			mustDo(t, os.Symlink(outside, filepath.Join(cache, "conversations")))
		}},
		{"named pipe", func(t *testing.T, cache, outside string) {
			mustDo(t, syscall.Mkfifo(filepath.Join(cache, "offloaded", "0_pipe.md"), 0o600))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cache, outside := filepath.Join(t.TempDir(), "cache"), t.TempDir()
			st := NewStore(cache, nil)
			own, err := st.WriteOffloaded("terminal_output", "needle-4411 in the bridge's offload\n")
			mustDo(t, err)
			mustDo(t, os.MkdirAll(st.ConversationsDir(), 0o700))
			mustDo(t, os.WriteFile(filepath.Join(outside, "secret.md"), []byte("needle-4411 outside the cache\n"), 0o600))
			tt.plant(t, cache, outside)
			done := make(chan []Snippet, 1)
			go func() { snips, _ := st.Recover("needle-4411", 10); done <- snips }()
			select {
			case snips := <-done:
				if len(snips) != 1 || snips[0].Path != own {
					t.Errorf("Recover = %+v, want only the match in %s", snips, own)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Recover still waits after 10 s")
			}
		})
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
