package shellcmd

import (
	"regexp"
	"strings"
)

// zsh's EXTENDED_GLOB option, which a setopt on the line or the ~/.zshrc an
// IDE's zsh -i reads turns on, makes two more characters of an unquoted word
// pattern operators where bash and sh read them as written:
//
//   - "x#" is zero or more of x and "x##" one or more (x a character, a
//     bracket expression, ? or *): "cat .en#v" and "cat .envX#" read .env.
//   - "p~q" is what p matches but q does not: "cat .e*~x" reads .env, and
//     "sed -i s/a/b/ *~x" edits the policy.
//
// No one pattern covers such a word (".envX#" is ".env" and ".envX…"; "*"
// for it would make "echo C#" name every file), so a command holding one
// is also decided in each reading the operators allow (zshExtendedReadings),
// the strictest decision standing. Its "x^y" is read in matchPattern
// (zshNegation); a "^" first in a path element, far more often a regular
// expression's anchor (grep ^func main.go), is read as zsh's negation,
// every name there but the dotfiles, only after a command of the line may
// have turned the option on (zshExtendedGlobOption): setopt extendedglob;
// sed -i s/a/b/ ^x edits the policy.

// maxZshRepeats bounds the "#" operators a command's readings spell out:
// each doubles them. A command with more is asked about.
const maxZshRepeats = 4

// zshExtendedReadings returns form in each reading zsh with EXTENDED_GLOB
// gives its words' "#" and "~" operators (Word.zshPattern), and its "^"
// first in a path element where caret says the line may have turned the
// option on; nothing where no word holds one.
func zshExtendedReadings(form []Word, caret bool) [][]Word {
	held, repeats := false, 0
	words := make([][]Word, len(form))
	for i, wd := range form {
		if words[i] = zshExtendedWords(wd, caret); words[i] != nil {
			held = true
			repeats += zshRepeats(wd.zshPattern)
		}
	}
	if !held {
		return nil
	}
	readings := [][]Word{nil}
	for i, wd := range form {
		alts := words[i]
		switch {
		case alts == nil:
			alts = []Word{wd}
		case repeats > maxZshRepeats:
			alts = []Word{zshTooManyRepeats(wd)}
		}
		next := make([][]Word, 0, len(readings)*len(alts))
		for _, r := range readings {
			for _, a := range alts {
				next = append(next, append(r[:len(r):len(r)], a))
			}
		}
		readings = next
	}
	return readings
}

// zshExtendedWords returns the words wd may be to zsh with EXTENDED_GLOB
// (zshExtendedPatterns; caret as there), or nothing where wd holds no
// operator of it.
func zshExtendedWords(wd Word, caret bool) []Word {
	if wd.zshPattern == "" {
		return nil
	}
	if zshRepeats(wd.zshPattern) > maxZshRepeats {
		return []Word{zshTooManyRepeats(wd)}
	}
	pats := zshExtendedPatterns(wd.zshPattern, caret)
	if len(pats) == 1 && pats[0] == wd.zshPattern {
		return nil
	}
	var out []Word
	for _, p := range pats {
		out = append(out, patternAsWord(p))
	}
	return out
}

// zshTooManyRepeats is wd, which holds more "#" operators than the bridge
// spells out, as a word known only when the line runs.
func zshTooManyRepeats(wd Word) Word {
	return Word{Kind: Dynamic, Text: Unescape(wd.zshPattern),
		Why: "zsh's EXTENDED_GLOB x#, which repeats what comes before it, more times than the bridge spells out"}
}

// zshRepeats counts the "#" no backslash quotes in pat.
func zshRepeats(pat string) int {
	n := 0
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '#':
			n++
		}
	}
	return n
}

// patternAsWord is the word a pattern in quoteRemoval's form reads as:
// a Glob, a Static word once its escapes are dropped where it holds no
// metacharacter, or Dynamic where the shells read it differently.
func patternAsWord(pat string) Word {
	p, glob, why := matchPattern(pat)
	switch {
	case why != "":
		return Word{Kind: Dynamic, Text: Unescape(pat), Why: why}
	case glob && !validPattern(p):
		return Word{Kind: Dynamic, Text: Unescape(pat), Why: "a pattern the bridge cannot read"}
	case glob:
		return Word{Kind: Glob, Text: p}
	}
	return Word{Kind: Static, Text: Unescape(pat)}
}

// zshExtendedPatterns returns patterns (in quoteRemoval's form, a quoted
// byte escaped with a backslash) that together match every name zsh with
// EXTENDED_GLOB expands pat to: what comes before its first "~" (the names
// the exclusion keeps are among them), with each "x#" once as nothing and
// once as "x*" (x and any more of it), and each "x##" as "x*". With caret,
// a "^" first in a path element is "*" to the element's end.
func zshExtendedPatterns(pat string, caret bool) []string {
	if i := unescapedIndex(pat, '~'); i > 0 {
		pat = pat[:i]
	}
	out := []string{""}
	for i := 0; i < len(pat); {
		if caret && pat[i] == '^' && (i == 0 || pat[i-1] == '/') {
			for i < len(pat) && pat[i] != '/' {
				i++
			}
			for k := range out {
				out[k] += "*"
			}
			continue
		}
		n := patternElement(pat[i:])
		elem := pat[i : i+n]
		i += n
		if i >= len(pat) || pat[i] != '#' || elem == "/" {
			for k := range out {
				out[k] += elem
			}
			continue
		}
		i++
		once := i < len(pat) && pat[i] == '#' // x##: one or more
		if once {
			i++
		}
		next := make([]string, 0, 2*len(out))
		for _, o := range out {
			if !once {
				next = append(next, o)
			}
			next = append(next, o+elem+"*")
		}
		out = next
	}
	return out
}

// patternElement returns the length of the pattern element pat starts
// with: an escaped byte, a bracket expression, or one character.
func patternElement(pat string) int {
	switch {
	case pat[0] == '\\' && len(pat) > 1:
		return 2
	case pat[0] == '[':
		if _, n, state := bracket(pat[1:]); state == bracketClass {
			return n + 1
		}
	}
	n := 1
	for n < len(pat) && pat[n]&0xc0 == 0x80 {
		n++ // the rest of a UTF-8 character
	}
	return n
}

// unescapedIndex returns the index of the first c in pat that no
// backslash quotes, or -1.
func unescapedIndex(pat string, c byte) int {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case c:
			return i
		}
	}
	return -1
}

// ZshExtendedWords returns the words zsh with EXTENDED_GLOB may read text,
// a name a variable's value gave a word outside double quotes, as where
// GLOB_SUBST (or $~x) makes that value a pattern: nothing where its
// operators are not in it.
func ZshExtendedWords(text string) []Word {
	pat := escapedPattern(text)
	if len(text) < 2 || zshRepeats(pat[1:]) == 0 && (unescapedIndex(pat[1:], '~') < 0 || !strings.ContainsAny(text, "*?[^")) {
		return nil
	}
	return zshExtendedWords(Word{Kind: Static, Text: text, zshPattern: pat}, false)
}

// escapedPattern is text as a pattern in quoteRemoval's form, its
// backslashes quoting the byte after them as zsh reads a value GLOB_SUBST
// makes a pattern.
func escapedPattern(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && i+1 < len(text) {
			i++
			writeEscaped(&b, text[i:i+1])
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// zshExtendedGlobOption reports whether words may turn on zsh's
// EXTENDED_GLOB: setopt or set -o naming it (zsh reads an option's name
// without regard to case or "_", and "no" before it turns it off, so
// unsetopt noextendedglob turns it on), setopt -m (its names are
// patterns), emulate (a mode may set it), set -A or +A filling zsh's
// options array (set -A options extendedglob on), a zsh started with it
// (zshInvokedExtendedGlob), or any of those with a word known only when the
// line runs. words is a command as the shell runs it, its precommand
// modifiers taken off (builtin setopt, noglob setopt: walker.build).
func zshExtendedGlobOption(words []Word) bool {
	if len(words) < 2 || words[0].Kind != Static {
		return false
	}
	head := words[0].Name()
	var on bool
	switch head {
	case "setopt", "set":
		on = true
	case "unsetopt":
	case "emulate":
		return true
	case "zsh":
		return zshInvokedExtendedGlob(words[1:])
	default:
		return false
	}
	setO := false // the word after set -o or +o is an option's name
	setA := false // the word after set -A or +A is the array it fills
	for _, wd := range words[1:] {
		if wd.Kind != Static {
			return true
		}
		t := wd.Text
		if setA {
			if t == "options" {
				return true
			}
			setA = false
			continue
		}
		if head == "set" && !setO {
			if len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-' {
				switch {
				case strings.HasSuffix(t, "o"):
					setO, on = true, t[0] == '-'
				case strings.ContainsRune(t[1:], 'A'):
					setA = true
				}
			}
			continue
		}
		setO = false
		if head != "set" && t == "-m" {
			return true
		}
		name := strings.ToLower(strings.ReplaceAll(t, "_", ""))
		if name == "extendedglob" && on || name == "noextendedglob" && !on {
			return true
		}
	}
	return false
}

// zshInvokedExtendedGlob reports whether the options of a zsh started with
// args may turn EXTENDED_GLOB on: --extendedglob (or --extended-glob,
// --extended_glob) or -o naming it, up to the first word that is not an
// option.
func zshInvokedExtendedGlob(args []Word) bool {
	for i, wd := range args {
		if wd.Kind != Static {
			return true
		}
		t := wd.Text
		if t == "-c" || !strings.HasPrefix(t, "-") || t == "--" {
			return false
		}
		name := strings.TrimLeft(t, "-")
		if t == "-o" && i+1 < len(args) {
			name = args[i+1].Text
		}
		if strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name)) == "extendedglob" {
			return true
		}
	}
	return false
}

// optionsAssignment matches text that may assign zsh's options array, or
// an element of it: options[NAME]=on, options=(...), options+=(...), and
// the ${options::=...} and ${(AA)=options::=...} expansions, which no
// grammar here parses.
var optionsAssignment = regexp.MustCompile(`options(\[|\+?=|::?=)`)

// zshOptionsAssigned reports whether src may assign zsh's options array
// (optionsAssignment), which turns on the options it names: after
// options=(extendedglob on) a "^" first in a path element is zsh's
// negation. An assignment the walker reads is also caught where it is
// made (walker.assign); this catches those in text it cannot parse.
func zshOptionsAssigned(src string) bool {
	return strings.Contains(src, "options") && optionsAssignment.MatchString(src)
}
