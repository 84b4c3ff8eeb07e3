package shellcmd

// ShellOptions reads form as a modelled shell (sh, bash, dash, ...) reads
// its words: the words form[1:operands] are its options and their values
// (set -o names, a start-up file it reads), and with -c the word at
// operands is the command string it runs as code, which the analysis
// reads as commands of their own. ok is false when form is not a modelled
// shell's or its options cannot be read (a word computed at run time, an
// unknown option): then nothing is known of its words.
//
//	bash -lc 'go test ./...' x   operands 2, code true
//	sh -e script.sh             operands 2, code false
func ShellOptions(form []Word) (operands int, code, ok bool) {
	if len(form) == 0 || form[0].Kind != Static || !modelledShells[form[0].Name()] {
		return 0, false, false
	}
	p := parseOptions(form, 1, bashGrammar)
	if p.problem != "" {
		return 0, false, false
	}
	return p.next, p.has("c") && p.next < len(form), true
}
