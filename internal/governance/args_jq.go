package governance

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// jq reads files its program names: a data import, `import "P" as $NAME
// [metadata];`, reads P.json (or P/B.json, B the last element of P) from
// each directory of its search path, and with the metadata `{raw: true}`
// hands the file's text to the program whatever it holds, so
// `jq -n 'import "env" as $e {raw: true}; $e'` prints the .env that
// env.json links to. The search path is the metadata's `search` (a string
// or an array of strings, relative to where jq runs), the directory jq
// runs in, each -L (--library-path) directory and ~/.jq: each file a data
// import may read there is decided as a read, as a word naming it would
// be. A module, `include "P";` or `import "P" as NAME;`, is jq code from
// P.jq, whose own imports read files the line does not show: it needs
// approval, and so do a directive the bridge cannot read (a name with
// escapes, a search path it cannot place, a program computed when the
// line runs) and a program jq takes from a file (-f, --from-file), which
// the bridge does not read. The program is any word of the line, as
// yq's expression is (args_yq.go).

// jqName matches jq and its other implementations (gojq, jaq), with a
// version or release suffix (jq-1.7, jq-linux-amd64).
var jqName = regexp.MustCompile(`^(?:jq|gojq|jaq)(?:[0-9._-].*)?$`)

// jqDirective finds the keyword of an import or include directive in a
// jq program: not part of a name, a field (.import) or a string
// ("import"). What follows it is read by jqDirectivePath.
var jqDirective = regexp.MustCompile(`(?:^|[^A-Za-z0-9_$."])(import|include)`)

// jqDirectivePath matches the path that follows a directive's keyword: a
// plain string, without escapes, after nothing but white space.
var jqDirectivePath = regexp.MustCompile(`^\s*"([^"\\]+)"`)

// jqImportAs matches what follows an import's path: "as", then $NAME for
// a data import or NAME for a module, and the metadata object, if any,
// when it holds no nested object.
var jqImportAs = regexp.MustCompile(`^\s*as\s*(\$?)(?:::)?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*\s*(\{[^{}]*\})?`)

// jqSearch finds the search key of an import's metadata and the start of
// its value.
var jqSearch = regexp.MustCompile(`(?:^|[{,\s])"?search"?\s*:\s*`)

// jqString matches a plain JSON string, without escapes, at the start of
// a text.
var jqString = regexp.MustCompile(`^"([^"\\]*)"`)

// jqImportReads returns the files a jq form's data imports read, as reads,
// and a question for each directive whose files the bridge cannot name.
func jqImportReads(form []shellcmd.Word) []argWord {
	if !jqName.MatchString(filepath.Base(form[0].Text)) {
		return nil
	}
	var out []argWord
	ask := func(w shellcmd.Word, text, namedBy, why string) {
		out = append(out, argWord{word: w, text: text, readOnly: true, unplaced: why, namedBy: namedBy})
	}
	libs, libsKnown := jqLibraryPaths(form)
	for i, w := range form[1:] {
		if w.Kind == shellcmd.Static && jqFromFile(w.Text) {
			ask(w, w.Text, "jq's option", "jq takes its program from a file the bridge does not read, whose imports may read any file")
			continue
		}
		locs := jqDirective.FindAllStringSubmatchIndex(w.Text, -1)
		if len(locs) == 0 {
			continue
		}
		if w.Kind != shellcmd.Static {
			ask(w, w.Text, "jq's program", "jq's program imports a file and is computed when the line runs")
			continue
		}
		for _, loc := range locs {
			keyword, rest := w.Text[loc[2]:loc[3]], w.Text[loc[3]:]
			if r := strings.TrimSpace(rest); r == "" || r[0] == ':' || isIdentByte(rest[0]) {
				continue // a longer name (imports, include_x), an object's key ({import: 1}), a word alone
			}
			p := jqDirectivePath.FindStringSubmatch(rest)
			if p == nil {
				ask(w, w.Text[loc[2]:], "jq's program", "jq's program imports a file whose name the bridge cannot read (escaped, computed or after a comment)")
				continue
			}
			name := p[1]
			after := rest[len(p[0]):]
			m := jqImportAs.FindStringSubmatch(after)
			if keyword == "include" || m == nil || m[1] == "" {
				ask(w, name, "imported by jq's program", "jq's program loads the module "+name+", jq code whose own imports read files the bridge does not follow")
				continue
			}
			dirs, ok := jqSearchDirs(m[2])
			if ended := strings.HasPrefix(strings.TrimSpace(after[len(m[0]):]), ";"); !ended || !ok || !libsKnown {
				// not ended: metadata the bridge did not read whole (an
				// object in it, a brace in a string)
				ask(w, name, "imported by jq's program", "jq's program imports "+name+" from a search path the bridge cannot place")
				continue
			}
			dirs = append(append(dirs, "."), libs...)
			dirs = append(dirs, "~/.jq")
			for _, f := range jqDataFiles(name, dirs) {
				out = append(out, argWord{word: w, text: f, readOnly: true, at: &form[i+1], namedBy: "imported by jq's program"})
			}
		}
	}
	return out
}

// isIdentByte reports whether b may continue a jq name.
func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// jqFromFile reports whether an option word makes jq take its program
// from a file: -f in a cluster of short options, or --from-file.
func jqFromFile(t string) bool {
	if t == "--from-file" || strings.HasPrefix(t, "--from-file=") {
		return true
	}
	if len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return false
	}
	for _, c := range t[1:] {
		if c == 'f' {
			return true
		}
		if c == 'L' {
			return false // the rest is -L's directory
		}
	}
	return false
}

// jqLibraryPaths returns the directories the form's -L and --library-path
// options add to jq's search path; known is false when one of them is
// computed when the line runs.
func jqLibraryPaths(form []shellcmd.Word) (dirs []string, known bool) {
	known = true
	value := func(i int) {
		if i >= len(form) || form[i].Kind != shellcmd.Static {
			known = false
			return
		}
		dirs = append(dirs, form[i].Text)
	}
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static {
			continue
		}
		switch t := w.Text; {
		case t == "--":
			return dirs, known
		case t == "-L" || t == "--library-path":
			value(i + 1)
			i++
		case strings.HasPrefix(t, "--library-path="):
			dirs = append(dirs, strings.TrimPrefix(t, "--library-path="))
		case strings.HasPrefix(t, "-L"):
			dirs = append(dirs, strings.TrimPrefix(t[2:], "="), t[2:])
		case len(t) > 2 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "L"):
			known = false // -L inside a cluster: where its directory is, jq's own reading says
		}
	}
	return dirs, known
}

// jqSearchDirs returns the directories an import's metadata searches
// (none when it names no search path); ok is false when its search is of
// a form the bridge does not read, or names a directory relative to jq's
// own program ($ORIGIN).
func jqSearchDirs(meta string) (dirs []string, ok bool) {
	if strings.ContainsAny(meta, "\\(") {
		return nil, false // a key or value escaped or computed
	}
	loc := jqSearch.FindStringIndex(meta)
	if loc == nil {
		return nil, !strings.Contains(meta, "search")
	}
	v := meta[loc[1]:]
	one := func(s string) bool {
		if strings.HasPrefix(s, "$ORIGIN") {
			return false
		}
		dirs = append(dirs, s)
		return true
	}
	if m := jqString.FindStringSubmatch(v); m != nil {
		rest := strings.TrimSpace(v[len(m[0]):])
		if !strings.HasPrefix(rest, ",") && !strings.HasPrefix(rest, "}") {
			return nil, false // more than the string: "./s" + "ub"
		}
		return dirs, one(m[1])
	}
	if !strings.HasPrefix(v, "[") {
		return nil, false
	}
	v = strings.TrimSpace(v[1:])
	for !strings.HasPrefix(v, "]") {
		m := jqString.FindStringSubmatch(v)
		if m == nil || !one(m[1]) {
			return nil, false
		}
		v = strings.TrimSpace(v[len(m[0]):])
		switch {
		case strings.HasPrefix(v, ","):
			v = strings.TrimSpace(v[1:])
		case !strings.HasPrefix(v, "]"):
			return nil, false // more than the string: ["./s" + "ub"]
		}
	}
	return dirs, true
}

// jqDataFiles returns the files a data import of name may read from dirs:
// name.json, and name/B.json with B the last element of name, in each (in
// none but name's own place when name is absolute).
func jqDataFiles(name string, dirs []string) []string {
	rel := []string{name + ".json", name + "/" + filepath.Base(name) + ".json"}
	if filepath.IsAbs(name) {
		return rel
	}
	var out []string
	for _, d := range dirs {
		for _, r := range rel {
			out = append(out, strings.TrimSuffix(d, "/")+"/"+r)
		}
	}
	return out
}
