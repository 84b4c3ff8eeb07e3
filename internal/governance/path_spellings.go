package governance

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// asciiFolds maps the letters a case-insensitive file system (APFS and
// HFS+ as macOS formats them by default) folds into ASCII letters to
// those: the Kelvin sign is k, the long s is s, ß is ss, the ligature ﬁ
// is fi. There ".claude/ſettings.json" opens ".claude/settings.json".
// It also drops the code points HFS+ ignores in a name altogether (git's
// is_hfs_dotgit lists them: U+200C-U+200F, U+202A-U+202E, U+206A-U+206F,
// U+FEFF), with which ".g\u200cit" is ".git" there.
var asciiFolds = strings.NewReplacer("\u212a", "k", "\u017f", "s", "\u00df", "ss", "\u1e9e", "ss", "\u0130", "i",
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st",
	"\u200c", "", "\u200d", "", "\u200e", "", "\u200f", "", "\u202a", "", "\u202b", "", "\u202c", "", "\u202d", "", "\u202e", "",
	"\u206a", "", "\u206b", "", "\u206c", "", "\u206d", "", "\u206e", "", "\u206f", "", "\ufeff", "")

// otherSpellings returns the other names under which a file system may
// open the file p names, beside p itself: the letters of asciiFolds
// folded, and p composed (NFC) and decomposed (NFD). APFS and HFS+ treat
// canonically equivalent names as one name, so on macOS "donne\u0301es/a"
// opens "données/a"; a rule written either way must meet both. pathForms
// adds each spelling's forms to p's, so the strictest decision over them
// stands wherever the IDE runs. A path of ASCII alone has none.
func otherSpellings(p string) []string {
	i := 0
	for i < len(p) && p[i] < utf8.RuneSelf {
		i++
	}
	if i == len(p) {
		return nil
	}
	var out []string
	add := func(s string) {
		if s != p && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, s := range []string{norm.NFC.String(p), norm.NFD.String(p), p} {
		add(s)
		add(asciiFolds.Replace(s))
	}
	return out
}
