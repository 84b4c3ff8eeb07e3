package governance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHeldLinesAgainstBash decides every line testdata/cases/
// held_line_parts.txt makes of a way to set V and a way to run $V, and
// runs each in bash with a logging rm first on PATH: a line that runs rm
// is never allowed under a policy refusing only Bash(rm:*), and is refused
// where both its parts show their values.
func TestHeldLinesAgainstBash(t *testing.T) {
	var sets, runs []caseRow
	for _, c := range caseRows(t, "held_line_parts.txt", 3, nil) {
		switch c.fields[0] {
		case "set":
			sets = append(sets, c)
		case "run":
			runs = append(runs, c)
		default:
			t.Fatalf("held_line_parts.txt:%d: part %q, want set or run", c.line, c.fields[0])
		}
	}
	for _, set := range sets {
		t.Run(fmt.Sprintf("line%d", set.line), func(t *testing.T) {
			t.Parallel()
			tmp, root := tempWorkspace(t)
			p := writePolicy(t, filepath.Join(tmp, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - Bash(rm:*)\n")
			e := NewEngine(p, EngineOptions{Roots: []string{root}})
			bin, logPath := filepath.Join(tmp, "bin"), filepath.Join(tmp, "rm.log")
			writeFile(t, filepath.Join(bin, "rm"), "#!/bin/sh\necho \"$*\" >> "+logPath+"\n")
			if err := os.Chmod(filepath.Join(bin, "rm"), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, run := range runs {
				line := set.fields[1] + "; " + run.fields[1]
				if !bashRunsRm(t, line, root, bin, logPath) {
					continue
				}
				d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
				shows := set.fields[2] == "true" && run.fields[2] == "true"
				switch {
				case d.Value == Allow:
					t.Errorf("%q runs rm in bash and is allowed: %s", line, d.Reason)
				case shows && d.Value != Deny:
					t.Errorf("%q runs rm in bash, its values shown, and gets %s: %s", line, d.Value, d.Reason)
				}
			}
		})
	}
}

// bashRunsRm runs line in bash in dir (holding a file x) with bin first on
// PATH, and reports whether the rm there logged a run to logPath.
func bashRunsRm(t *testing.T, line, dir, bin, logPath string) bool {
	t.Helper()
	if err := os.Remove(logPath); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "x"), "")
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + filepath.Dir(bin)}
	_ = cmd.Run() // a line that fails still ran what it ran
	_, err := os.Stat(logPath)
	return err == nil
}
