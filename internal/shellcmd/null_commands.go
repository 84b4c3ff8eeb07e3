package shellcmd

import "mvdan.cc/sh/v3/syntax"

// zshNullCommands are the variables naming the command zsh runs for a
// statement of redirections alone: READNULLCMD for a single input
// redirection ("< s" runs $READNULLCMD < s), NULLCMD for any other.
var zshNullCommands = []string{"READNULLCMD", "NULLCMD"}

// nullCommand walks, for a statement of redirections alone whose null
// command the line set before, the statement as zsh runs it: the command
// those variables name, given the statement's redirections. After
// READNULLCMD=sh, "< s" is "sh < s", which runs the script s, where bash
// and sh only open s. Where the line does not set them zsh runs its own
// defaults, a pager or cat, which read what the redirections name as the
// statement is decided to.
func (w *walker) nullCommand(st *syntax.Stmt, src string, depth int) {
	if st.Cmd != nil || len(st.Redirs) == 0 {
		return
	}
	for _, name := range zshNullCommands {
		if _, ok := w.held[name]; ok {
			w.line("$"+name+" "+sourceOf(st, src), depth+1, currentShell)
		}
	}
}
