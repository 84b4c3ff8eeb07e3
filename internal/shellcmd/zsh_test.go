package shellcmd

import "testing"

// TestZshClobberRedirect: zsh (the shell an IDE may run a terminal with,
// macOS's default) reads >! and >>! as >| and >>|, writing to the word
// after the !, where bash and sh write a file named "!" and pass that word
// to the command: zsh -c 'echo pwned >! ../out/victim.txt' overwrites
// ../out/victim.txt, which the bash grammar reads as an argument of echo.
// Such a line has a problem (it needs approval); a quoted "!" or a ! that
// is not where a redirection's target starts has none.
func TestZshClobberRedirect(t *testing.T) {
	checkProblems(t, "", []problemLine{
		{"echo pwned >! ../out/victim.txt", true},
		{"echo pwned >>! ../out/victim.txt", true},
		{"echo pwned &>! ../out/victim.txt", true},
		{"echo pwned &>>! ../out/victim.txt", true},
		{"echo pwned >&! ../out/victim.txt", true},
		{"echo pwned 2>! ../out/victim.txt", true},
		{"echo pwned >!../out/victim.txt", true},
		{"echo pwned >>!../out/victim.txt", true},
		{"(echo pwned >! ../out/victim.txt)", true},
		{"echo $(echo pwned >! ../out/victim.txt)", true},
		{"echo pwned > '!' ../out/victim.txt", false},
		{"echo pwned > \\! x", false},
		{"echo 'hi!' > out.txt", false},
		{"echo pwned > x!", false},
		{"! echo ok > out.txt", false},
		{"echo x >| out.txt", false},
	})
}
