package shellcmd

import "testing"

// TestShellStringParamsRead: a shell's -c string is read with its
// positional parameters as the words the line gives after it (bash 5.2
// runs rm x for each line that says so). Its rows are in
// testdata/cases/positional_param_lines.txt.
func TestShellStringParamsRead(t *testing.T) {
	for _, r := range caseRows(t, "positional_param_lines.txt", 2) {
		checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
	}
}

// TestWithParams: the text a -c string is read as with the words after it
// in place of its positional parameters.
func TestWithParams(t *testing.T) {
	words := func(ss ...string) []Word {
		var ws []Word
		for _, s := range ss {
			ws = append(ws, Word{Kind: Static, Text: s})
		}
		return ws
	}
	for _, tc := range []struct {
		text   string
		params []Word
		want   string
		ok     bool
	}{
		{`"$@"`, words("_", "rm", "x"), `'rm' 'x'`, true},
		{`$1 $2`, words("_", "rm", "x y"), `'rm' 'x' 'y'`, true},
		{`echo "a$1b"`, words("_", `$(x)"`), `echo "a\$(x)\"b"`, true},
		{`$0 x`, words("rm"), `'rm' x`, true},
		{`echo ${1@P}`, words("_", `\044`), `ACP_BRIDGE_PARAM_1='\044'; echo ${ACP_BRIDGE_PARAM_1@P}`, true},
		{`echo $((a[$1]))`, words("_", "1"), `ACP_BRIDGE_PARAM_1='1'; echo $((a[$ACP_BRIDGE_PARAM_1]))`, true},
		{`echo "$@"`, nil, "", false},
		{`echo ok`, words("_", "x"), "", false},
		{`"$@"`, []Word{{Kind: Static, Text: "_"}, {Kind: Dynamic, Text: "$x"}}, "", false},
	} {
		got, ok := withParams(tc.text, tc.params)
		if got != tc.want || ok != tc.ok {
			t.Errorf("withParams(%q) = %q, %v; want %q, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}
