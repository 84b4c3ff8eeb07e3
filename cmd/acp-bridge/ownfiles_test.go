package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestBridgeOwnFilesNotThroughLinks: a symbolic link planted where one of
// the bridge's own files or directories goes (by an agent in an earlier
// session, or a cloned repository: the README keeps the audit log and the
// cache in the workspace) is not followed. The bridge refuses to start,
// and neither the file the link leads to nor anything in the directory it
// leads to is created: the bridge would otherwise write its records, which
// quote what the agent chose, wherever the link leads.
func TestBridgeOwnFilesNotThroughLinks(t *testing.T) {
	tests := []struct {
		name  string
		place string // the link's name in the workspace
		dir   bool   // the link leads to an existing directory
		args  func(link string) []string
	}{
		{"audit log", "audit.jsonl", false, func(l string) []string { return []string{"--audit", l} }},
		{"audit lock file", ".audit.jsonl.lock", false, func(l string) []string {
			return []string{"--audit", filepath.Join(filepath.Dir(l), "audit.jsonl")}
		}},
		{"compression event log", "compress.jsonl", false, func(l string) []string {
			return []string{"--compress", "on", "--cache-dir", filepath.Join(filepath.Dir(l), "cache"), "--compress-log", l}
		}},
		{"cache directory", "cache", true, func(l string) []string { return []string{"--compress", "on", "--cache-dir", l} }},
		{"log file", "bridge.log", false, func(l string) []string { return []string{"--log-file", l} }},
		{"record file", "wire.jsonl", false, func(l string) []string { return []string{"--record", l} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, out := t.TempDir(), t.TempDir()
			target := filepath.Join(out, "planted")
			if tt.dir {
				if err := os.Mkdir(target, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(ws, tt.place)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			checkRefusedToStart(t, tt.args(link), link+" is a symbolic link")
			if tt.dir {
				if ents, _ := os.ReadDir(target); len(ents) > 0 {
					t.Errorf("the bridge wrote %s in the directory the link leads to", ents[0].Name())
				}
			} else if _, err := os.Lstat(target); err == nil {
				t.Error("the bridge created the file the link leads to")
			}
		})
	}
}

// TestBridgeOwnFilesNamedPipe: a named pipe planted where one of the
// bridge's own files goes does not hold the bridge's start until someone
// opens its other end: the bridge refuses to start at once.
func TestBridgeOwnFilesNamedPipe(t *testing.T) {
	tests := []struct {
		name string
		args func(pipe string) []string
	}{
		{"audit log", func(p string) []string { return []string{"--audit", p} }},
		{"compression event log", func(p string) []string {
			return []string{"--compress", "on", "--cache-dir", filepath.Join(filepath.Dir(p), "cache"), "--compress-log", p}
		}},
		{"log file", func(p string) []string { return []string{"--log-file", p} }},
		{"record file", func(p string) []string { return []string{"--record", p} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pipe := filepath.Join(t.TempDir(), "planted.jsonl")
			if err := syscall.Mkfifo(pipe, 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan int, 1)
			go func() {
				_, _, code := runCmd(t, "", append(tt.args(pipe), "--", "true")...)
				done <- code
			}()
			select {
			case code := <-done:
				if code != 2 {
					t.Errorf("exit %d, want 2", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the bridge still waits on the named pipe after 10 s")
			}
		})
	}
}

// TestBridgeOwnFilesHardLink: a hard link planted where one of the bridge's
// own files goes (made by an agent in an earlier session: `ln ~/.bashrc
// audit.jsonl`, which changes no file) is a second name of a file
// elsewhere. The bridge refuses to start, naming the path, and the file
// elsewhere keeps its content: the bridge would otherwise append its
// records, which quote what the agent chose, to it.
func TestBridgeOwnFilesHardLink(t *testing.T) {
	tests := []struct {
		name  string
		place string // the hard link's name in the workspace
		empty bool   // the file elsewhere is empty (the audit log continues no other text)
		args  func(link string) []string
	}{
		{"audit log", "audit.jsonl", true, func(l string) []string { return []string{"--audit", l} }},
		{"audit lock file", ".audit.jsonl.lock", false, func(l string) []string {
			return []string{"--audit", filepath.Join(filepath.Dir(l), "audit.jsonl")}
		}},
		{"compression event log", "compress.jsonl", false, func(l string) []string {
			return []string{"--compress", "on", "--cache-dir", filepath.Join(filepath.Dir(l), "cache"), "--compress-log", l}
		}},
		{"log file", "bridge.log", false, func(l string) []string { return []string{"--log-file", l} }},
		{"record file", "wire.jsonl", false, func(l string) []string { return []string{"--record", l} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, home := t.TempDir(), t.TempDir()
			rc := "alias ls='ls --color'\n"
			if tt.empty {
				rc = ""
			}
			victim := filepath.Join(home, ".bashrc")
			if err := os.WriteFile(victim, []byte(rc), 0o644); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(ws, tt.place)
			if err := os.Link(victim, link); err != nil {
				t.Fatal(err)
			}
			checkRefusedToStart(t, tt.args(link), link+" is a file with another name (a hard link)")
			if b, _ := os.ReadFile(victim); string(b) != rc {
				t.Errorf("the bridge changed the file the hard link names: %q", b)
			}
		})
	}
}

// TestBridgeOwnFilesLinkedDir: a symbolic link planted in the workspace
// (the bridge's working directory) at a directory above one of its own
// files (audit in --audit audit/audit.jsonl, the parent of --cache-dir)
// is not followed: the bridge refuses to start, naming the link, and
// writes nothing where it leads. A link above the files outside the
// working directory, the person's own (a ~/.cache that is a link), is
// followed as before.
func TestBridgeOwnFilesLinkedDir(t *testing.T) {
	tests := []struct {
		name string
		args []string // paths relative to the workspace, beneath the link "d"
	}{
		{"audit log", []string{"--audit", "d/audit.jsonl"}},
		{"audit log in a new directory", []string{"--audit", "d/new/audit.jsonl"}},
		{"compression event log", []string{"--compress", "on", "--cache-dir", "cache", "--compress-log", "d/compress.jsonl"}},
		{"cache directory", []string{"--compress", "on", "--cache-dir", "d/cache"}},
		{"log file", []string{"--log-file", "d/bridge.log"}},
		{"record file", []string{"--record", "d/wire.jsonl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, out := t.TempDir(), t.TempDir()
			if err := os.Symlink(out, filepath.Join(ws, "d")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(ws)
			checkRefusedToStart(t, tt.args, filepath.Join(ws, "d")+" is a symbolic link in the working directory")
			if ents, _ := os.ReadDir(out); len(ents) > 0 {
				t.Errorf("the bridge wrote %s where the link leads", ents[0].Name())
			}
		})
	}
	t.Run("a link outside the working directory", func(t *testing.T) {
		ws, home, real := t.TempDir(), t.TempDir(), t.TempDir()
		cache := filepath.Join(home, ".cache")
		if err := os.Symlink(real, cache); err != nil {
			t.Fatal(err)
		}
		t.Chdir(ws)
		log := filepath.Join(cache, "audit.jsonl")
		if _, stderr, code := runCmd(t, "", "--audit", log, "--", "sh", "-c", "cat >/dev/null"); code != 0 {
			t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(real, "audit.jsonl")); err != nil {
			t.Errorf("the audit log is not where the person's link leads: %v", err)
		}
	})
}
