package shellcmd

// Variables whose value a program runs as a shell command line: git runs
// EDITOR as sh -c "$EDITOR \"$@\"", so EDITOR='rm x' makes an approved
// "git config --edit" run rm. The line a rule allows, or the person
// approves, shows the variable but not that its value is a command.

// envCommandLines are variables a program hands to a shell as a command
// line, by name.
var envCommandLines = setOfNames("EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "PAGER", "GIT_PAGER",
	"MANPAGER", "SYSTEMD_PAGER", "LESSEDIT", "FCEDIT", "GREP", "DIFF", "CMP", "BROWSER", "TERMINAL", "TERMCMD")

// envCommandLineSuffixes are the endings of a variable name's last '_'
// part that say a program runs its value as a command (SUDO_EDITOR,
// KUBE_EDITOR, GH_PAGER, FZF_DEFAULT_COMMAND).
var envCommandLineSuffixes = []string{"EDITOR", "PAGER", "CMD", "COMMAND"}

// EnvValueIsCommandLine reports whether a program runs the value of the
// variable name as a shell command line, so that the commands the value
// holds are decided as the line's own.
func EnvValueIsCommandLine(name string) bool {
	return envCommandLines[name] || validName(name) && lastPartEnds(name, envCommandLineSuffixes)
}

// setOfNames is a set of the names given.
func setOfNames(names ...string) map[string]bool {
	s := make(map[string]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}
