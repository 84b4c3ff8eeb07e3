package shellcmd

import "testing"

// TestZshFlags: zsh's flags between "$" and an unbraced name are read as
// the braced parameter, unquoted where "=" splits it inside double quotes;
// "^", and "=" on a line with a case inside a command substitution, are
// left unread; a "$~" or "$=" before no name, single quotes and escapes
// are left as written.
func TestZshFlags(t *testing.T) {
	tests := []struct {
		src, want string
		unread    int
	}{
		{`x=.e; cat $~x"nv"`, `x=.e; cat ${x}"nv"`, 0},
		{`cat $=x`, `cat ${x}`, 0},
		{`cat "$=x"nv`, `cat ""${x}""nv`, 0},
		{`cat "$~x"`, `cat "${x}"`, 0},
		{`$~~x $==x`, `${x} ${x}`, 0},
		{`cat $=1 $~*`, `cat ${1} ${*}`, 0},
		{`cat $=a[2] $~x:r`, `cat ${a[2]} ${x%.*}`, 0},
		{`cat $^a`, ``, 1},
		{`echo "$(cat $=x)"`, `echo "$(cat ${x})"`, 0},
		{"echo \"`cat $=x` $=y\"", "echo \"`cat ${x}` \"${y}\"\"", 0},
		{`echo "$(echo '"')" "it's $=x"`, `echo "$(echo '"')" "it's "${x}""`, 0},
		{`echo "$(f() (ls); echo ")")" $=x`, `echo "$(f() (ls); echo ")")" ${x}`, 0},
		{`echo "$(case a in a) ls;; esac)" $=x`, ``, 1},
		{`echo '$=x' \$~x $~ a$=`, ``, 0},
	}
	for _, tt := range tests {
		got, unread, ok := zshSubscripted(tt.src)
		if !ok {
			got = ""
		}
		if got != tt.want || len(unread) != tt.unread {
			t.Errorf("zshSubscripted(%q) = %q, unread %q; want %q, %d unread", tt.src, got, unread, tt.want, tt.unread)
		}
	}
}

// TestZshFlagCommandWords: a command word zsh reads with flags is decided
// as the value the line gives the parameter.
func TestZshFlagCommandWords(t *testing.T) {
	for _, line := range []string{"x=rm; $~x x", "x=rm; $=x x", "x='rm x'; \"$=x\""} {
		found := false
		for _, f := range formsOf(Analyze(line, Options{})) {
			if f == "rm x" {
				found = true
			}
		}
		if !found {
			t.Errorf("Analyze(%q): forms %q; want rm x among them", line, formsOf(Analyze(line, Options{})))
		}
	}
}
