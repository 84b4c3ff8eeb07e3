package governance

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// findArgs are how many words find's primaries take after them; -exec,
// -execdir, -ok and -okdir take every word up to ";" or "+".
var findArgs = map[string]int{
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
	"-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-samefile": 1,
	"-perm": 1, "-size": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-links": 1, "-inum": 1, "-fstype": 1,
	"-amin": 1, "-cmin": 1, "-mmin": 1, "-atime": 1, "-ctime": 1, "-mtime": 1, "-used": 1, "-context": 1,
	"-maxdepth": 1, "-mindepth": 1, "-regextype": 1, "-printf": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1,
	"-fprintf": 2, "-empty": 0, "-readable": 0, "-writable": 0, "-executable": 0, "-nouser": 0, "-nogroup": 0,
	"-print": 0, "-print0": 0, "-ls": 0, "-true": 0, "-depth": 0, "-xdev": 0, "-mount": 0, "-noleaf": 0,
	"-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-daystart": 0, "-follow": 0, "-delete": 0,
	"-exec": -1, "-execdir": -1, "-ok": -1, "-okdir": -1,
}

// findPicks returns which entries a find form's expression picks, as far
// as the bridge reads it, for deciding what its -delete deletes: an
// expression whose terms are all joined by "and" deletes an entry only
// when every -name, -iname and -type term before its -delete holds ("find
// src -name '*.pyc' -delete" deletes the .pyc files alone). Any other
// term that tests an entry only narrows the pick, and is taken as
// holding; an expression with -o, -or, !, -not, a comma or parentheses, a
// primary the bridge does not know, a word computed at run time, or a
// -name pattern the bridge cannot read ([[:class:]]), picks every entry
// (nil).
func findPicks(form []shellcmd.Word) func(rel string, ent os.DirEntry) bool {
	words := form[1:]
	start := 0
	for start < len(words) && words[start].Kind == shellcmd.Static && !strings.HasPrefix(words[start].Text, "-") &&
		words[start].Text != "(" && words[start].Text != "!" {
		start++ // the starting points
	}
	type test struct {
		kind, value string
	}
	for _, w := range words[start:] {
		switch w.Text {
		case "-o", "-or", "!", "-not", ",", "(", ")":
			return nil // an operator anywhere, after -delete too ("-delete , -delete")
		}
	}
	var tests []test
	for i := start; i < len(words); i++ {
		w := words[i]
		if w.Kind != shellcmd.Static {
			return nil
		}
		t := w.Text
		if t == "-delete" {
			break // what comes after it does not narrow what it deletes
		}
		n, known := findArgs[t]
		switch {
		case !known:
			return nil // -o, !, (, a comma, or a primary not read
		case n < 0:
			for i++; i < len(words) && words[i].Text != ";" && words[i].Text != "+"; i++ {
			}
			continue
		case i+n >= len(words):
			return nil
		}
		if t == "-name" || t == "-iname" || t == "-type" {
			v := words[i+1]
			if v.Kind != shellcmd.Static {
				return nil
			}
			pat := v.Text
			if t != "-type" {
				if strings.Contains(pat, "[:") || strings.Contains(pat, "[=") || strings.Contains(pat, "[.") {
					return nil
				}
				pat = strings.ReplaceAll(pat, "[!", "[^") // fnmatch's negation, in Go's syntax
				if _, err := path.Match(pat, ""); err != nil {
					return nil
				}
			}
			tests = append(tests, test{t, pat})
		}
		i += n
	}
	if len(tests) == 0 {
		return nil
	}
	return func(_ string, ent os.DirEntry) bool {
		for _, t := range tests {
			switch t.kind {
			case "-name", "-iname":
				// Go matches runes where find in the C locale matches
				// bytes: a name outside ASCII counts as picked, as does
				// one the pattern cannot be matched against.
				pat, name := t.value, ent.Name()
				if !isASCII(name) || !isASCII(pat) {
					continue
				}
				if t.kind == "-iname" {
					pat, name = strings.ToLower(pat), strings.ToLower(name)
				}
				if ok, err := path.Match(pat, name); err == nil && !ok {
					return false
				}
			case "-type":
				if !findTypeHolds(t.value, ent) {
					return false
				}
			}
		}
		return true
	}
}

// findTypeHolds reports whether find's -type TYPES (one letter, or GNU's
// comma-separated list) holds for ent; a letter the bridge does not know
// holds.
func findTypeHolds(types string, ent os.DirEntry) bool {
	m := ent.Type()
	for _, c := range strings.Split(types, ",") {
		switch c {
		case "f":
			if m.IsRegular() {
				return true
			}
		case "d":
			if m.IsDir() {
				return true
			}
		case "l":
			if m&os.ModeSymlink != 0 {
				return true
			}
		case "p", "s", "b", "c":
			if m&(os.ModeNamedPipe|os.ModeSocket|os.ModeDevice|os.ModeCharDevice) != 0 {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// findExecPlaceholder is what find replaces with the names it gives the
// command of -exec, in any word of it.
const findExecPlaceholder = "{}"

// findExecWrites returns the program of the first command find's -exec,
// -execdir, -ok or -okdir runs that may change the files find gives it
// ("-exec sponge {} ;", "-exec sed -i s/a/b/ {} +"): one that writes the
// word holding {} (args_writes.go), or one the bridge does not know to
// leave it as it is (args_maywrite.go). ok is false when every such
// command only reads them.
func findExecWrites(form []shellcmd.Word) (program string, ok bool) {
	for i := 1; i < len(form); i++ {
		if form[i].Kind != shellcmd.Static || !findActions[form[i].Text] || form[i].Text == "-delete" {
			continue
		}
		var run []shellcmd.Word
		for i++; i < len(form) && !(form[i].Kind == shellcmd.Static && (form[i].Text == ";" || form[i].Text == "+")); i++ {
			run = append(run, form[i])
		}
		if len(run) == 0 {
			continue
		}
		if program, ok := runMayChangeGiven(run); ok {
			return program, true
		}
	}
	return "", false
}

// runMayChangeGiven reports whether the command run, whose words name the
// files another program gives it by findExecPlaceholder, may change them:
// it writes a word holding the placeholder ("{}" whole, or "of={}",
// "-o{}", "{}.bak"), or its program is not known to leave what it is given
// alone. It is read as a line of its own, so that a wrapper's command is
// what is judged ("env truncate -s0 {}"); a word not known before the line
// runs may be any program.
func runMayChangeGiven(run []shellcmd.Word) (program string, ok bool) {
	for _, w := range run {
		if w.Kind != shellcmd.Static {
			return run[0].Text, true
		}
	}
	for _, c := range shellcmd.Analyze(quotedWords(run), shellcmd.Options{}).Commands {
		for _, a := range commandArgs(c) {
			if strings.Contains(a.text, findExecPlaceholder) && (a.write || a.mayWrite) {
				return filepath.Base(run[0].Text), true
			}
		}
	}
	return "", false
}
