package governance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeldLinesAgainstBash decides every line testdata/cases/
// held_line_parts.txt makes of a way to set V and a way to run $V, and
// runs each in bash with a logging rm first on PATH: a line that runs rm
// is never allowed under a policy refusing only Bash(rm:*), and is refused
// where both its parts show their values.
func TestHeldLinesAgainstBash(t *testing.T) {
	checkPartsAgainstBash(t, "held_line_parts.txt", "Bash(rm:*)", func(t *testing.T, root, bin string) func(string) bool {
		logPath := filepath.Join(bin, "rm.log")
		writeFile(t, filepath.Join(bin, "rm"), "#!/bin/sh\necho \"$*\" >> "+logPath+"\n")
		if err := os.Chmod(filepath.Join(bin, "rm"), 0o755); err != nil {
			t.Fatal(err)
		}
		return func(line string) bool {
			if err := os.Remove(logPath); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			runBash(t, line, root, bin)
			_, err := os.Stat(logPath)
			return err == nil
		}
	})
}

// TestHeldNamesAgainstBash decides every line testdata/cases/
// held_name_parts.txt makes of a way to put .env in F and a way to read
// the file $F names, and runs each in bash in a workspace whose .env holds
// a canary: a line that prints it is never allowed under a policy refusing
// only Read(**/.env), and is refused where both its parts show their
// values.
func TestHeldNamesAgainstBash(t *testing.T) {
	const canary = "CANARY-held-names"
	checkPartsAgainstBash(t, "held_name_parts.txt", "Read(**/.env)", func(t *testing.T, root, bin string) func(string) bool {
		writeFile(t, filepath.Join(root, ".env"), canary+"\n")
		writeFile(t, filepath.Join(root, "sub", "a.txt"), "")
		return func(line string) bool { return strings.Contains(runBash(t, line, root, bin), canary) }
	})
}

// checkPartsAgainstBash decides each line the parts file name makes (a
// "set" part, "; ", a "run" part) as a terminal command under a policy
// allowing anything but the rule deny, and runs it in bash in a workspace
// that setup prepares, whose function reports whether a line had the
// effect the rule refuses. A line with the effect must not be allowed, and
// must be refused where both its parts show their values.
func checkPartsAgainstBash(t *testing.T, name, deny string, setup func(t *testing.T, root, bin string) func(line string) bool) {
	var sets, runs []caseRow
	for _, c := range caseRows(t, name, 3, nil) {
		switch c.fields[0] {
		case "set":
			sets = append(sets, c)
		case "run":
			runs = append(runs, c)
		default:
			t.Fatalf("%s:%d: part %q, want set or run", name, c.line, c.fields[0])
		}
	}
	for _, set := range sets {
		t.Run(fmt.Sprintf("line%d", set.line), func(t *testing.T) {
			t.Parallel()
			tmp, root := tempWorkspace(t)
			p := writePolicy(t, filepath.Join(tmp, "GOVERNANCE.md"), "  default: allow\n  deny:\n    - "+deny+"\n")
			e := NewEngine(p, EngineOptions{Roots: []string{root}})
			bin := filepath.Join(tmp, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(root, "x"), "")
			effect := setup(t, root, bin)
			for _, run := range runs {
				line := set.fields[1] + "; " + run.fields[1]
				if !effect(line) {
					continue
				}
				d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
				shows := set.fields[2] == "true" && run.fields[2] == "true"
				switch {
				case d.Value == Allow:
					t.Errorf("%q has its effect in bash and is allowed: %s", line, d.Reason)
				case shows && d.Value != Deny:
					t.Errorf("%q has its effect in bash, its values shown, and gets %s: %s", line, d.Value, d.Reason)
				}
			}
		})
	}
}

// runBash runs line in bash in dir with bin first on PATH, and returns
// what it printed.
func runBash(t *testing.T, line, dir, bin string) string {
	t.Helper()
	writeFile(t, filepath.Join(dir, "x"), "")
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + filepath.Dir(bin), "PWD=" + dir}
	out, _ := cmd.CombinedOutput() // a line that fails still ran what it ran
	return string(out)
}
