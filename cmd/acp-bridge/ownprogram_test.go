package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOwnFilesHoldTheProgram: the bridge protects its own program (where
// links lead) whatever the agent, with or without --record and --log-file,
// so that "go install" of a package of the agent's named like it is refused
// under any adapter, not only where the Claude Code hook runs it.
func TestOwnFilesHoldTheProgram(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
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
