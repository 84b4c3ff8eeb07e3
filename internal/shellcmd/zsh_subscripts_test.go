package shellcmd

import "testing"

// TestZshSubscripted: an unbraced parameter followed by a subscript is
// braced as zsh reads it, in double quotes too, and not in single quotes,
// after a backslash, in a $'...' string, for $$ or $#, or where the
// subscript does not close on its line; =NAME first in a word and
// $commands[NAME] are NAME, $argv[N] is ${N}; ${=x} and ${~x} are ${x},
// $11 is ${11}, and a $'...' string zsh decodes otherwise is in the form
// bash reads alike.
func TestZshSubscripted(t *testing.T) {
	tests := []zshReading{
		{`$a[2] x`, `${a[2]} x`},
		{`a=(ls rm); "$a[-1]" x`, `a=(ls rm); "${a[-1]}" x`},
		{`$a[2,3]`, `${a[2,3]}`},
		{`echo $a[$b[1]]`, `echo ${a[$b[1]]}`},
		{`echo $x_1[1]$y[2]`, `echo ${x_1[1]}${y[2]}`},
		{`echo '$a[2]' $b[1]`, `echo '$a[2]' ${b[1]}`},
		{`echo $'\'$a[2]' $b[1]`, `echo $'\'$a[2]' ${b[1]}`},
		{`echo \$a[2]`, ""},
		{`echo $$[1] $#a[1] $1[2]`, ""},
		{"echo $a[2\n]", ""},
		{`echo ${a[2]} $a`, ""},
		{`=rm x`, `rm x`},
		{`echo ok; =rm x`, `echo ok; rm x`},
		{`$commands[rm] x`, `rm x`},
		{`"${commands[git-rm]}" x`, `"git-rm" x`},
		{`[ a = b ]; x=rm; ls =`, ""},
		{`set -- ls rm; $argv[2] x`, `set -- ls rm; ${2} x`},
		{`f() { "${argv[1]}" x; }`, `f() { "${1}" x; }`},
		{`echo $argv[0] $argv[-1]`, `echo ${argv[0]} ${argv[-1]}`},
		{`a=(ls rm); echo "'"; $a[2] x`, `a=(ls rm); echo "'"; ${a[2]} x`},
		{`echo "it's $a[2]"`, `echo "it's ${a[2]}"`},
		{`echo "$(echo '"')"; $a[2] x`, `echo "$(echo '"')"; ${a[2]} x`},
		{`${=V} x ${~V[1]} ${=}`, `${V} x ${V[1]} ${=}`},
		{`cat "${=V}" ${^V} ${=${V}}`, `cat ""${V}"" ${^V} ${=${V}}`},
		{`set -- a b c d e f g h i j rm; $11 x "$10"`, `set -- a b c d e f g h i j rm; ${11} x "${10}"`},
		{`r$'\m' $'\.env' $'ok\n'`, `r$'\x6d' $'\x2e\x65\x6e\x76' $'ok\n'`},
	}
	checkZshSubscripted(t, tests)
}

// TestZshSubscriptCommandWords: a command word zsh reads as an element of
// an array the line gives is decided as that element.
func TestZshSubscriptCommandWords(t *testing.T) {
	for _, line := range []string{"a=(ls rm); $a[2] x", "a=(echo rm); echo ok; \"$a[-1]\" x", "a=(ls rm x); $a[2,3]", "V=rm; $=V x", "V='rm x'; ${=V}"} {
		found := false
		for _, f := range formsOf(Analyze(line, Options{})) {
			if f == "rm x" || f == "rm" {
				found = true
			}
		}
		if !found {
			t.Errorf("Analyze(%q): forms %q; want rm among them", line, formsOf(Analyze(line, Options{})))
		}
	}
}

// TestZshPositionalDigits: $11 is read as zsh reads it, the eleventh
// positional parameter, not only as bash's ${1}1.
func TestZshPositionalDigits(t *testing.T) {
	forms := formsOf(Analyze("set -- a b c d e f g h i j rm; $11 x", Options{}))
	for _, f := range forms {
		if f == "rm x" || f == "<parameter expansion $11> x" {
			return
		}
	}
	t.Errorf("forms %q; want the eleventh parameter among them", forms)
}

// zshReading is a line and the text zshSubscripted reads it as (empty
// where it reads nothing of zsh's in it).
type zshReading struct{ src, want string }

// checkZshSubscripted checks zshSubscripted's reading of each line.
func checkZshSubscripted(t *testing.T, tests []zshReading) {
	t.Helper()
	for _, tt := range tests {
		got, _, ok := zshSubscripted(tt.src)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("zshSubscripted(%q) = %q; want %q", tt.src, got, tt.want)
		}
	}
}
