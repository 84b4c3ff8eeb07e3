package shellcmd

import "strings"

// A $'...' string may make a NUL byte ($'\x00', $'\0', $'\c@'), which the
// shells read differently: bash drops it and the rest of that string
// (r$'\0'm is rm, and git pu$'\0'sh runs git push), while zsh keeps it
// in the word and the program it starts gets the word up to it (rm$'\0'x
// runs rm). A grammar reading the word whole sees a name no rule
// matches. The word's value keeps the NUL, which refuses it as a path
// (no file name holds one), with what bash drops after it ended by a
// second NUL; each command holding such a word is also read as bash reads
// it and as zsh does (nulReadings).

// nulMarked returns the decoded text of a $'...' string with what bash
// drops of it, from its first NUL on, held between two NULs (no other NUL
// in it), or the text itself where it holds none.
func nulMarked(s string) string {
	i := strings.IndexByte(s, 0)
	if i < 0 {
		return s
	}
	return s[:i] + "\x00" + strings.ReplaceAll(s[i+1:], "\x00", "") + "\x00"
}

// nulReadings returns form as bash reads it and as zsh does, where a word
// holds a NUL a $'...' string made (nulMarked), and nothing otherwise.
func nulReadings(form []Word) [][]Word {
	held := false
	for _, wd := range form {
		if wd.Kind == Static && strings.IndexByte(wd.Text, 0) >= 0 {
			held = true
			break
		}
	}
	if !held {
		return nil
	}
	bash, zsh := make([]Word, len(form)), make([]Word, len(form))
	for i, wd := range form {
		bash[i], zsh[i] = wd, wd
		if wd.Kind != Static {
			continue
		}
		bash[i].Text = bashDropped(wd.Text)
		zsh[i].Text, _, _ = strings.Cut(wd.Text, "\x00")
	}
	return [][]Word{bash, zsh}
}

// bashDropped returns s without what each marked NUL holds (nulMarked).
func bashDropped(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		if j := strings.IndexByte(s, 0); j >= 0 {
			s = s[j+1:]
		}
	}
}
