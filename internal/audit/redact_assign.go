package audit

import (
	"math/bits"
	"strings"
)

// The regular-expression rules in redact.go find secrets by their shape or
// by a few words before them. Secrets an agent puts on a command line
// mostly have no shape: what gives them away is the name they are assigned
// to (PGPASSWORD=..., DB_PASS=..., //registry/:_authToken=...,
// --password ..., aws_secret_access_key ...). redactAssignments finds those
// by the name, whatever it is prefixed with, using the same test as object
// keys (isSecretKey), so a name that hides a secret in a JSON member hides
// it in a command line too.

// redactAssignments replaces the value of every assignment whose name
// names a secret:
//
//   - NAME=value, NAME: value, "NAME": "value" (env, config, headers);
//   - --NAME value, -NAME value (command-line flags);
//   - a compound name (with '_', '-' or '.') followed by a space and a
//     value that looks random (aws configure set aws_secret_access_key X).
//
// Values already replaced by a marker are left alone. It also returns how
// many values it replaced.
func redactAssignments(s string) (string, int) {
	var b strings.Builder
	last, n := 0, 0
	// sepSince is 1 when a '_', '-' or '.' came after the last byte that
	// is not in a name: a space takes a value only after a name with a
	// separator, which in prose almost no word has, so most spaces are
	// passed over without looking back at the word before them. It is
	// kept with bit operations from assignFlags, so that the loop
	// branches only on the bytes that may start a value (prose changes
	// class every few bytes, and a branch on each change is mispredicted).
	var sepSince uint8
	for i := 0; i < len(s); i++ {
		if sepSince == 0 {
			// Bytes other than a separator, '=' and ':' change
			// nothing until one comes: no value starts at them (a
			// space takes one only after a separator) and sepSince
			// stays 0.
			if i = nextAssignByte(s, i); i == len(s) {
				break
			}
		}
		f := assignFlags[s[i]]
		// An '=' or ':', or a space or tab after a separator.
		maybe := f >> flagAssignShift & (f>>flagSpaceShift&1 ^ 1 | sepSince)
		sepSince = (sepSince | f&flagSep) &^ (f >> flagOtherShift & 1)
		if maybe == 0 {
			continue
		}
		c := s[i]
		nameStart, nameEnd := assignedName(s, i)
		if nameStart < last || nameEnd <= nameStart {
			continue
		}
		name := s[nameStart:nameEnd]
		// The cheap tests first: in prose every space ends a name.
		if c == ' ' || c == '\t' {
			// Only flags and compound names (with '_', '-' or '.', so
			// a flag's leading dash counts) take a value after a space,
			// and only a value that does not read as a word.
			if nameEnd != i || !hasNameSeparator(name) {
				continue
			}
		} else if c == ':' && i+1 < len(s) && s[i+1] == '/' {
			continue // a URL scheme, not an assignment
		}
		flag := strings.HasPrefix(name, "-")
		bare := strings.TrimLeft(name, "-")
		if !isSecretName(bare) {
			continue
		}
		vs, ve, ok := assignedSecret(s, i, flag)
		if !ok {
			continue
		}
		b.WriteString(s[last:vs])
		b.WriteString("[REDACTED:secret-pair]")
		last = ve
		i = ve - 1
		n++
		// The bytes up to ve are not looked at: a name that starts
		// among them starts before last and is passed over anyway.
		sepSince = 0
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// assignedName finds the name before the separator at s[i]: a run of
// letters, digits, '_', '-' and '.', possibly followed by a closing quote
// and spaces (`"password" : ...`). Flags keep their leading dashes.
func assignedName(s string, i int) (start, end int) {
	j := i
	if s[i] == '=' || s[i] == ':' {
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
			j--
		}
	}
	end = j
	for j > 0 && isNameByte(s[j-1]) {
		j--
	}
	return j, end
}

// hasNameSeparator reports whether name holds a '_', '-' or '.'.
func hasNameSeparator(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '_' || c == '-' || c == '.' {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.'
}

// nextAssignByte returns the index of the first '_', '-', '.', '=' or
// ':' in s at or after i, looking at eight bytes a step as wordRun does;
// in the last seven bytes of s it returns i, for the caller to look at
// them a byte at a time.
func nextAssignByte(s string, i int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for ; i+8 <= len(s); i += 8 {
		r := s[i : i+8] // one bounds check, not eight
		w := uint64(r[0]) | uint64(r[1])<<8 | uint64(r[2])<<16 | uint64(r[3])<<24 |
			uint64(r[4])<<32 | uint64(r[5])<<40 | uint64(r[6])<<48 | uint64(r[7])<<56
		// A byte of w equal to c is a zero byte of x = w^(c*ones);
		// (x-ones)&^x has the high bit of the first zero byte of x set,
		// and none below it.
		a, b, c, d, e := w^'_'*ones, w^'-'*ones, w^'.'*ones, w^'='*ones, w^':'*ones
		m := ((a-ones)&^a | (b-ones)&^b | (c-ones)&^c | (d-ones)&^d | (e-ones)&^e) & highs
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return i
}

// Flags of bytes for redactAssignments' scan.
const (
	flagSep         = 1 << iota // '_', '-' or '.': part of a name
	flagOther                   // ends a name: neither a letter, a digit nor a separator
	flagAssign                  // '=', ':', ' ' or '\t': may end a name and start its value (also flagOther)
	flagSpace                   // ' ' or '\t' (also flagAssign)
	flagOtherShift  = 1
	flagAssignShift = 2
	flagSpaceShift  = 3
)

// assignFlags are the flags of each byte.
var assignFlags = func() (fl [256]uint8) {
	for c := range 256 {
		switch {
		case c == '_' || c == '-' || c == '.':
			fl[c] = flagSep
		case isAlnum(byte(c)):
		case c == ' ' || c == '\t':
			fl[c] = flagOther | flagAssign | flagSpace
		case c == '=' || c == ':':
			fl[c] = flagOther | flagAssign
		default:
			fl[c] = flagOther
		}
	}
	return fl
}()

// assignedSecret finds the value assigned at the separator s[i] to a name
// that names a secret (a flag when flag), and says whether it is one to
// replace: an empty value is not, nor one after a space that reads as a
// word unless the name is a flag.
func assignedSecret(s string, i int, flag bool) (start, end int, ok bool) {
	spaced := s[i] == ' ' || s[i] == '\t'
	start, end = assignedValue(s, i+1, spaced)
	return start, end, end > start && (flag || !spaced || looksRandom(s[start:end]))
}

// assignedValue finds the value that starts at s[i] (after spaces unless
// spaced, a quoted string, or up to the next separator).
func assignedValue(s string, i int, spaced bool) (start, end int) {
	if !spaced {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	if i >= len(s) || s[i] == '[' || s[i] == '-' && spaced {
		return i, i
	}
	if q := s[i]; q == '"' || q == '\'' {
		if k := strings.IndexByte(s[i+1:], q); k >= 0 {
			return i + 1, i + 1 + k
		}
		i++
	}
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\r\n&;,'\"", rune(s[j])) {
		j++
	}
	return i, j
}

// isSecretName reports whether an assigned name names a secret: a secret
// object key (isSecretKey), or a name with a secret word among its parts
// (DB_PASS, SECRET_KEY_BASE).
// The shell's PWD and OLDPWD are directories, not passwords.
func isSecretName(name string) bool {
	if name == "PWD" || name == "OLDPWD" {
		return false
	}
	if isSecretKey(name) {
		return true
	}
	// A secret word anywhere among the name's parts: SECRET_KEY_BASE,
	// DB_PASS, TOKEN_FILE_CONTENT.
	for part := range strings.FieldsFuncSeq(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		for _, w := range secretWords {
			if strings.EqualFold(part, w) {
				return true
			}
		}
	}
	return false
}

// secretWords are the parts of an assigned name that make it a secret's.
var secretWords = []string{"secret", "password", "passwd", "passphrase", "pass", "token", "apikey", "credential", "credentials"}

// looksRandom reports whether a word after a secret's name reads as the
// secret rather than prose: at least 8 bytes with both letters and digits,
// or 16 bytes of any kind.
func looksRandom(v string) bool {
	if len(v) >= 16 {
		return true
	}
	if len(v) < 8 {
		return false
	}
	return strings.ContainsAny(v, "0123456789") && strings.IndexFunc(v, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' }) >= 0
}
