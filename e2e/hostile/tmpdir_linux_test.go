package hostile

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// shm is the tmpfs the runs' files go to when it can take them.
const shm = "/dev/shm"

// minShmFree is the room shm must have: the suite's largest runs write tens
// of MiB each (an audit log of huge tool outputs), several at once.
const minShmFree = 2 << 30

// runsTmpDir returns a new directory under shm for TMPDIR, or "" to leave
// TMPDIR alone: when the user set it, or when shm is not a tmpfs that
// allows executables (a case's fake tools and scripts run from its world)
// with minShmFree to spare. Every run creates some twenty files and
// directories (its world, the audit log, the IDE's and the agent's files);
// on an ext4 /tmp that many other tests also fill and empty, allocating
// their inodes cost a fifth of the suite's CPU (docs/testing.md). Only the
// directory changes: every run still writes, runs and checks the same files.
func runsTmpDir() string {
	if os.Getenv("TMPDIR") != "" {
		return ""
	}
	var st unix.Statfs_t
	if unix.Statfs(shm, &st) != nil || !takesRuns(st) {
		return ""
	}
	sweepRuns(shm)
	dir, err := newRunsDir(shm)
	if err != nil {
		return ""
	}
	return dir
}

// lockName is the file in a runs directory that the test binary which made
// it holds locked (flock) for as long as it lives.
const lockName = ".lock"

// runsLocks are the open lock files of this binary's runs directories:
// never closed, so the locks last until the process ends, however it ends.
var runsLocks []*os.File

// newRunsDir makes a runs directory under parent and locks it. The lock
// file is locked before it takes lockName, so a sweep never finds it
// unlocked while the directory is in use.
func newRunsDir(parent string) (string, error) {
	dir, err := os.MkdirTemp(parent, "acp-bridge-hostile-")
	if err != nil {
		return "", err
	}
	f, err := os.Create(filepath.Join(dir, lockName+"-new"))
	if err == nil {
		if err = unix.Flock(int(f.Fd()), unix.LOCK_EX); err == nil {
			err = os.Rename(f.Name(), filepath.Join(dir, lockName))
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	runsLocks = append(runsLocks, f)
	return dir, nil
}

// sweepRuns removes the runs directories under parent whose test binary
// has ended without removing its own (go test's timeout ends it with a
// panic, before TestMain's clean-up): those whose lock file it can lock.
// A directory without a lock file is left alone.
func sweepRuns(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, "acp-bridge-hostile-*"))
	for _, d := range dirs {
		f, err := os.Open(filepath.Join(d, lockName))
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			os.RemoveAll(d)
		}
		f.Close()
	}
}

// TestSweepRuns: a runs directory whose lock is held stays, one whose lock
// is free goes, one without a lock file stays.
func TestSweepRuns(t *testing.T) {
	parent := t.TempDir()
	live, err := newRunsDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(parent, "acp-bridge-hostile-dead")
	unlocked := filepath.Join(parent, "acp-bridge-hostile-nolock")
	for _, d := range []string{dead, unlocked} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dead, lockName), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sweepRuns(parent)
	for _, c := range []struct {
		dir  string
		want bool
	}{{live, true}, {dead, false}, {unlocked, true}} {
		_, err := os.Stat(c.dir)
		if got := err == nil; got != c.want {
			t.Errorf("%s: there %v after the sweep, want %v", filepath.Base(c.dir), got, c.want)
		}
	}
}

// takesRuns reports whether the file system st describes can hold the
// runs' files: a tmpfs, executables allowed, minShmFree available.
func takesRuns(st unix.Statfs_t) bool {
	return st.Type == unix.TMPFS_MAGIC && st.Flags&unix.ST_NOEXEC == 0 && st.Bavail*uint64(st.Bsize) >= minShmFree
}

// TestTakesRuns: only a tmpfs that allows executables and has the room.
func TestTakesRuns(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct {
		name string
		st   unix.Statfs_t
		want bool
	}{
		{"tmpfs with room", unix.Statfs_t{Type: unix.TMPFS_MAGIC, Bsize: 4096, Bavail: 24 * gib / 4096}, true},
		{"tmpfs just big enough", unix.Statfs_t{Type: unix.TMPFS_MAGIC, Bsize: 4096, Bavail: minShmFree / 4096}, true},
		{"docker's 64 MiB tmpfs", unix.Statfs_t{Type: unix.TMPFS_MAGIC, Bsize: 4096, Bavail: 64 << 20 / 4096}, false},
		{"noexec tmpfs", unix.Statfs_t{Type: unix.TMPFS_MAGIC, Bsize: 4096, Bavail: 24 * gib / 4096, Flags: unix.ST_NOEXEC}, false},
		{"ext4", unix.Statfs_t{Type: unix.EXT4_SUPER_MAGIC, Bsize: 4096, Bavail: 24 * gib / 4096}, false},
	} {
		if got := takesRuns(tt.st); got != tt.want {
			t.Errorf("%s: takesRuns %v, want %v", tt.name, got, tt.want)
		}
	}
}
