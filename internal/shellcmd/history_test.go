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
func TestHistoryExpansion(t *testing.T) {
	checkProblems(t, "history", []problemLine{
		{"!!", true},
		{"!-1", true},
		{"!echo:1-3", true},
		{"echo rm -f /x; !#:1-3", true},
		{`echo "!#:0"`, true},
		{"echo hi !$", true},
		{"^echo^rm", true},
		{"ls # done!x", true},
		{"echo 'a\n!x'", true}, // a line of its own to an interactive shell
		{"echo $'!x'", true},
		{"echo $'a\\'' !x", true},
		{"echo $'a' !x", true},
		{"echo hi", false},
		{"echo hi!", false},
		{`git commit -m "fix!"`, false},
		{"echo 'wow!x'", false},
		{`echo \!x`, false},
		{"[ ! -e f ] && test a != b", false},
		{"if ! grep -q x f; then echo y; fi", false},
		{"kill $!", false},
		{"echo ${!prefix*}", false},
		{"ls [!a]*", false},
		{"awk '!seen[$0]++' f", false},
		{"sed -n '/x/!p' f", false},
	})
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
