package shellcmd

import "strings"

// declHandler reads export, readonly, declare, typeset and local as a
// POSIX grammar sees them, as plain commands: their NAME=value words are
// assignments even when the value is computed.
func declHandler(form []Word) step {
	st := step{notes: namerefNotes(form)}
	for _, wd := range form[1:] {
		t := wd.Text
		if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
			continue
		}
		name := t[:nameEnd(t)]
		rest := t[len(name):]
		switch {
		case name == "" && wd.Kind == Dynamic:
			st.assigns = append(st.assigns, Assignment{Name: t})
		case name == "":
		case strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "+=") || strings.HasPrefix(rest, "["):
			_, value, _ := strings.Cut(rest, "=")
			st.assigns = append(st.assigns, Assignment{Name: name, Value: value, Static: wd.Kind == Static})
		default:
			st.assigns = append(st.assigns, Assignment{Name: name, Static: true})
		}
	}
	return st
}
