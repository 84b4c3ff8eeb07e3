package shellcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHeldCommandWordsRead: a command word made of literals and
// expansions whose values the line shows in full (ParamValues) is read as
// each value it may have, with the words after it. Its rows are in
// testdata/cases/held_command_lines.txt, and bash judges the reading: a
// line that runs rm x in bash must be read as running it, or hold a command
// word computed at run time (asked about). A line may be read as running rm x
// where bash runs it only on another path ("R=rm; R=echo; $R x").
func TestHeldCommandWordsRead(t *testing.T) {
	for _, r := range caseRows(t, "held_command_lines.txt", 2) {
		line, want := r.Fields[0], caseBool(t, r, 1)
		a := Analyze(line, Options{})
		if got := readsRmX(a); got != want {
			t.Errorf("line %d: %q: runs rm x %v, want %v (forms %q)", r.Line, line, got, want, formsOf(a))
		}
		if bashRunsRmX(t, line) && !want && !hasComputedWord(a) && !hasNotes(a) {
			t.Errorf("line %d: %q runs rm x in bash, read neither as rm x nor with a word computed at run time or a note (forms %q)", r.Line, line, formsOf(a))
		}
	}
}

// readsRmX reports whether a command of a runs rm x, itself or through the
// commands it wraps (command rm x => rm x).
func readsRmX(a *Analysis) bool {
	return slices.ContainsFunc(formsOf(a), func(f string) bool { return f == "rm x" || strings.HasSuffix(f, " => rm x") })
}

// bashRunsRmX reports whether bash, run on line in an empty directory
// holding x with an rm first on PATH that logs its arguments, runs rm x.
func bashRunsRmX(t *testing.T, line string) bool {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	logPath := filepath.Join(dir, "rm.log")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\nprintf 'rm %s\\n' \"$*\" >> " + logPath + "\n"
	if err := os.WriteFile(filepath.Join(bin, "rm"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	_ = cmd.Run() // a line that fails still ran what it ran
	out, err := os.ReadFile(logPath)
	if os.IsNotExist(err) {
		return false
	} else if err != nil {
		t.Fatal(err)
	}
	return slices.Contains(strings.Split(string(out), "\n"), "rm x")
}

// hasComputedWord reports whether a command of a has a word whose value
// is known only when the line runs (asked about).
func hasComputedWord(a *Analysis) bool {
	return slices.ContainsFunc(a.Commands, func(c *Command) bool {
		return slices.ContainsFunc(c.Forms, func(f []Word) bool {
			return slices.ContainsFunc(f, func(w Word) bool { return w.Kind == Dynamic })
		})
	})
}

// hasNotes reports whether a command of a carries a note.
func hasNotes(a *Analysis) bool {
	return slices.ContainsFunc(a.Commands, func(c *Command) bool { return len(c.Notes) > 0 })
}
