package shellcmd

import "testing"

// TestFdScriptsRead: a shell or source given /dev/stdin, /dev/fd/N or
// /proc/self/fd/N runs what the statement feeds that descriptor (bash 5.2
// runs rm x for each line that runs it), so a here-string or
// here-document there is read as the shell's code; another descriptor's
// text, or a pipe, is not the script.
// Its rows are in testdata/cases/fd_scripts_lines.txt.
func TestFdScriptsRead(t *testing.T) {
	checkRunsRmNotedCases(t, "fd_scripts_lines.txt")
}
