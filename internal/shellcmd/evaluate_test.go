package shellcmd

import (
	"strings"
	"testing"
)

// TestAnalyzeEvaluations: a value bash evaluates as code (arithmetic, a
// subscript, ${!X}, ${X@P}) that the line does not give in full is a
// problem; one it does give is not.
func TestAnalyzeEvaluations(t *testing.T) {
	tests := []struct {
		name, line string
		problem    bool
	}{
		{"arith of a substituted value", `X=$(cat f); echo $((X))`, true},
		{"arith of a substitution", `echo $(( $(cat f) ))`, true},
		{"old arith", `X=$(cat f); echo $[X]`, true},
		{"arith command", `X=$(cat f); ((X))`, true},
		{"let", `X=$(cat f); let y=X`, true},
		{"c-style for", `X=$(cat f); for ((i=X;i<1;i++)); do :; done`, true},
		{"test -eq", `X=$(cat f); [[ X -eq 1 ]]`, true},
		{"subscript", `X=$(cat f); echo ${a[X]}`, true},
		{"expanded subscript", `X=$(cat f); echo ${a[$X]}`, true},
		{"assigned subscript", `X=$(cat f); a[X]=1`, true},
		{"substring offset", `X=$(cat f); echo ${s:X}`, true},
		{"substring length", `X=$(cat f); echo ${s:1:X}`, true},
		{"indirection", `X=$(cat f); echo ${!X}`, true},
		{"prompt expansion", `X=$(cat f); echo ${X@P}`, true},
		{"through a static name", `X=$(cat f); y=X; echo $((y))`, true},
		{"loop over output", `for X in $(cat f); do echo $((X)); done`, true},
		{"positional", `set -- $(cat f); echo $(($1))`, true},
		{"function argument", `f() { echo $(($1)); }; f "$(cat f)"`, true},
		{"default assignment", `X=; : ${X:=$(cat f)}; echo $((X))`, true},
		{"read", `read X; echo $((X))`, true},
		{"read into REPLY", `REPLY=1; read; echo $((REPLY))`, true},
		{"mapfile", `MAPFILE=1; mapfile < f; echo $((MAPFILE))`, true},
		{"getopts", `OPTARG=1; getopts a: o; echo $((OPTARG))`, true},
		{"regex match", `BASH_REMATCH=1; [[ $(cat f) =~ (.*) ]]; echo $((BASH_REMATCH))`, true},
		{"select", `REPLY=1; select x in a; do echo $((REPLY)); done`, true},
		{"integer attribute", `X=$(cat f); declare -i y; y=X`, true},
		{"integer attribute dynamic", `declare -i y; y=$(cat f)`, true},
		{"name reference", `X=1; declare -n r=X; r=$(cat f); echo $((X))`, true},
		{"dynamic name", `X=1; printf -v "$N" %s "$(cat f)"; echo $((X))`, true},
		{"from the environment", `echo $((COLUMNS / 2))`, true},
		{"name set to a word", `X=foo; echo $((X))`, true},
		{"in a nested shell", `bash -c 'X=$(cat f); echo $((X))'`, true},
		{"in a default", `X=$(cat f); echo "${x:-$((X))}"`, true},
		{"compound array index", `X=$(cat f); a=([X]=1)`, true},
		{"compound array append", `X=$(cat f); a+=([X]=1)`, true},
		{"test -v element", `X=$(cat f); [[ -v a[X] ]]`, true},
		{"test builtin -v element", `X=$(cat f); test -v 'a[X]'`, true},
		{"bracket -v element", `X=$(cat f); [ -v 'a[X]' ]`, true},
		{"printf -v element", `X=$(cat f); printf -v 'a[X]' 1`, true},
		{"read element", `X=$(cat f); read 'a[X]' <<< 1`, true},
		{"declare element", `X=$(cat f); declare 'a[X]=1'`, true},
		{"RANDOM is an integer", `RANDOM=$(cat f); echo ok`, true},
		{"SRANDOM is an integer", `SRANDOM=$(echo -e 'a[$\x28rm x)]'); echo ok`, true},
		{"OPTIND is an integer", `X=$(cat f); OPTIND=X; echo ok`, true},
		{"HISTCMD is an integer", `HISTCMD=$(cat f)`, true},
		{"integer specials set to numbers", `RANDOM=42; OPTIND=1; SECONDS=0; echo ok`, false},
		{"numbers", `echo $((1 + 2)) $[3]`, false},
		{"static element", `a=([0]=1 [1]=2); test -v 'a[1]'; printf -v 'a[2]' x`, false},
		{"static loop", `for i in 1 2 3; do echo $((i * 2)); done`, false},
		{"brace loop", `for i in {1..3}; do echo $((i * 2)); done`, false},
		{"c-style loop", `for ((i = 0; i < 3; i++)); do echo $((i)); done`, false},
		{"static number", `n=0x1f; echo $((n * 2)) ${a[n]} ${s:n:1}`, false},
		{"specials", `echo $((RANDOM % 6)) $(($# + $?))`, false},
		{"indirection to a name", `X=HOME; echo ${!X}`, false},
		{"prompt without expansions", `X='\u@\h'; echo ${X@P}`, false},
		{"lengths and lists", `echo ${#PATH} ${arr[@]} ${!arr[@]} ${arr[*]}`, false},
		{"plain expansion", `X=$(cat f); echo $X "${X}"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Analyze(tt.line, Options{})
			var got []string
			for _, p := range a.Problems {
				if strings.Contains(p, "evaluates") {
					got = append(got, p)
				}
			}
			if (len(got) > 0) != tt.problem {
				t.Errorf("Analyze(%q) evaluation problems %q; want a problem: %v", tt.line, got, tt.problem)
			}
		})
	}
}

// TestStaticValueSubstitutions: a static value bash evaluates again is read
// as code when it holds any form of command substitution, bash 5.3's
// ${ cmd;} and ${|cmd;} included.
// Its lines are in testdata/cases/static_value_lines.txt.
func TestStaticValueSubstitutions(t *testing.T) {
	for _, r := range caseRows(t, "static_value_lines.txt", 1) {
		line := r.Fields[0]
		if got := formsOf(Analyze(line, Options{})); !strings.Contains(strings.Join(got, "\n"), "rm x") {
			t.Errorf("Analyze(%q) forms %q; want rm x", line, got)
		}
	}
	for _, value := range []string{"a[${ rm x;}]", "a[${|rm x;}]", "a[$(rm x)]"} {
		if a := AssignmentCode(value, Options{}); a == nil || !strings.Contains(strings.Join(formsOf(a), "\n"), "rm x") {
			t.Errorf("AssignmentCode(%q) does not read rm x", value)
		}
	}
}
