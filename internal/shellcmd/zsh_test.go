package shellcmd

import "testing"

// TestZshRedirections: zsh (the shell an IDE may run a terminal with,
// macOS's default) reads some redirections other than bash does, and the
// bash grammar never sees the files it writes or reads there. Such a line
// has a problem (it needs approval); a redirection bash and zsh read alike
// has none.
func TestZshRedirections(t *testing.T) {
	checkProblems(t, "", []problemLine{
		// zsh reads >! and >>! as >| and >>|, writing to the word after
		// the !, where bash and sh write a file named "!" and pass that
		// word to the command: zsh -c 'echo pwned >! ../out/victim.txt'
		// overwrites ../out/victim.txt, which the bash grammar reads as an
		// argument of echo. A quoted "!" or a ! that is not where a
		// redirection's target starts is what bash reads.
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
		// zsh reads "<N-M>" (either number optional) as a glob matching
		// numbers in a file name, so zsh -c 'cat sec<->.txt' reads
		// sec12.txt, where bash reads the file "-" into cat and writes
		// .txt.
		{"cat sec<->.txt", true},
		{"cat sec<1-99>.txt", true},
		{"cat sec<1->.txt", true},
		{"cat sec<-9>.txt", true},
		{"cat <1-2>x", true},
		{"cat a <-> b", true},
		{"echo $(cat k<->.pem)", true},
		{"cat < 1-2 > out.txt", false},
		{"cat <1-2 >out.txt", false},
		{"cat <- >out.txt", false},
		{"cat <a-b>out.txt", false},
		{"cat <'1-2'>out.txt", false},
		{"cat <in.txt >out.txt", false},
		{"cat <<<1-2>out.txt", false},
	})
}
