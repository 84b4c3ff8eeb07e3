package governance

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadLinkBlob checks that a symlink entry's blob is read from the
// repository's loose objects only where they lie beneath its top or a
// workspace root, as the file system resolves them, and never through a
// symlinked fan-out directory or object file: a blob elsewhere on the
// machine would otherwise become a kept link's target.
func TestReadLinkBlob(t *testing.T) {
	tests := []struct {
		name string
		// arrange changes the repository at ws/.git (its blob's object
		// file in obj) or writes elsewhere beneath tmp; it returns the
		// repository to read.
		arrange func(t *testing.T, tmp, obj string) gitRepo
		want    bool
	}{
		{"loose object in place", func(t *testing.T, tmp, obj string) gitRepo { return wsRepo(t, tmp) }, true},
		{"objects directory a symlink outside", func(t *testing.T, tmp, obj string) gitRepo {
			moveAndLink(t, filepath.Join(tmp, "ws/.git/objects"), filepath.Join(tmp, "out/objects"))
			return wsRepo(t, tmp)
		}, false},
		{"objects directory a symlink inside the root", func(t *testing.T, tmp, obj string) gitRepo {
			moveAndLink(t, filepath.Join(tmp, "ws/.git/objects"), filepath.Join(tmp, "ws/store/objects"))
			return wsRepo(t, tmp)
		}, true},
		{"commondir outside", func(t *testing.T, tmp, obj string) gitRepo {
			if err := os.Rename(filepath.Join(tmp, "ws/.git"), filepath.Join(tmp, "out/.git")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(tmp, "ws/.git/commondir"), filepath.Join(tmp, "out/.git")+"\n")
			return wsRepo(t, tmp)
		}, false},
		{"commondir relative, leading outside", func(t *testing.T, tmp, obj string) gitRepo {
			if err := os.Rename(filepath.Join(tmp, "ws/.git"), filepath.Join(tmp, "out/.git")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(tmp, "ws/.git/commondir"), "../../out/.git\n")
			return wsRepo(t, tmp)
		}, false},
		{"object file a symlink", func(t *testing.T, tmp, obj string) gitRepo {
			moveAndLink(t, obj, filepath.Join(tmp, "out/o"))
			return wsRepo(t, tmp)
		}, false},
		{"object file a symlink within the objects", func(t *testing.T, tmp, obj string) gitRepo {
			moveAndLink(t, obj, filepath.Join(tmp, "ws/.git/objects/o"))
			return wsRepo(t, tmp)
		}, false},
		{"fan-out directory a symlink", func(t *testing.T, tmp, obj string) gitRepo {
			moveAndLink(t, filepath.Dir(obj), filepath.Join(tmp, "out/fan"))
			return wsRepo(t, tmp)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			ws := filepath.Join(tmp, "ws")
			writeFile(t, filepath.Join(tmp, "out/x"), "")
			gitRun(t, tmp, "init", "-q", ws)
			writeFile(t, filepath.Join(ws, "f"), "keys/a.key")
			h := strings.TrimSpace(gitRun(t, ws, "hash-object", "-w", "f"))
			var oid [20]byte
			if _, err := hex.Decode(oid[:], []byte(h)); err != nil {
				t.Fatal(err)
			}
			r := tt.arrange(t, tmp, filepath.Join(ws, ".git/objects", h[:2], h[2:]))
			text, ok := readLinkBlob(r, []string{ws}, oid)
			if ok != tt.want || ok && text != "keys/a.key" {
				t.Errorf("readLinkBlob = %q, %v; want the blob's text: %v", text, ok, tt.want)
			}
		})
	}
}

// wsRepo is the repository findGitRepo finds at tmp/ws.
func wsRepo(t *testing.T, tmp string) gitRepo {
	t.Helper()
	r, ok := findGitRepo(filepath.Join(tmp, "ws"))
	if !ok {
		t.Fatalf("findGitRepo(%s/ws) found no repository", tmp)
	}
	return r
}

// moveAndLink moves from to to and puts a symlink to it at from.
func moveAndLink(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(to, from); err != nil {
		t.Fatal(err)
	}
}
