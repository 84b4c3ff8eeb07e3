package shellcmd

import (
	"strconv"
	"strings"
)

// mapfile (readarray) given a static here-string or here-document sets its
// array to the lines the line shows: after "mapfile -t a <<< rm",
// "${a[0]}" x runs rm x. Those are its elements (mapfileElements), read as
// bash's mapfile reads them.

// mapfileElements returns the array mapfile (form, its words) sets from
// the static text of its input and the elements it sets, in order: each
// line up to the delimiter (-d, a newline by default), kept with it unless
// -t, after the first -s lines and at most -n lines. ok is false for an
// option that reads from elsewhere (-u), places the elements elsewhere
// (-O), or a word computed at run time.
func mapfileElements(form []Word, text string) (name string, elems []string, ok bool) {
	p := parseOptions(form, 1, grammar{short: shortOpts("t", "dnOsuCc", "")})
	if p.problem != "" || p.has("u") || p.has("O") {
		return "", nil, false
	}
	delim := "\n"
	if d, given := p.value("d"); given {
		delim = "\x00" // -d '' ends a line at a NUL
		if d != "" {
			delim = d[:1]
		}
	}
	number := func(opt string) (int, bool) {
		v, given := p.value(opt)
		if !given {
			return 0, true
		}
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 0
	}
	skip, skipOK := number("s")
	limit, limitOK := number("n")
	names := rest(form, p.next)
	if !skipOK || !limitOK || len(names) > 1 || len(names) == 1 && names[0].Kind != Static {
		return "", nil, false
	}
	name = "MAPFILE"
	if len(names) == 1 {
		name = names[0].Text
	}
	elems = []string{}
	for line := range strings.SplitAfterSeq(text, delim) {
		if line == "" {
			break
		}
		if skip > 0 {
			skip--
			continue
		}
		if limit > 0 && len(elems) == limit {
			break
		}
		if p.has("t") {
			line = strings.TrimSuffix(line, delim)
		}
		elems = append(elems, line)
	}
	return name, elems, true
}

// heldArray is an array a command sets, with its elements in order.
type heldArray struct {
	name  string
	elems []string
}
