package shellcmd

// markSourced notes, on every other command of a line that runs a file in
// the shell itself (source or .), that the command may run what that file
// defines: a function or an alias of its name, a PATH or a BASH_ENV it
// sets. A rule naming source vouches for the file's own commands (its
// RunsCode note), not for what its definitions make of the line's other
// commands: "source fn.sh; ls", fn.sh holding "ls() { rm x; }", runs rm x
// though the line shows only source and ls. The note is one no rule
// vouches for, so such a command is asked about unless a rule refuses it.
// Every other command is marked, wherever it stands: one before the source
// may run after it in a loop.
func markSourced(a *Analysis) {
	file := ""
	for _, c := range a.Commands {
		if f, ok := sourcedFile(c); ok {
			file = f
			break
		}
	}
	if file == "" {
		return
	}
	for _, c := range a.Commands {
		if _, ok := sourcedFile(c); ok {
			continue
		}
		c.Notes = append(c.Notes, Note{Kind: LoadsCode,
			Text: "it may run a function, an alias or a PATH that " + file + " defines (source runs that file in the shell itself)"})
	}
}

// sourcedFile returns what a command that runs a file in the shell itself
// names as that file, through any wrapper (builtin source, command .).
func sourcedFile(c *Command) (string, bool) {
	for _, f := range c.Forms {
		if f[0].Kind != Static || f[0].Text != "source" && f[0].Text != "." {
			continue
		}
		if len(f) > 1 {
			return f[1].String(), true
		}
		return "a file", true
	}
	return "", false
}
