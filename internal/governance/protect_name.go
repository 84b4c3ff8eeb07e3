package governance

import "strings"

// A command line names a protected file by its name (GOVERNANCE.md,
// .envrc, audit/audit.jsonl) only where the name stands as a file name:
// the text around it does not go on as part of the same name. A directory
// called notes.GOVERNANCE.md.d, or Policy.mdX beside a referenced
// POLICY.md, names another file, and a line run there (or naming a path
// through it) does not name the protected one. Everything else that
// joins a name to the text around it still counts: quotes and backslashes
// are taken out first, and a shell expansion ($x, ${x}, $(...)), a glob,
// a brace, a redirection or any byte beyond ASCII ends a name. So does a
// run of letters glued in front of the name: programs take a file name
// glued to an option or a command letter (-oGOVERNANCE.md, sed's
// wGOVERNANCE.md), so `xGOVERNANCE.md` still names the file; a prefix
// holding a digit, a dot, '_' or '-' (notes., old-, v2_) is part of
// another name, unless it starts an option (-o, --x-y).

// nameByte reports whether b continues a file name beside a protected
// name in a command's text: ASCII letters and digits, '.', '_' and '-'.
func nameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '_' || b == '-'
}

// letterByte reports whether b is an ASCII letter.
func letterByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// namesIn reports whether text holds the name n (both in lower case)
// where it stands as a file name (see above). rotated: the location has
// rotated siblings (ProtectedPath.Rotated), "<n>.<suffix>" and
// ".<n>.<suffix>", so a '.' after n, or a lone '.' before it, still names
// the location.
func namesIn(text, n string, rotated bool) bool {
	if n == "" {
		return false
	}
	return anyIndex(text, n, func(j int) bool {
		return nameStartsAt(text, j, rotated) && nameEndsAt(text, j+len(n), n, rotated)
	})
}

// anyIndex reports whether sub occurs in s at an index j for which at(j)
// holds, trying every occurrence (overlapping ones too) in order.
func anyIndex(s, sub string, at func(j int) bool) bool {
	for i := 0; i+len(sub) <= len(s); {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		j += i
		if at(j) {
			return true
		}
		i = j + 1
	}
	return false
}

// nameStartsAt reports whether a name at text[j:] starts there as a file
// name: at the start of the text, after a byte that is no name byte, or
// after a run of name bytes that a program strips (an option, letters).
func nameStartsAt(text string, j int, rotated bool) bool {
	s := j
	for s > 0 && nameByte(text[s-1]) {
		s--
	}
	prefix := text[s:j]
	switch {
	case prefix == "", prefix[0] == '-':
		return true
	case rotated && prefix == ".":
		return true
	}
	for i := 0; i < len(prefix); i++ {
		if !letterByte(prefix[i]) {
			return false
		}
	}
	return true
}

// nameEndsAt reports whether a name n ending at text[:end] ends there as
// a file name: at the end of the text, before a byte that is no name
// byte, or (rotated) before a '.'. A name ending in '/' (a directory)
// ends wherever the text goes on.
func nameEndsAt(text string, end int, n string, rotated bool) bool {
	switch {
	case end == len(text), strings.HasSuffix(n, "/"):
		return true
	case rotated && text[end] == '.':
		return true
	}
	return !nameByte(text[end])
}
