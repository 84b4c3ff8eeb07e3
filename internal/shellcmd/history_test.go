package shellcmd

import (
	"strings"
	"testing"
)

// TestHistoryExpansion: an interactive bash (the shell an IDE types a line
// into) replaces "!" events with words of earlier lines, or of the line
// itself, before it parses the line: "echo rm -f OUT/v; !#:1-3" runs
// "rm -f OUT/v", and "^echo^rm" the previous line with echo made rm. Such
// a line is a problem (asked); a "!" bash does not expand (single-quoted,
// escaped, before a blank, "=", or a closing quote, "$!", "${!x}",
// "[!a]") is not.
// Its rows are in testdata/cases/history_lines.txt.
func TestHistoryExpansion(t *testing.T) {
	checkProblems(t, "history", "history_lines.txt")
}

// FuzzHistoryExpansion: scanning any line for history expansion neither
// panics nor hangs, and a line without "!" or a leading "^" has none.
func FuzzHistoryExpansion(f *testing.F) {
	for _, s := range []string{"!!", "echo 'a!b' \"c!d\" \\!e $! ${!x} [!a]", "^a^b", "$'\\'!x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		_, found := historyExpansion(line)
		if found && !strings.Contains(line, "!") && !strings.HasPrefix(line, "^") && !strings.Contains(line, "\n^") {
			t.Fatalf("%q: history expansion found with no ! and no leading ^", line)
		}
	})
}
