package shellcmd

// shellState records what a command the shell runs itself changes in how
// it reads the commands after it: an alias it defines (aliasDefs), bash's
// keyword option (keywordOption) and zsh's EXTENDED_GLOB
// (zshExtendedGlobOption). It is given each form of the command as its
// wrappers are taken off (walker.build), since a builtin run through a
// precommand modifier changes the shell all the same: after "builtin alias
// e='echo ok;'", "command set -k" or "noglob setopt extendedglob" the shell
// reads the later words as after the plain builtin.
func (w *walker) shellState(form []Word) {
	w.aliasDefs(form)
	if keywordOption(form) {
		w.keyword = true
	}
	if zshExtendedGlobOption(form) {
		w.extendedGlob = true
	}
}
