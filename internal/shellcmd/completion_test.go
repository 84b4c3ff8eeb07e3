package shellcmd

import "testing"

// TestCompletionRunsItsWordList: compgen and complete expand the word
// list -W gives as shell words and run -C's command line, so the commands
// in them are commands of the line (bash 5.2 runs rm x for each of the
// compgen lines); a plain word list runs nothing, and a word after "--"
// is the word to complete, not an option.
// Its rows are in testdata/cases/completion_lines.txt.
func TestCompletionRunsItsWordList(t *testing.T) {
	checkRunsRmNotedCases(t, "completion_lines.txt")
	if a := Analyze(`compgen -W "$x" w`, Options{}); !hasNote(a, NotStatic) {
		t.Errorf(`Analyze("compgen -W \"$x\" w"): a word list known only at run time is not noted`)
	}
}
