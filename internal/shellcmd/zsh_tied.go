package shellcmd

// zsh ties an array to each of its colon-separated list variables: an
// assignment to the array, whole or one element, or appended to, sets the
// variable to its elements joined by ':'. So "path=sub; ls" (path=(sub),
// path+=(sub), path[1]=sub) runs ./sub/ls in zsh, which an IDE may run a
// terminal with, as PATH=sub does: an assignment to such an array is also
// one to its variable, each element a value it may hold (tiedAssignment).
var zshTiedArrays = map[string]string{
	"path":        "PATH",
	"cdpath":      "CDPATH",
	"fpath":       "FPATH",
	"manpath":     "MANPATH",
	"mailpath":    "MAILPATH",
	"module_path": "MODULE_PATH",
}

// tiedAssignment returns the assignment to the variable zsh ties the
// array a assigns to, and false where a assigns to no such array. An
// element is a directory of the list on its own, so one appended (path+=x
// adds an element) is a value of the variable as one assigned is.
func tiedAssignment(a Assignment) (Assignment, bool) {
	name, ok := zshTiedArrays[a.Name]
	if !ok {
		return Assignment{}, false
	}
	a.Name, a.Append = name, false
	return a, true
}
