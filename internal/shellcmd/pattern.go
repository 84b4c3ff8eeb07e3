package shellcmd

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A shell's bracket expression and path.Match's character class differ: the
// shells take a "]" or "-" first in the brackets as a member, "!" for
// negation, and POSIX classes ("[[:alpha:]]"), where path.Match refuses the
// first two (the word was then taken literally), takes "!" as a member and
// reads "[[:alpha:]]" as a class of "[:alph" followed by "]". So
// ".[[:alpha:]]nv", ".[!]]nv", ".[]e]nv", ".[-e]nv" and ".[e-]nv", which
// bash, zsh and dash all expand to ".env", named no file to the bridge. A
// pattern is therefore rewritten into path.Match's syntax before anything
// matches it, to match every name any of those shells could expand it to
// (TestPatternCoversShells runs them):
//
//   - "[^...]" negates in bash and zsh, and is a class holding "^" in sh
//     (dash): together any character.
//   - "[!]" and "[^]" are any character in zsh, where bash and sh go on to
//     the next "]"; brackets holding a "/" are a class in zsh and a literal
//     "[" in bash and sh; "[=e=]" and "[.e.]" are one element in bash (a range's
//     end too), members up to the first "]" in sh and zsh; "[:foo:]", a
//     class name that is not POSIX's, matches nothing in bash and is members
//     in sh: the shells disagree on where the brackets end, and the word is
//     taken as unknown until the line runs.
//   - A leading "]-x" is a range in bash and sh, "]", "-" and "x" in zsh:
//     the class holds all.
//   - Where the members depend on the locale (which letters are alpha in the
//     IDE's UTF-8 locale), a class that is not negated gains every code
//     point beyond ASCII, a negated one loses them.

// firstNonASCII and maxRune bound the code points beyond ASCII a class
// that is not negated gains. The C1 controls below firstNonASCII belong to
// [:cntrl:] only, which names them itself; starting after them keeps them
// out of the pattern's text, which the person is shown.
const (
	firstNonASCII = 0xa0
	maxRune       = utf8.MaxRune
)

// posixClasses are the members of the POSIX classes in ASCII.
var posixClasses = map[string][][2]rune{
	"alpha":  {{'a', 'z'}, {'A', 'Z'}},
	"alnum":  {{'0', '9'}, {'a', 'z'}, {'A', 'Z'}},
	"word":   {{'0', '9'}, {'a', 'z'}, {'A', 'Z'}, {'_', '_'}},
	"upper":  {{'A', 'Z'}},
	"lower":  {{'a', 'z'}},
	"digit":  {{'0', '9'}},
	"xdigit": {{'0', '9'}, {'a', 'f'}, {'A', 'F'}},
	"space":  {{'\t', '\r'}, {' ', ' '}},
	"blank":  {{'\t', '\t'}, {' ', ' '}},
	"punct":  {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}},
	"print":  {{' ', '~'}},
	"graph":  {{'!', '~'}},
	"cntrl":  {{1, 0x1f}, {0x7f, 0x9f}},
}

// matchPattern rewrites pat, a shell pattern in the form evalWord builds (a
// backslash quotes the byte after it), into path.Match's syntax. glob is
// false when pat holds no metacharacter once its brackets are read (an
// unclosed "[" is literal). why is not empty when the shells expand pat in
// ways no one pattern covers: a bracket they read differently (above), or
// zsh's "**/" and "***/", any depth of directories (none included), where
// bash reads "*/", and a last element "**" (bash's globstar and zsh read it
// as every name beneath, at any depth). zsh's EXTENDED_GLOB "^" is read as
// the names it could reach (zshNegation).
func matchPattern(pat string) (out string, glob bool, why string) {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '^':
			if i == 0 || pat[i-1] == '/' {
				// First in its path element: a regular expression's
				// anchor (grep ^func main.go) far more often than
				// zsh's negation, which reaches no dotfile there.
				b.WriteByte(c)
				continue
			}
			// zsh's EXTENDED_GLOB negation (see zshNegation).
			i = zshNegation(&b, pat, i)
			glob = true
		case '\\':
			if i+1 == len(pat) {
				b.WriteString(`\\`)
				continue
			}
			i++
			if strings.IndexByte("!^-", pat[i]) < 0 {
				// Those three are special in brackets only.
				b.WriteByte(c)
			}
			b.WriteByte(pat[i])
		case '*', '?':
			if c == '*' && (i == 0 || pat[i-1] == '/') && (strings.HasPrefix(pat[i:], "**/") || strings.HasPrefix(pat[i:], "***/")) {
				return "", false, "zsh's **/, which reaches any depth of directories"
			}
			if c == '*' && (i == 0 || pat[i-1] == '/') && (pat[i:] == "**" || pat[i:] == "***") {
				// A last element ** is every file and directory beneath,
				// at any depth, to bash with globstar (which the
				// ~/.bashrc an IDE's bash -i reads may set) and to zsh.
				return "", false, "a last element **, which reaches any depth of directories in bash with globstar and in zsh"
			}
			glob = true
			b.WriteByte(c)
		case '[':
			class, n, state := bracket(pat[i+1:])
			switch state {
			case bracketUnreadable:
				return "", false, "a bracket expression the shells read differently"
			case bracketLiteral:
				b.WriteString(`\[`)
				continue
			}
			glob = true
			b.WriteString(class)
			i += n
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), glob, ""
}

// zshNegation writes to b what zsh's EXTENDED_GLOB "x^y" could match, x
// followed by anything but y to the end of the path element, and returns
// the index of the last byte of y: "*" in place of "^y". zsh reads it so
// once the option is on, which a setopt on the line or the ~/.zshrc the
// IDE's zsh -i reads may do, where bash and sh read a plain "^"; "*"
// covers both (cat .e^x reads .env in zsh).
func zshNegation(b *strings.Builder, pat string, i int) int {
	for i+1 < len(pat) && pat[i+1] != '/' {
		i++
	}
	b.WriteByte('*')
	return i
}

// bracketState is how a "[" reads.
type bracketState uint8

const (
	bracketClass      bracketState = iota // a bracket expression
	bracketLiteral                        // a plain "["
	bracketUnreadable                     // a class name the bridge cannot read
)

// classSet is what a bracket expression holds.
type classSet struct {
	ranges   [][2]rune
	nonASCII bool // every code point beyond ASCII
}

// bracket reads the bracket expression s follows "[" with. It returns its
// path.Match form and the bytes of s it spans. The "[" is a literal when
// no "]" closes it.
func bracket(s string) (class string, n int, state bracketState) {
	j := 0
	neg, caret := false, false
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		neg, caret = true, s[j] == '^'
		j++
		if j < len(s) && s[j] == ']' {
			// zsh closes the brackets there (any character); bash and
			// sh take the "]" as a member.
			return "", 0, bracketUnreadable
		}
	}
	var set classSet
	if j+2 < len(s) && s[j] == ']' && s[j+1] == '-' && s[j+2] != ']' {
		// A leading "]" starts a range for bash and sh; zsh reads "]",
		// "-" and the next member.
		hi, _ := member(s[j+2:])
		set.add(']', '-', hi)
	}
	for first := true; ; first = false {
		if j >= len(s) {
			return "", 0, bracketLiteral
		}
		if s[j] == '/' {
			return "", 0, slashIn(s[j:])
		}
		if s[j] == ']' && !first {
			j++
			break
		}
		if s[j] == '[' && j+1 < len(s) && (s[j+1] == '=' || s[j+1] == '.') {
			// bash reads an equivalence class or a collating symbol;
			// sh (dash) and zsh read members up to the first "]".
			return "", 0, bracketUnreadable
		}
		if s[j] == '[' && j+1 < len(s) && s[j+1] == ':' {
			if k := strings.Index(s[j+2:], ":]"); k >= 0 {
				rs, known := posixClasses[s[j+2:j+2+k]]
				if !known {
					// bash matches nothing there, sh (dash) reads
					// members up to the first "]".
					return "", 0, bracketUnreadable
				}
				set.ranges = append(set.ranges, rs...)
				set.nonASCII = set.nonASCII || !neg
				j += 2 + k + 2
				continue
			}
		}
		lo, size := member(s[j:])
		if lo == '/' {
			return "", 0, slashIn(s[j:])
		}
		var ok bool
		if j, ok = set.rangeFrom(s, j+size, lo); !ok {
			return "", 0, bracketUnreadable
		}
	}
	if caret {
		// bash and zsh negate; sh (dash) takes the "^" as a member, and
		// a class and its complement together are any character.
		return "?", j, bracketClass
	}
	return set.pattern(neg), j, bracketClass
}

// slashIn says how brackets holding a "/" (s starts there) read: a
// literal "[" in bash and sh, which match a pattern element by element, but
// a class in zsh when a "]" closes it ("[!/]" is any character there).
func slashIn(s string) bracketState {
	if strings.IndexByte(s, ']') >= 0 {
		return bracketUnreadable
	}
	return bracketLiteral
}

// member reads one member character of a bracket expression: a rune, or a
// backslash and the rune it quotes. size is 0 when s ends first.
func member(s string) (r rune, size int) {
	if s == "" {
		return 0, 0
	}
	if s[0] == '\\' {
		if len(s) == 1 {
			return '\\', 1
		}
		r, size = utf8.DecodeRuneInString(s[1:])
		return r, size + 1
	}
	return utf8.DecodeRuneInString(s)
}

// rangeFrom adds lo, or the range lo-hi when s[j:] is "-" and a member
// other than a closing "]", and returns where the expression goes on; ok
// is false when the range ends in a bracketed element ("[d-[.e.]]"),
// which the shells read as they read such an element alone.
func (set *classSet) rangeFrom(s string, j int, lo rune) (next int, ok bool) {
	if j+1 < len(s) && s[j] == '-' && s[j+1] != ']' {
		if s[j+1] == '[' && j+2 < len(s) && strings.IndexByte(":=.", s[j+2]) >= 0 {
			return 0, false
		}
		if hi, size := member(s[j+1:]); size > 0 && hi != '/' {
			set.ranges = append(set.ranges, [2]rune{lo, hi})
			return j + 1 + size, true
		}
	}
	set.ranges = append(set.ranges, [2]rune{lo, lo})
	return j, true
}

// add adds single characters.
func (set *classSet) add(rs ...rune) {
	for _, r := range rs {
		set.ranges = append(set.ranges, [2]rune{r, r})
	}
}

// pattern returns the class in path.Match's syntax.
//
// A pattern is matched in lower case where names are compared so
// (Word.Matches with fold), which lowers a range's ends only: "[Z-_]"
// would become "[z-_]", which holds nothing. So a range is cut where
// ASCII's upper-case letters begin and end, and one whose end beyond ASCII
// lower-cases to another character gains every character beyond ASCII
// unless negated.
func (set *classSet) pattern(neg bool) string {
	var ranges [][2]rune
	for _, r := range set.ranges {
		if !neg && (unicode.ToLower(r[0]) != r[0] && r[0] >= utf8.RuneSelf || unicode.ToLower(r[1]) != r[1] && r[1] >= utf8.RuneSelf) {
			set.nonASCII = true
		}
		// A range is also cut around "/", which no bracket matches in a
		// path and which a pattern split into its elements must not hold
		// ("[!-/]", [[:punct:]]'s first range, would split there).
		for _, cut := range [][2]rune{{r[0], min(r[1], '/'-1)}, {max(r[0], '/'+1), min(r[1], 'A'-1)}, {max(r[0], 'A'), min(r[1], 'Z')}, {max(r[0], 'Z'+1), r[1]}} {
			if cut[0] <= cut[1] {
				ranges = append(ranges, cut)
			}
		}
	}
	if set.nonASCII {
		ranges = append(ranges, [2]rune{firstNonASCII, maxRune})
	}
	var b strings.Builder
	b.WriteByte('[')
	if neg {
		b.WriteByte('^')
	}
	for _, r := range ranges {
		quoteRune(&b, r[0])
		if r[1] != r[0] {
			b.WriteByte('-')
			quoteRune(&b, r[1])
		}
	}
	b.WriteByte(']')
	return b.String()
}

// quoteRune writes r as a member of a path.Match class, quoted where the
// class would read it otherwise.
func quoteRune(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf && strings.IndexByte(`\-]^`, byte(r)) >= 0 {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// PatternOf reads text, a word as written with no quotes, backslashes or
// expansions in it, as the shell's pathname expansion does: a Glob and its
// path.Match form, Static and text itself when none of its brackets is an
// expression, or Dynamic when the shells expand it differently.
func PatternOf(text string) (string, WordKind) {
	p, glob, why := matchPattern(text)
	switch {
	case why != "" || glob && !validPattern(p):
		return text, Dynamic
	case glob:
		return p, Glob
	}
	return text, Static
}

// Unescape drops the backslashes that quote a pattern's bytes (a Glob
// word's Text): the pattern read as a name, with no metacharacter.
func Unescape(pattern string) string {
	if !strings.Contains(pattern, `\`) {
		return pattern
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '\\' && i+1 < len(pattern) {
			i++
		}
		b.WriteByte(pattern[i])
	}
	return b.String()
}
