package shellcmd

import "testing"

// TestZshNumericRange: zsh reads "<N-M>" (either number optional) as a glob
// matching numbers in a file name, so zsh -c 'cat sec<->.txt' reads
// sec12.txt, which the bash grammar never sees (bash reads the file "-"
// into cat and writes .txt). Such a line has a problem (it needs
// approval); a redirection bash and zsh read alike has none.
func TestZshNumericRange(t *testing.T) {
	checkProblems(t, "", []problemLine{
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
