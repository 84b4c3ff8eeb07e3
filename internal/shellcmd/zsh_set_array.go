package shellcmd

import "strings"

// setArray records what zsh's set -A NAME VALUE... (or +A, which replaces
// the first elements only) assigns: the array NAME given the values, as
// NAME=(VALUE...) gives them, so an array that changes how zsh reads the
// line or what a name runs is decided the same way however it is filled
// (set -A options extendedglob on turns EXTENDED_GLOB on, set -A commands ls
// /bin/rm makes ls run rm: commandTable). A value known only when the line
// runs is such a value; a NAME known only then is a name the walker cannot
// tell, which needs approval (env.go). form is a set command; one without
// -A or +A assigns nothing.
func (w *walker) setArray(form []Word, dir Dir, depth int) {
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind != Static || t == "--" || t == "-" || len(t) < 2 || t[0] != '-' && t[0] != '+' {
			return
		}
		if strings.HasSuffix(t, "o") {
			i++ // -o takes an option's name
			continue
		}
		if !strings.ContainsRune(t[1:], 'A') || i+1 >= len(form) {
			continue
		}
		name := form[i+1].Text
		values := form[i+2:]
		if len(values) == 0 {
			w.assign(Assignment{Name: name, Static: form[i+1].Kind == Static, Dir: dir}, depth)
		}
		for _, v := range values {
			a := Assignment{Name: name, Dir: dir}
			if v.Kind == Static {
				a.Value, a.Static = v.Text, true
			}
			w.assign(a, depth)
		}
		return
	}
}
