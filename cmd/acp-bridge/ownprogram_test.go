package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOwnFilesHoldTheProgram: the bridge protects its own program (where
// links lead) whatever the agent, with or without --record and --log-file,
// so that "go install" of a package of the agent's named like it is refused
// under any adapter, not only where the Claude Code hook runs it.
func TestOwnFilesHoldTheProgram(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	for _, f := range []bridgeFlags{{}, {record: "w.jsonl", logFile: "b.log"}} {
		found := false
		for _, p := range f.ownFiles() {
			found = found || p.Path == exe && !p.Read
		}
		if !found {
			t.Errorf("ownFiles() with %+v = %+v; want %s protected from writes", f, f.ownFiles(), exe)
		}
	}
}

// TestNamesOfProgram: every name on the search path that starts the
// bridge's file (a link under another name, as /usr/local/bin/acp-bridge
// to a versioned install, or a hard link) is the bridge's program too, as
// is the path it was started by; a hard link is found under the
// program's own name or the one it was started by; other files and
// relative directories are not.
func TestNamesOfProgram(t *testing.T) {
	root := t.TempDir()
	install, gobin, other := filepath.Join(root, "v1.2"), filepath.Join(root, "gobin"), filepath.Join(root, "other")
	for _, d := range []string{install, gobin, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(install, "acp-bridge-1.2")
	for _, f := range []string{exe, filepath.Join(other, "acp-bridge")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustLink := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustLink(os.Symlink(exe, filepath.Join(gobin, "acp-bridge")))
	mustLink(os.Symlink("../gobin/acp-bridge", filepath.Join(other, "ab")))
	mustLink(os.Link(exe, filepath.Join(gobin, "acp-bridge-1.2")))
	mustLink(os.Link(exe, filepath.Join(other, "hard-elsewhere")))
	mustLink(os.Symlink(filepath.Join(other, "acp-bridge"), filepath.Join(gobin, "not-it")))

	got := namesOfProgram(exe, filepath.Join(gobin, "acp-bridge"), []string{gobin, other, "gobin", filepath.Join(root, "missing")})
	want := []string{filepath.Join(gobin, "acp-bridge"), filepath.Join(gobin, "acp-bridge-1.2"), filepath.Join(other, "ab")}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("namesOfProgram = %q, want %q", got, want)
	}
	if got := namesOfProgram(filepath.Join(root, "gone"), "acp-bridge", []string{gobin}); got != nil {
		t.Errorf("namesOfProgram of a missing program = %q, want none", got)
	}
}
