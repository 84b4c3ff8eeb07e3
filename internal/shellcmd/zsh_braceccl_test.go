package shellcmd

import "testing"

// TestZshBraceClasses: braces holding no comma and no ".." are read as
// zsh's BRACE_CCL list, one character alone as itself, a range spelled
// out; braces that are empty, quoted, an expansion's, a descriptor's name
// before a redirection or hold a comma, "..", a blank or a quote are left
// as written.
func TestZshBraceClasses(t *testing.T) {
	tests := []zshReading{
		{`setopt braceccl; cat .e{n}v`, `setopt braceccl; cat .env`},
		{`cat .e{m-o}v`, `cat .e{m,n,o}v`},
		{`ls x{ba}`, `ls x{a,b}`},
		{`git show HEAD@{1}`, `git show HEAD@1`},
		{`echo {#}`, `echo \#`},
		{`ls {*}`, `ls *`},
		{`echo {} "{n}" '{n}' \{n} ${x} {a,b} {1..3} {a b}`, ``},
		{`exec {fd}>x`, ``},
	}
	checkZshSubscripted(t, tests)
}
