package shellcmd

import "strings"

// bash decodes a prompt string's backslash escapes before it expands the
// result (${X@P}, and PS1, PS2 and PS4 where it prints them): \NNN, three
// octal digits, is the byte they give, so X='\044(rm x)'; echo ${X@P}
// expands $(rm x) and runs rm x, though the value holds no $. The escapes
// that give the shell's own values (\w, \u, \h, ...) and \D{...} are quoted
// by bash before the expansion and give no code.

// promptText returns value with the escapes bash decodes into characters
// of its choosing (three octal digits) decoded, as the expansion that
// follows reads it; a \\ stays, escaping the backslash it leaves.
func promptText(value string) string {
	if !strings.Contains(value, `\`) {
		return value
	}
	var b strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c != '\\' || i+1 == len(value) {
			b.WriteByte(c)
			continue
		}
		if i+3 < len(value) && octalDigits(value[i+1:i+4]) {
			n := (int(value[i+1]-'0')<<6 | int(value[i+2]-'0')<<3 | int(value[i+3]-'0')) & 0xff
			b.WriteByte(byte(n))
			i += 3
			continue
		}
		b.WriteByte(c)
		b.WriteByte(value[i+1])
		i++
	}
	return b.String()
}

// octalDigits reports whether s is made of octal digits only.
func octalDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}

// promptCode walks, as bash expands them, the static values of a variable
// expanded as a prompt whose escapes decode to an expansion: its commands
// are the line's.
func (w *walker) promptCode(as []Assignment) {
	for _, a := range as {
		if !a.Static {
			continue
		}
		if text := promptText(a.Value); text != a.Value && strings.ContainsAny(text, "$`") {
			w.line(": "+hereDocument(text), 1, dialectsOf("bash"))
		}
	}
}

// indirectPrompt checks ${!X@P}, which expands as a prompt the value of the
// variable X's value names: each name the line gives X is evaluated so,
// and a value that is not a name is not known.
func (w *walker) indirectPrompt(e evaluation, byName map[string][]Assignment, aliased bool) {
	for _, a := range byName[e.name] {
		if !a.Static || !validName(a.Value) {
			continue // the evaluation of X's value as a name says why
		}
		target := evaluation{name: a.Value, use: evalPrompt, where: e.where}
		w.promptCode(byName[target.name])
		if why := w.unknownValue(target, byName, aliased); why != "" {
			w.problem("bash evaluates %s in %s as code, running any command substitution it holds, and %s", evaluatedWhat(target), e.where, why)
		}
	}
}
