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
// from the static text of its input, as bash reads it with ifs as IFS:
// the characters up to the delimiter or the count, backslashes taken off
// without -r (a backslash and newline joining lines), then split at IFS
// (ifsFields), one field a name, the last name taking the rest; with -a the
// array its fields make, in order (array); with -N the characters read,
// whole. None when an option reads from elsewhere, a word is computed at
// run time, or the split is one this reading does not follow.
func readValues(form []Word, text, ifs string) (assigns []Assignment, array *heldArray) {
	o := parseReadOptions(form)
	if o.unread {
		return nil, nil
	}
	line := readLine(text, o)
	if o.exact {
		name := "REPLY"
		if len(o.names) > 0 {
			name = o.names[0]
		}
		return []Assignment{{Name: name, Value: line, Static: true}}, nil
	}
	if o.array != "" {
		fields, ok := ifsFields(line, ifs, -1)
		if !ok {
			return nil, nil
		}
		for _, f := range fields {
			assigns = append(assigns, Assignment{Name: o.array, Value: f, Static: true})
		}
		return assigns, &heldArray{name: o.array, elems: append([]string{}, fields...)}
	}
	if len(o.names) == 0 {
		return []Assignment{{Name: "REPLY", Value: line, Static: true}}, nil
	}
	fields, ok := ifsFields(line, ifs, len(o.names))
	if !ok {
		return nil, nil
	}
	for i, n := range o.names {
		v := ""
		if i < len(fields) {
			v = fields[i]
		}
		assigns = append(assigns, Assignment{Name: n, Value: v, Static: true})
	}
	return assigns, nil
}

// defaultIFS is the IFS bash and dash start with.
const defaultIFS = " \t\n"

// ifsFields splits line at the characters of ifs as read does, into at
// most n fields (every field for n < 0), the last taking the rest of the
// line: blanks in ifs at either end dropped and a run of them one
// separator, each other character of ifs a separator of its own. ok is
// false for an ifs beyond ASCII and for a last field that still holds a
// separator other than a blank, whose end bash reads by rules not
// followed here.
func ifsFields(line, ifs string, n int) (fields []string, ok bool) {
	for i := 0; i < len(ifs); i++ {
		if ifs[i] >= 0x80 {
			return nil, false
		}
	}
	if ifs == "" {
		return []string{line}, true
	}
	blank := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 && strings.IndexByte(" \t\n", c) >= 0 }
	skipBlanks := func(s string) string {
		for s != "" && blank(s[0]) {
			s = s[1:]
		}
		return s
	}
	rest := skipBlanks(line)
	for rest != "" {
		if n > 0 && len(fields) == n-1 {
			last := strings.TrimRightFunc(rest, func(r rune) bool { return r < 0x80 && blank(byte(r)) })
			for i := 0; i < len(last); i++ {
				if strings.IndexByte(ifs, last[i]) >= 0 && !blank(last[i]) {
					return nil, false
				}
			}
			return append(fields, last), true
		}
		j := strings.IndexAny(rest, ifs)
		if j < 0 {
			return append(fields, rest), true
		}
		fields = append(fields, rest[:j])
		rest = skipBlanks(rest[j:])
		if rest != "" && strings.IndexByte(ifs, rest[0]) >= 0 && !blank(rest[0]) {
			rest = skipBlanks(rest[1:])
		}
	}
	return fields, true
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

// ifs returns the IFS the line has set by this point where it shows one
// value, the shells' default where it sets none; ok is false where it may
// hold several, or one known only when it runs.
func (w *walker) ifs() (ifs string, ok bool) {
	held, set := w.held["IFS"]
	switch {
	case !set:
		return defaultIFS, true
	case held.unknown || len(held.values) != 1:
		return "", false
	}
	return held.values[0], true
}
