package shellcmd

import "testing"

// TestScriptCommandsDecided: a command a sed or awk script gives as text
// is a command of the line (GNU sed 4.9 and mawk 1.3.4 run rm x for each
// line that runs it), so a rule refusing rm refuses it whatever rule
// allows sed or awk; one known only when the line runs (sed's e alone or
// s///e, awk's system() or pipe of a variable) is noted as not static, and
// a script that runs none, or whose | is a regex's or an or, adds none.
func TestScriptCommandsDecided(t *testing.T) {
	for _, tt := range []struct {
		line      string
		runsRm    bool
		notStatic bool
	}{
		{"sed 'e rm x' a.txt", true, false},
		{"sed '1e rm x' a.txt", true, false},
		{"sed -n '/a/e rm x' a.txt", true, false},
		{"sed '\\,a,e rm x' a.txt", true, false},
		{"sed -e p -e '$e rm x' a.txt", true, false},
		{"sed --expression='1e rm x' a.txt", true, false},
		{"sed '1{e rm x\n}' a.txt", true, false},
		{"sed '1e echo hi; rm x' a.txt", true, false},
		{"sed 's/.*/rm x/e' a.txt", true, true},
		{"sed e a.txt", false, true},
		{"sed 's/a/b/;e' a.txt", false, true},
		{"sed 'a hello; e rm x' a.txt", false, false},
		{"sed 's/e/E/g' a.txt", false, false},
		{"sed 'y/e/E/' a.txt", false, false},
		{"sed '/e/d' a.txt", false, false},

		{`awk 'BEGIN { system("rm x") }'`, true, false},
		{`awk 'BEGIN { system("\162m x") }'`, true, false},
		{`awk 'BEGIN { system("\x72m x") }'`, true, false},
		{`awk 'BEGIN { print "" | "rm x" }'`, true, false},
		{`awk 'BEGIN { print "" |& "rm x" }'`, true, false},
		{`awk 'BEGIN { "rm x" | getline v }'`, true, false},
		{`awk 'BEGIN { c = "rm x"; system(c) }'`, false, true},
		{`awk 'BEGIN { system("rm " "x") }'`, false, true},
		{`awk 'BEGIN { c = "rm x"; print 1 | c }'`, false, true},
		{`awk 'BEGIN { c = "rm x"; c | getline }'`, false, true},
		{`awk -F: '/a|b/ { print }' a.txt`, false, false},
		{`awk '$1 == "a" || $2 == "b"' a.txt`, false, false},
		{`awk '$0 ~ "a|b"' a.txt`, false, false},
		{`awk '{ n = $1 / 2 / 3; print n }' a.txt`, false, false},
		{`awk '{ gsub(/a|b/, "c"); print }' a.txt`, false, false},
		{`awk '$1 ~ /^a\/b|c/' a.txt`, false, false},
		{"awk '# a | b\n{ print }' a.txt", false, false},
	} {
		a := checkRunsRm(t, tt.line, tt.runsRm)
		if noted := hasNote(a, NotStatic); noted != tt.notStatic {
			t.Errorf("Analyze(%q): a command known only at run time %v, want %v", tt.line, noted, tt.notStatic)
		}
	}
}

// TestAwkUnescape: awk's string escapes, as mawk and gawk read them.
func TestAwkUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`rm x`:        "rm x",
		`\162m x`:     "rm x",
		`\x72m x`:     "rm x",
		`a\"b\\c\/d`:  `a"b\c/d`,
		`\n\t`:        "\n\t",
		`\0612`:       "12",
		`\x7`:         "\x07",
		`\q`:          "q",
		`trailing\`:   `trailing\`,
		`\xg`:         "xg",
		`\1234`:       "S4",
		`\x41\x4a\x4`: "AJ\x04",
	} {
		if got := awkUnescape(in); got != want {
			t.Errorf("awkUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}
