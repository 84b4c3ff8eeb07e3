//go:build linux

package governance

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// filteredChildEnv makes the test binary TestPlainLookupUnderFilter's
// child: a process whose openat2 a seccomp filter answers with an error.
const filteredChildEnv = "GOVERNANCE_TEST_OPENAT2_FILTERED"

// TestPlainLookupUnderFilter: where a seccomp filter answers openat2 with
// ENOENT (as a sandbox's filter may refuse any call it does not know,
// with an errno of its choosing), or with 0 (a success that opened
// nothing), the plain lookup must not be taken to say that a path is
// missing, or there, with no link on it: a path through a link out of the
// workspace is resolved through the link, as the walk resolves it. The
// filter is installed in a child process, the test binary run again,
// since it cannot be taken off.
func TestPlainLookupUnderFilter(t *testing.T) {
	errnoText := os.Getenv(filteredChildEnv)
	if errnoText == "" {
		for _, errno := range []unix.Errno{unix.ENOENT, 0} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestPlainLookupUnderFilter$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), filteredChildEnv+"="+strconv.Itoa(int(errno)))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("the child under a filter answering openat2 with errno %d failed (%v):\n%s", errno, err, out)
			}
		}
		return
	}
	n, err := strconv.Atoi(errnoText)
	if err != nil {
		t.Fatal(err)
	}
	errno := unix.Errno(n)
	root := t.TempDir()
	out := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "there"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	filterOpenat2(t, errno)
	if fd, err := unix.Openat2(unix.AT_FDCWD, "/", &unix.OpenHow{Flags: unix.O_PATH}); errno != 0 && err != errno || errno == 0 && (err != nil || fd != 0) {
		t.Fatalf("openat2 under the filter: %d, %v; want the filter's answer %d (the filter is not in place)", fd, err, errno)
	}
	e := NewEngine(testPolicy(t, "  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n"), EngineOptions{Roots: []string{ws}})
	for _, name := range []string{"f", "there"} {
		w := filepath.Join(ws, "link", name)
		if d := e.Decide(Request{Action: ActionFSWrite, Paths: []string{w}, Cwd: ws}); d.Value != Deny {
			t.Errorf("writing %s (through a link out of the workspace) under the filter: %v (%s); want deny", w, d.Value, d.Reason)
		}
	}
	for _, tc := range []struct {
		raw   string
		roots []string
	}{
		{filepath.Join(ws, "link", "f"), []string{ws}},
		{filepath.Join(ws, "link", "f"), nil},
		{filepath.Join(ws, "link", "there"), []string{ws}},
		{filepath.Join(ws, "link"), []string{ws}},
	} {
		walked, _, r := resolveWalk(tc.raw, tc.roots...)
		if r != nil {
			t.Fatalf("resolveWalk(%s): %v", tc.raw, r)
		}
		if !strings.HasPrefix(walked, out) {
			t.Fatalf("resolveWalk(%s) = %s: the test's link is not followed", tc.raw, walked)
		}
		got, _, r := resolveLooked(tc.raw, tc.roots...)
		if r != nil || got != walked {
			t.Errorf("resolveLooked(%s, roots %q) under a filter answering openat2 with errno %d = %q (refusal %v); the walk finds %q", tc.raw, tc.roots, errno, got, r, walked)
		}
	}
}

// filterOpenat2 installs, in every thread of the process, a seccomp filter
// that fails each openat2 with errno.
func filterOpenat2(t *testing.T, errno unix.Errno) {
	t.Helper()
	runtime.LockOSThread() // no_new_privs and the filter are set on this thread, the filter synced to the rest
	defer runtime.UnlockOSThread()
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: unix.SYS_OPENAT2},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(errno)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		t.Fatalf("prctl(PR_SET_NO_NEW_PRIVS): %v", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		t.Fatalf("seccomp(SECCOMP_SET_MODE_FILTER): %v", e)
	}
}
