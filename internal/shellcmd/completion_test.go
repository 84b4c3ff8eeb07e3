package shellcmd

import "testing"

// TestCompletionRunsItsWordList: compgen and complete expand the word
// list -W gives as shell words and run -C's command line, so the commands
// in them are commands of the line (bash 5.2 runs rm x for each of the
// compgen lines); a plain word list runs nothing, and a word after "--"
// is the word to complete, not an option.
func TestCompletionRunsItsWordList(t *testing.T) {
	for _, tt := range []struct {
		line    string
		runsRm  bool
		runsArg bool // noted as running code
	}{
		{"compgen -W '$(rm x)' w", true, false},
		{"compgen -W'$(rm x)' w", true, false},
		{"compgen -aW '`rm x`' w", true, false},
		{"compgen -o default -W '${a[$(rm x)]}' w", true, false},
		{"complete -W '$(rm x)' cmd", true, false},
		{"compgen -C 'rm x' w", true, true},
		{"complete -C'rm x' cmd", true, true},
		{"compgen -F f w", false, true},
		{"compgen -W 'start stop' -- st", false, false},
		{"compgen -- -W '$(rm x)'", false, false},
	} {
		checkRunsRmNoted(t, tt.line, tt.runsRm, tt.runsArg)
	}
	if a := Analyze(`compgen -W "$x" w`, Options{}); !hasNote(a, NotStatic) {
		t.Errorf(`Analyze("compgen -W \"$x\" w"): a word list known only at run time is not noted`)
	}
}
