package shellcmd

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// read given a static here-string or here-document sets its variables to
// the text the line shows: after "read x <<< 'rm x'", $x runs rm x, and
// after "read f <<< .env", "cat $f" reads .env. Those are the variables'
// values (readValues), read as bash's read reads them with the default IFS,
// its options included (-d, -n, -N, -r, -a; -p, -s, -e, -t and -i change
// nothing read from a here-string); a word built from them still needs
// approval as computed at run time, since an IFS from the environment may
// split them otherwise.

// readOptions are the options of one read command that change what it sets.
type readOptions struct {
	raw    bool   // -r: a backslash is a character
	array  string // -a NAME: each field an element
	delim  byte   // -d: the character that ends the line
	count  int    // -n or -N: at most this many characters, -1 for no limit
	exact  bool   // -N: exactly count characters, delimiters and IFS ignored
	names  []string
	unread bool // an option read takes from elsewhere (-u), or words not known
}

// parseReadOptions reads the words of a read command (form[0] is read) as
// bash reads its options.
func parseReadOptions(form []Word) readOptions {
	p := parseOptions(form, 1, grammar{short: shortOpts("ers", "adinNptu", "")})
	o := readOptions{raw: p.has("r"), delim: '\n', count: -1}
	if p.problem != "" || p.has("u") || p.has("n") && p.has("N") {
		return readOptions{unread: true}
	}
	o.array, _ = p.value("a")
	if d, ok := p.value("d"); ok {
		o.delim = 0 // -d '' ends the line at a NUL
		if d != "" {
			o.delim = d[0]
		}
	}
	for _, c := range []string{"n", "N"} {
		if v, ok := p.value(c); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return readOptions{unread: true}
			}
			o.count, o.exact = n, c == "N"
		}
	}
	for _, wd := range rest(form, p.next) {
		if wd.Kind != Static {
			return readOptions{unread: true}
		}
		o.names = append(o.names, wd.Text)
	}
	return o
}

// readValues returns the assignments read (form, a read command) makes
// from the static text of its input, as bash reads it: the characters up
// to the delimiter or the count, backslashes taken off without -r (a
// backslash and newline joining lines), then split at blanks, one field a
// name, the last name taking the rest; each field of an array (read -a) a
// value of it; with -N the characters read, whole. None when an option
// reads from elsewhere or a word is computed at run time.
func readValues(form []Word, text string) []Assignment {
	o := parseReadOptions(form)
	if o.unread {
		return nil
	}
	line := readLine(text, o)
	if o.exact {
		name := "REPLY"
		if len(o.names) > 0 {
			name = o.names[0]
		}
		return []Assignment{{Name: name, Value: line, Static: true}}
	}
	if o.array != "" {
		var out []Assignment
		for _, f := range strings.Fields(line) {
			out = append(out, Assignment{Name: o.array, Value: f, Static: true})
		}
		return out
	}
	if len(o.names) == 0 {
		return []Assignment{{Name: "REPLY", Value: line, Static: true}}
	}
	var out []Assignment
	rest := strings.TrimLeft(line, " \t\n")
	for i, n := range o.names {
		if i == len(o.names)-1 {
			out = append(out, Assignment{Name: n, Value: strings.TrimRight(rest, " \t\n"), Static: true})
			break
		}
		field, after := rest, ""
		if j := strings.IndexAny(rest, " \t\n"); j >= 0 {
			field, after = rest[:j], rest[j+1:]
		}
		out = append(out, Assignment{Name: n, Value: field, Static: true})
		rest = strings.TrimLeft(after, " \t\n")
	}
	return out
}

// readLine returns the characters read takes from text under o: up to the
// delimiter (not kept) or count characters, a backslash keeping the
// character after it (and a backslash and newline dropped) without -r.
func readLine(text string, o readOptions) string {
	var b strings.Builder
	for n := 0; text != "" && (o.count < 0 || n < o.count); n++ {
		r, size := utf8.DecodeRuneInString(text)
		if !o.exact && r == rune(o.delim) && size == 1 {
			break
		}
		if r == '\\' && !o.raw && len(text) > 1 {
			text = text[1:]
			r, size = utf8.DecodeRuneInString(text)
			if r == '\n' {
				text = text[size:]
				n--
				continue
			}
		}
		b.WriteString(text[:size])
		text = text[size:]
	}
	return strings.ReplaceAll(b.String(), "\x00", "") // bash drops a NUL it reads
}
