package compress

// errnoNames are the errno names findErrorCodes recognises after an "E".
var errnoNames = []string{"NOENT", "ACCES", "PERM", "CONNREFUSED", "CONNRESET", "ADDRINUSE", "EXIST", "ISDIR",
	"NOTDIR", "TIMEDOUT", "PIPE", "NOMEM", "INVAL", "NOSPC", "NOTEMPTY"}

// findErrorCodes returns up to max error identifiers worth keeping across a
// summary, in order: compiler and linter codes (TS2304, E0308, SC2086:
// one to four capitals and three to five digits), errno names (ENOENT),
// Node's ERR_* codes and "status 503" or "exit code 2" phrases, each a
// whole word. It finds what the regular expression errorCode finds
// (TestFindErrorCodesMatchesRegexp) in one pass over text, several times
// faster: it runs on every command output.
func findErrorCodes[T string | []byte](text T, max int) []string {
	var out []string
	// i is always at the start of text or just after a byte that is not
	// part of a word: a code starts only there, so the rest of a word that
	// starts none is skipped at once.
	for i := 0; i < len(text) && len(out) < max; {
		c := text[i]
		if !wordByte[c] {
			i++
			continue
		}
		if startsCode(c) {
			if n := matchCodeAt(text, i); n > 0 {
				// A code ends where its word does.
				out = append(out, string(text[i:i+n]))
				i += n
				continue
			}
		}
		for i++; i < len(text) && wordByte[text[i]]; i++ {
		}
	}
	return out
}

func startsCode(c byte) bool { return 'A' <= c && c <= 'Z' || c == 's' || c == 'e' }

// wordByte holds the bytes of a word: letters, digits and the underscore.
var wordByte = func() (t [256]bool) {
	for c := range t {
		t[c] = isWordByte(byte(c))
	}
	return t
}()

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// wordEnds reports whether a word ends at j in s.
func wordEnds[T string | []byte](s T, j int) bool { return j >= len(s) || !isWordByte(s[j]) }

// hasPrefixAt reports whether s[i:] starts with p.
func hasPrefixAt[T string | []byte](s T, i int, p string) bool {
	return len(s)-i >= len(p) && string(s[i:i+len(p)]) == p
}

// run returns the length of the run of bytes in s from i that ok accepts.
func run[T string | []byte](s T, i int, ok func(byte) bool) int {
	j := i
	for j < len(s) && ok(s[j]) {
		j++
	}
	return j - i
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// matchCodeAt returns the length of the error code starting at s[i], or 0.
func matchCodeAt[T string | []byte](s T, i int) int {
	switch s[i] {
	case 's':
		return matchNumberAfter(s, i, "status ")
	case 'e':
		return matchNumberAfter(s, i, "exit code ")
	}
	if u := run(s, i, isUpper); u >= 1 && u <= 4 {
		if d := run(s, i+u, isDigit); d >= 3 && d <= 5 && wordEnds(s, i+u+d) {
			return u + d
		}
	}
	if s[i] == 'E' {
		for _, name := range errnoNames {
			if hasPrefixAt(s, i+1, name) && wordEnds(s, i+1+len(name)) {
				return 1 + len(name)
			}
		}
		if hasPrefixAt(s, i, "ERR_") {
			r := run(s, i+4, func(c byte) bool { return isUpper(c) || isDigit(c) || c == '_' })
			if r >= 3 && wordEnds(s, i+4+r) {
				return 4 + r
			}
		}
	}
	return 0
}

// matchNumberAfter returns the length of phrase and the number of one to
// three digits after it at s[i] ("status 503"), or 0.
func matchNumberAfter[T string | []byte](s T, i int, phrase string) int {
	if !hasPrefixAt(s, i, phrase) {
		return 0
	}
	if d := run(s, i+len(phrase), isDigit); d >= 1 && d <= 3 && wordEnds(s, i+len(phrase)+d) {
		return len(phrase) + d
	}
	return 0
}
