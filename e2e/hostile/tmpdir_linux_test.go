package hostile

import (
	"os"
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
	dir, err := os.MkdirTemp(shm, "acp-bridge-hostile-")
	if err != nil {
		return ""
	}
	return dir
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
