package shellcmd

import "strings"

// Bash keeps what a command name runs in two variables: an element of
// BASH_CMDS is the file a name runs, as hash -p makes it
// (BASH_CMDS[cat]=/bin/rm; cat x runs rm x), and an element of
// BASH_ALIASES is the alias text a name expands to, as alias makes it
// (BASH_ALIASES[cat]='rm x' runs rm x wherever aliases expand: an
// interactive bash, as Zed's bash -i, or after shopt -s expand_aliases).
// alias and hash -p are decided by what they make a name run; an
// assignment to either table is decided the same way, in every spelling
// the walker records as an assignment (NAME[k]=v, NAME+=..., NAME=(...),
// declare -A NAME=(...)): the file as a command of its own, the alias text
// as a line of bash. A value the line does not show is a command word
// computed at run time. zsh keeps the same tables in its special
// associative arrays: an element of commands is the file a name runs, as
// zsh's hash NAME=FILE makes it (commands[ls]=/bin/rm; ls x runs rm x in
// zsh, which an IDE may run a terminal with), and an element of aliases,
// galiases, saliases or functions is text zsh runs for a name; they are
// decided as BASH_CMDS's and BASH_ALIASES's are (an array assignment's
// keys, commands=(ls /bin/rm), each decided as a value too).

// commandTable decides the values assignment a gives (with those the line
// gave the variable before, held) as what a name runs, when a sets
// BASH_CMDS, BASH_ALIASES or one of zshCommandTables.
func (w *walker) commandTable(a Assignment, held heldValues, depth int) {
	files, table := zshCommandTables[a.Name]
	switch {
	case a.Name == "BASH_CMDS":
		files = true
	case a.Name == "BASH_ALIASES":
	case !table:
		return
	}
	// A value that is not static is the word as written: computed when
	// it expands anything, else a pattern's text (a grammar that read
	// NAME[k]=v as a word), which is its value.
	computed := !a.Static && (a.Value == "" || strings.ContainsAny(a.Value, "$`"))
	var values []string
	switch {
	case computed:
	case a.Append: // the whole value, and the text added alone (the earlier value may be empty)
		values = append([]string{a.Value}, held.values...)
	default:
		values = []string{a.Value}
	}
	unknown := computed || a.Append && held.unknown
	for _, v := range values {
		if strings.HasPrefix(v, "(") {
			unknown = true // a compound value read again ('([k]=v)')
			continue
		}
		if !files {
			w.line(v, depth+1, dialectsOf("bash"))
			continue
		}
		if v != "" {
			w.build(&Command{Source: a.Name + "=" + v, Dir: w.cur}, []Word{{Kind: Static, Text: hashedPath(v)}}, nil, depth)
		}
	}
	if unknown {
		w.build(&Command{Source: a.Name + "=" + a.Value, Dir: w.cur}, []Word{{Kind: Dynamic, Text: a.Value, Why: a.Name + " set to a value known only when the line runs"}}, nil, depth)
	}
}

// zshCommandTables are zsh's special associative arrays that say what a
// name runs: true for commands, whose elements are files, false for those
// whose elements are text zsh runs.
var zshCommandTables = map[string]bool{
	"commands":  true,
	"aliases":   false,
	"galiases":  false,
	"saliases":  false,
	"functions": false,
}

// hashedPath returns the file bash runs for a path hash -p or BASH_CMDS
// gives: execve opens one without a '/' in the current directory, where
// PATH would have found the system's program of that name.
func hashedPath(p string) string {
	if strings.Contains(p, "/") {
		return p
	}
	return "./" + p
}
