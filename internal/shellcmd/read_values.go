package shellcmd

import "strings"

// read given a static here-string or here-document sets its variables to
// the text the line shows: after "read x <<< 'rm x'", $x runs rm x, and
// after "read f <<< .env", "cat $f" reads .env. Those are the variables'
// values (readValues), read as read reads them with the default IFS;
// a word built from them still needs approval as computed at run time,
// since an IFS from the environment may split them otherwise.

// readValues returns the assignments read (form, a read command) makes
// from the static text of its input: its first line split at blanks, one
// field a name, the last name taking the rest; each field of an array
// (read -a) a value of it. None when form names options read takes a
// value from other than -r (a delimiter, a count, a prompt read from the
// terminal), which the line does not show the effect of.
func readValues(form []Word, text string) []Assignment {
	var names []string
	array, raw := "", false
	for i := 1; i < len(form); i++ {
		wd := form[i]
		if wd.Kind != Static {
			return nil
		}
		switch {
		case wd.Text == "-r":
			raw = true
		case wd.Text == "-a" && i+1 < len(form) && form[i+1].Kind == Static:
			array = form[i+1].Text
			i++
		case strings.HasPrefix(wd.Text, "-"):
			return nil
		default:
			names = append(names, wd.Text)
		}
	}
	line, _, _ := strings.Cut(text, "\n")
	if !raw {
		// Without -r a backslash keeps the character after it.
		var b strings.Builder
		for i := 0; i < len(line); i++ {
			if line[i] == '\\' && i+1 < len(line) {
				i++
			}
			b.WriteByte(line[i])
		}
		line = b.String()
	}
	if array != "" {
		var out []Assignment
		for _, f := range strings.Fields(line) {
			out = append(out, Assignment{Name: array, Value: f, Static: true})
		}
		return out
	}
	if len(names) == 0 {
		return []Assignment{{Name: "REPLY", Value: line, Static: true}}
	}
	var out []Assignment
	rest := strings.TrimLeft(line, " \t")
	for i, n := range names {
		if i == len(names)-1 {
			out = append(out, Assignment{Name: n, Value: strings.TrimRight(rest, " \t"), Static: true})
			break
		}
		field, after := rest, ""
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			field, after = rest[:j], rest[j+1:]
		}
		out = append(out, Assignment{Name: n, Value: field, Static: true})
		rest = strings.TrimLeft(after, " \t")
	}
	return out
}
