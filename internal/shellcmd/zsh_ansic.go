package shellcmd

import (
	"fmt"
	"strings"
)

// zsh decodes a $'...' string otherwise than bash where an escape is not
// one of those the two share: a backslash before a character with no
// meaning is dropped (zsh reads $'\.env' as .env and $'r\m' as rm, bash
// keeps the backslash), \C-X is a control character and \M-X a meta one
// (bash keeps them as written), \c is the letter c (bash: a control
// character), and \x with no hex digit a NUL. zshANSIC decodes as zsh
// does; the zsh reading of a line (zsh_subscripts.go) puts a string zsh
// decodes otherwise in the form bash reads alike, each byte an \xHH.

// zshANSIC decodes the text of a $'...' string as zsh does.
func zshANSIC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch {
		case strings.IndexByte("abeEfnrtv\\'\"01234567uU", c) >= 0:
			// Read as bash reads them: the escape and what it takes.
			j := i + 1
			switch {
			case c >= '0' && c <= '7':
				for n := 0; n < 2 && j < len(s) && s[j] >= '0' && s[j] <= '7'; n++ {
					j++
				}
			case c == 'u' || c == 'U':
				most := 4
				if c == 'U' {
					most = 8
				}
				for n := 0; n < most && j < len(s) && hexDigit(s[j]) >= 0; n++ {
					j++
				}
			}
			b.WriteString(ansiC(s[i-1 : j]))
			i = j - 1
		case c == 'x':
			v, n := 0, 0
			for ; n < 2 && i+1 < len(s) && hexDigit(s[i+1]) >= 0; n++ {
				i++
				v = v*16 + hexDigit(s[i])
			}
			b.WriteByte(byte(v)) // none is a NUL
		case (c == 'C' || c == 'M') && i+2 < len(s) && s[i+1] == '-':
			x := s[i+2]
			i += 2
			if c == 'M' {
				b.WriteByte(x | 0x80)
			} else if x == '?' {
				b.WriteByte(0x7f)
			} else {
				b.WriteByte(x & 0x1f)
			}
		default:
			b.WriteByte(c) // \c, \q, \.: the character itself
		}
	}
	return b.String()
}

// zshDollarQuoted returns the text bash reads as zsh's decoding of the
// $'...' string body, and false where bash decodes it alike.
func zshDollarQuoted(body string) (string, bool) {
	z := zshANSIC(body)
	if z == ansiC(body) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(z); i++ {
		fmt.Fprintf(&b, `\x%02x`, z[i])
	}
	return b.String(), true
}
