package acpwiretest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// ProcessesWithEnv lists the live processes, other than the test's own,
// whose environment holds the whole entry "NAME=VALUE": those a program
// under test started, and what they started in turn, when the test gives
// the program a marker entry they all inherit. A test checks the list is
// empty once the program has ended, to find processes it left behind. It
// reads /proc, so it finds none elsewhere.
func ProcessesWithEnv(entry string) []int {
	want := []byte(entry)
	envs, _ := filepath.Glob("/proc/[0-9]*/environ")
	var pids []int
	for _, f := range envs {
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, want) {
			continue
		}
		for e := range bytes.SplitSeq(b, []byte{0}) {
			if !bytes.Equal(e, want) {
				continue
			}
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(f))); err == nil && pid != os.Getpid() {
				pids = append(pids, pid)
			}
			break
		}
	}
	return pids
}
