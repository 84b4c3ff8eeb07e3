package shellcmd

import "strings"

// bash reads "$((" as the start of an arithmetic expansion only when what
// follows parses as one; otherwise it reads a command substitution whose
// command is a subshell: echo $((rm x) ) and echo $((true) && rm x) run
// rm x. The grammar here reads "$((" as arithmetic only and reports the
// line as not parsing, which needs approval; the command inside was never
// decided, so a person's approval ran a command a rule denies.

// arithmeticOrSubshell walks a line that did not parse as bash with every
// "$((" read as "$( (", as bash reads one that is not arithmetic, so the
// commands bash may run there are decided too (dash reports a syntax
// error instead). The line itself still needs approval for not parsing.
func (w *walker) arithmeticOrSubshell(src string, depth int) {
	if !strings.Contains(src, "$((") {
		return
	}
	w.line(strings.ReplaceAll(src, "$((", "$( ("), depth+1, dialectsOf("bash"))
}
