package shellcmd

import "testing"

// TestFdScriptsRead: a shell or source given /dev/stdin, /dev/fd/N or
// /proc/self/fd/N runs what the statement feeds that descriptor (bash 5.2
// runs rm x for each line that runs it), so a here-string or
// here-document there is read as the shell's code; another descriptor's
// text, or a pipe, is not the script.
func TestFdScriptsRead(t *testing.T) {
	for _, tt := range []struct {
		line   string
		runsRm bool
		noted  bool // runs code the analysis does not see
	}{
		{"bash /dev/stdin <<< 'rm x'", true, false},
		{"sh /dev/fd/0 <<< 'rm x'", true, false},
		{"bash /proc/self/fd/0 <<< 'rm x'", true, false},
		{"bash 3<<<'rm x' /dev/fd/3", true, false},
		{"bash /dev/fd/3 3<<<'rm x' <<< 'echo hi'", true, false},
		{"source /dev/stdin <<< 'rm x'", true, false},
		{". /dev/fd/3 3<<<'rm x'", true, false},
		{"bash /dev/stdin <<'E'\nrm x\nE", true, false},
		{"bash /dev/fd/3 <<< 'rm x'", false, true},
		{"echo 'rm x' | bash /dev/stdin", false, true},
		{"bash /dev/stdin < s.sh", false, true},
		{"bash ./s.sh", false, true},
	} {
		checkRunsRmNoted(t, tt.line, tt.runsRm, tt.noted)
	}
}
