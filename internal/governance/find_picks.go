package governance

import (
	"os"
	"path"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// findPicks returns which entries a find form's expression picks, as far
// as the bridge reads it, for deciding what its -delete deletes: an
// expression whose terms are all joined by "and" picks an entry only when
// every -name, -iname and -type term of it holds ("find src -name '*.pyc'
// -delete" deletes the .pyc files alone). Any other term that tests an
// entry only narrows the pick, and is taken as holding; an expression with
// -o, -or, !, -not, a comma or parentheses, a term whose value is computed,
// or -name given a pattern the bridge cannot read, picks every entry (nil).
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
	var tests []test
	for i := start; i < len(words); i++ {
		w := words[i]
		if w.Kind != shellcmd.Static {
			return nil
		}
		switch t := w.Text; t {
		case "-o", "-or", "!", "-not", ",", "(", ")":
			return nil
		case "-name", "-iname", "-type":
			if i+1 >= len(words) || words[i+1].Kind != shellcmd.Static {
				return nil
			}
			v := words[i+1].Text
			if t != "-type" {
				if _, err := path.Match(v, ""); err != nil {
					return nil
				}
			}
			tests = append(tests, test{t, v})
			i++
		}
	}
	if len(tests) == 0 {
		return nil
	}
	return func(_ string, ent os.DirEntry) bool {
		for _, t := range tests {
			switch t.kind {
			case "-name":
				if ok, _ := path.Match(t.value, ent.Name()); !ok {
					return false
				}
			case "-iname":
				if ok, _ := path.Match(strings.ToLower(t.value), strings.ToLower(ent.Name())); !ok {
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
