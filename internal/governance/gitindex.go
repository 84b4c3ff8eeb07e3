package governance

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"regexp"
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

// gitRepo is the repository git finds from a directory: the top of its
// work tree, its git directory, the common directory it shares objects and
// configuration from (its "commondir" file's, else the git directory) and
// its configuration's text.
type gitRepo struct {
	top, gitDir, common string
	config              string
}

// findGitRepo returns the repository git finds from dir: the nearest
// directory at or above dir, as the file system resolves it (git starts
// from the real path), with a .git (a directory, or a file saying
// "gitdir: PATH"); its configuration is the common directory's for a
// linked work tree (the git directory's "commondir" file). ok is false
// when there is none or it cannot be read.
func findGitRepo(dir string) (gitRepo, bool) {
	for d := filepath.Clean(resolvedDir(dir)); ; d = filepath.Dir(d) {
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			r := gitRepo{top: d, gitDir: filepath.Join(d, ".git")}
			if fi.Mode().IsRegular() {
				data, err := readRegular(r.gitDir, maxConfigFileBytes)
				if err != nil {
					return gitRepo{}, false
				}
				p, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
				if !ok {
					return gitRepo{}, false
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(d, p)
				}
				r.gitDir = p
			}
			r.common = r.gitDir
			if c, err := readRegular(filepath.Join(r.gitDir, "commondir"), maxConfigFileBytes); err == nil {
				r.common = strings.TrimSpace(string(c))
				if !filepath.IsAbs(r.common) {
					r.common = filepath.Join(r.gitDir, r.common)
				}
			}
			cfg, err := readRegular(filepath.Join(r.common, "config"), maxConfigFileBytes)
			if err != nil {
				return gitRepo{}, false
			}
			r.config = strings.ToLower(string(cfg))
			return r, true
		}
		if d == filepath.Dir(d) {
			return gitRepo{}, false
		}
	}
}

// worktreeSetting finds a core.worktree setting in a configuration's text
// (lower case).
var worktreeSetting = regexp.MustCompile(`(?m)^\s*worktree\s*=`)

// movesWorkTree reports whether the repository's configuration puts its
// work tree somewhere else than its top (core.worktree): git then changes
// files there, not beneath the pathspecs as the command names them.
func (r gitRepo) movesWorkTree() bool { return worktreeSetting.MatchString(r.config) }

// loadGitTracked returns the index of the repository git finds from dir
// (findGitRepo). ok is false when there is none, its index cannot be read
// whole, it names an object format (a SHA-256 repository's index is read
// otherwise), or it moves its work tree.
func loadGitTracked(dir string) (*gitTracked, bool) {
	r, ok := findGitRepo(dir)
	if !ok || strings.Contains(r.config, "objectformat") || r.movesWorkTree() {
		return nil, false
	}
	paths, ok := readGitIndex(filepath.Join(r.gitDir, "index"))
	if !ok {
		return nil, false
	}
	t := &gitTracked{top: r.top, paths: map[string]bool{}, dirs: map[string]bool{}}
	for _, p := range paths {
		t.paths[p] = true
		for q := filepath.Dir(p); q != "." && q != "/" && !t.dirs[q]; q = filepath.Dir(q) {
			t.dirs[q] = true
		}
	}
	return t, true
}

// within reports whether p lies in this work tree.
func (t *gitTracked) within(p string) bool {
	rel, err := filepath.Rel(t.top, resolvedDir(p))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
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

// maxIndexNameBytes bounds the bytes of all the names an index holds
// together: a format-4 index of names each one byte longer than the last
// is small on disk and quadratic in memory. A variable only so that
// TestReadGitIndexRefuses can lower it.
var maxIndexNameBytes = 64 << 20

// readGitIndex returns the paths of the git index at p; ok is false when
// it is missing, too large, not an index of format 2, 3 or 4 with 20-byte
// object names (a SHA-256 repository's does not read as one: each entry's
// name length, in its flags, must match), or its names together exceed
// maxIndexNameBytes. A missing index (a repository that tracks nothing
// yet, or one the agent just made) is not ok either: the caller counts
// every file.
func readGitIndex(p string) ([]string, bool) {
	entries, ok := readGitIndexEntries(p)
	if !ok {
		return nil, false
	}
	paths := make([]string, len(entries))
	for i, en := range entries {
		paths[i] = en.path
	}
	return paths, true
}

// gitIndexEntry is one entry of a git index: its path from the top of
// the work tree, its mode (0120000 for a symlink) and its object's name.
type gitIndexEntry struct {
	path string
	mode uint32
	oid  [20]byte
}

// readGitIndexEntries returns the entries of the git index at p, read as
// readGitIndex reads them.
func readGitIndexEntries(p string) ([]gitIndexEntry, bool) {
	f, _, err := openRegular(p)
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
	if version < 2 || version > 4 || int64(n) > int64(len(data)/62) {
		return nil, false
	}
	var paths []gitIndexEntry
	at, prev, total := 12, "", 0
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
			if !ok || strip > uint64(len(prev)) {
				return nil, false
			}
			at += k
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, false
			}
			name = prev[:len(prev)-int(strip)] + string(data[at:at+end])
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
		if l := int(flags & 0xfff); l < 0xfff && l != len(name) || name == "" {
			return nil, false // not read as git wrote it
		}
		if total += len(name); total > maxIndexNameBytes {
			return nil, false
		}
		prev = name
		en := gitIndexEntry{path: name, mode: binary.BigEndian.Uint32(data[start+24 : start+28])}
		copy(en.oid[:], data[start+40:start+60])
		paths = append(paths, en)
	}
	// A split index ("link": most entries are in a shared index) or a
	// sparse one ("sdir": a directory stands for the files beneath it)
	// does not list every file git tracks here.
	for at+8 <= len(data)-20 {
		sig, size := string(data[at:at+4]), int64(binary.BigEndian.Uint32(data[at+4:at+8]))
		if sig == "link" || sig == "sdir" {
			return nil, false
		}
		if int64(at)+8+size > int64(len(data)) {
			return nil, false
		}
		at += 8 + int(size)
	}
	return paths, true
}

// gitIndexVarint reads the offset-encoded number of an index of format 4
// (git's varint.c) from b: the number, and the bytes it took; ok is false
// for a number that does not fit in 64 bits or runs past b.
func gitIndexVarint(b []byte) (uint64, int, bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	c := b[0]
	v, k := uint64(c&127), 1
	for c&128 != 0 {
		if k >= len(b) || v+1 > (1<<57)-1 {
			return 0, 0, false
		}
		c = b[k]
		k++
		v = (v+1)<<7 | uint64(c&127)
	}
	return v, k, true
}
