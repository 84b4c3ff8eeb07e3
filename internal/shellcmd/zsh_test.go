package shellcmd

import "testing"

// TestZshRedirections: zsh (the shell an IDE may run a terminal with,
// macOS's default) reads some redirections other than bash does, and the
// bash grammar never sees the files it writes or reads there. Such a line
// has a problem (it needs approval); a redirection bash and zsh read alike
// has none.
// Its rows are in testdata/cases/zsh_redirection_lines.txt.
func TestZshRedirections(t *testing.T) {
	checkProblems(t, "", "zsh_redirection_lines.txt")
}
