package shellcmd

import "strings"

// namerefNotes returns a RunsCode note when a declare, typeset or local
// form gives a name the nameref attribute (-n, alone or in a cluster such
// as -gn): from then on an assignment to that name sets the variable its
// value names, so `declare -n r=PATH; r=src` sets PATH and
// `declare -n r=BASH_CMDS; r['cat']=x` makes cat run x, while the line names
// neither. A glob or a computed word there may be -n when the line runs
// ("-?" with a file named -n beside it). Which variable a later assignment
// sets is known only at run time (NotStatic: no rule for declare vouches for it, as none for export
// vouches for PATH). export -n and readonly take no such attribute.
func namerefNotes(form []Word) []Note {
	switch form[0].Text {
	case "declare", "typeset", "local":
	default:
		return nil
	}
	for _, wd := range form[1:] {
		t := wd.Text
		if wd.Kind == Static && t == "--" {
			break
		}
		switch {
		case wd.Kind == Static && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t[1:], "n"):
			return []Note{{Kind: NotStatic, Text: form[0].Text + " " + t + " makes a name stand for another variable, so an assignment through it sets a variable the line does not name"}}
		case wd.Kind != Static && !strings.Contains(t, "="):
			// A glob ("-?", "-[n]") or a computed word may be -n when
			// the line runs.
			return []Note{{Kind: NotStatic, Text: form[0].Text + " " + t + " is an option known only when the line runs, which may make a name stand for another variable"}}
		}
	}
	return nil
}

// hashHandler is the handler of hash. "hash -p FILE NAME" makes NAME run
// FILE, as an element of BASH_CMDS does, and so does zsh's "hash
// NAME=FILE" (the first such word; -d makes it a named directory): FILE is decided as the command it
// is (its own next form, so a rule refusing it refuses the line), and the
// line carries hash's RunsCode note, which a rule naming hash vouches for.
func hashHandler(form []Word) step {
	st := callbackHandler("p")(form)
	dirs := false // zsh's hash -d NAME=DIR names a directory
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind == Static && !dirs && !strings.HasPrefix(t, "-") {
			// zsh's hash NAME=FILE makes NAME run FILE, as hash -p does.
			if _, file, ok := strings.Cut(t, "="); ok && file != "" {
				st.next = []Word{{Kind: Static, Text: hashedPath(file)}}
				return st
			}
			continue
		}
		if form[i].Kind != Static || !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		dirs = dirs || strings.Contains(t, "d")
		if t == "--" {
			break
		}
		if at := strings.IndexByte(t, 'p'); at > 0 {
			switch {
			case at+1 < len(t): // -pFILE
				st.next = []Word{{Kind: Static, Text: hashedPath(t[at+1:])}}
			case i+1 < len(form):
				st.next = []Word{form[i+1]}
				if form[i+1].Kind == Static {
					st.next[0].Text = hashedPath(form[i+1].Text)
				}
			}
			return st
		}
	}
	return st
}

// Nameref reports whether form is a declare, typeset or local that may
// give a name the nameref attribute, after which an assignment through
// that name sets a variable the line does not name (namerefNotes).
func Nameref(form []Word) bool {
	return len(form) > 0 && len(namerefNotes(form)) > 0
}
