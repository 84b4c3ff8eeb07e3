package shellcmd

import "strings"

// zsh's print -P expands each of its arguments as a prompt, and where
// PROMPT_SUBST is set (setopt promptsubst on the line, or in the ~/.zshrc
// the person's zsh -i reads: oh-my-zsh's themes set it) that expansion
// runs the parameter expansions, command substitutions and arithmetic the
// text holds, wherever they stand in it: print -P '%(?.$(rm x).)' runs
// rm x. Such text is no command line as a whole (the "%(" of a prompt's
// conditional does not parse), so the reading of an unknown program's
// words (unknown_words.go) found no command in it.
//
// zshPromptArgs reads each static argument of a print given -P as the body
// of an unquoted here-document, which the shells expand as zsh expands the
// prompt: its commands are commands of the line. An argument known only
// when the line runs (a variable, a command's output, a glob, whose names
// are the agent's to choose) needs approval, as what it expands to is code.

// printArgOptions are the options of zsh's print that take a value, in the
// same word or the next: -u FD, -C COLS, -v NAME, -x and -X TABSTOP, -f
// FORMAT.
const printArgOptions = "uCvxXf"

// zshPromptArgs reads the arguments of print -P (see above).
func (w *walker) zshPromptArgs(c *Command, form []Word, depth int) {
	if form[0].Name() != "print" || !printPrompts(form[1:]) {
		return
	}
	for _, wd := range form[1:] {
		switch {
		case wd.Kind != Static:
			w.problem("zsh's print -P expands %s as a prompt, which runs the command substitutions its value holds where PROMPT_SUBST is set, and that value is known only when the line runs", wd.String())
		case strings.ContainsAny(wd.Text, "$`"):
			w.cur = c.Dir
			w.line(": "+hereDocument(wd.Text), depth+1, dialectsOf("bash"))
		}
	}
}

// printPrompts reports whether print's option words, args (the words
// after print), include -P: any option cluster holding P, before the
// first operand, "-" or "--". An option word known only when the line runs
// may be -P.
func printPrompts(args []Word) bool {
	for i := 0; i < len(args); i++ {
		wd := args[i]
		if wd.Kind != Static {
			return true
		}
		t := wd.Text
		if t == "-" || t == "--" || len(t) < 2 || t[0] != '-' {
			return false
		}
		for j := 1; j < len(t); j++ {
			if t[j] == 'P' {
				return true
			}
			if strings.IndexByte(printArgOptions, t[j]) >= 0 {
				if j == len(t)-1 {
					i++ // its value is the next word
				}
				break
			}
		}
	}
	return false
}
