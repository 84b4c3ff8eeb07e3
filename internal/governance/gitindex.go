package governance

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// git's checkout, restore, checkout-index, rm, mv and stash of a pathspec
// change only the files the index holds: "git checkout -- web" leaves an
// ignored web/.env alone. gitTracked reads the index (.git/index, format
// 2, 3 or 4) so that the walk beneath such a pathspec decides the files
// git tracks, not every file there.

// maxIndexBytes bounds the index read; a larger one is not read, and every
// file beneath counts as tracked.
const maxIndexBytes = 64 << 20

// gitTracked is the paths one work tree's index holds, relative to its
// top.
type gitTracked struct {
	top   string
	paths map[string]bool
	dirs  map[string]bool // every directory above a tracked path
}

// loadGitTracked returns the index of the work tree holding dir: the
// nearest directory at or above it with a .git (a directory, or a file
// saying "gitdir: PATH"). ok is false when there is none, or its index
// cannot be read whole.
func loadGitTracked(dir string) (*gitTracked, bool) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			gitDir := filepath.Join(d, ".git")
			if fi.Mode().IsRegular() {
				data, err := os.ReadFile(gitDir)
				if err != nil {
					return nil, false
				}
				p, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
				if !ok {
					return nil, false
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(d, p)
				}
				gitDir = p
			}
			paths, ok := readGitIndex(filepath.Join(gitDir, "index"))
			if !ok {
				return nil, false
			}
			t := &gitTracked{top: d, paths: map[string]bool{}, dirs: map[string]bool{}}
			for _, p := range paths {
				t.paths[p] = true
				for q := filepath.Dir(p); q != "." && q != "/" && !t.dirs[q]; q = filepath.Dir(q) {
					t.dirs[q] = true
				}
			}
			return t, true
		}
		if d == filepath.Dir(d) {
			return nil, false
		}
	}
}

// holds reports whether the index tracks the file at p (absolute, as
// the file system places it) or a file beneath it.
func (t *gitTracked) holds(p string) bool {
	rel, err := filepath.Rel(t.top, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return true // not this tree's: counted, to err on the side of the rule
	}
	return t.paths[rel] || t.dirs[rel]
}

// readGitIndex returns the paths of the git index at p; ok is false when
// it is missing (an empty repository tracks nothing: ok, no paths), too
// large, or not an index of format 2, 3 or 4.
func readGitIndex(p string) ([]string, bool) {
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxIndexBytes+1))
	if err != nil || len(data) > maxIndexBytes || len(data) < 12 || !bytes.Equal(data[:4], []byte("DIRC")) {
		return nil, false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	n := binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 || int64(n) > int64(len(data)) {
		return nil, false
	}
	paths := make([]string, 0, n)
	at, prev := 12, ""
	for i := uint32(0); i < n; i++ {
		start := at
		if at+62 > len(data) {
			return nil, false
		}
		flags := binary.BigEndian.Uint16(data[at+60 : at+62])
		at += 62
		if version >= 3 && flags&0x4000 != 0 {
			at += 2
		}
		if at > len(data) {
			return nil, false
		}
		var name string
		if version == 4 {
			strip, k, ok := gitIndexVarint(data[at:])
			if !ok || strip > len(prev) {
				return nil, false
			}
			at += k
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, false
			}
			name = prev[:len(prev)-strip] + string(data[at:at+end])
			at += end + 1
		} else {
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, false
			}
			name = string(data[at : at+end])
			// The entry is padded with NULs to a multiple of 8 bytes.
			at = start + (at+end-start+8)&^7
		}
		prev = name
		paths = append(paths, name)
	}
	return paths, true
}

// gitIndexVarint reads the offset-encoded number of an index of format 4
// (git's varint.c) from b: the number, and the bytes it took.
func gitIndexVarint(b []byte) (int, int, bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	v, k := int(b[0]&127), 1
	for c := b[0]; c&128 != 0; k++ {
		if k >= len(b) || k > 8 {
			return 0, 0, false
		}
		c = b[k]
		v = (v+1)<<7 | int(c&127)
	}
	return v, k, true
}
