package shellcmd

import (
	"path"
	"strings"
)

// zsh applies several modifiers in a row (x=RM.C; $x:l:r x runs rm x),
// which no one bash operator spells, so the zsh reading of a line leaves
// them unread and the line needs approval (zsh_modifiers.go). Where the
// line shows the parameter's value, the bridge applies them itself: the
// line is also read with the expansion replaced by each value they give
// (zshModifiedReadings), and the commands of that reading are decided as
// the line's. Modifiers it does not apply (:a, :A, :P, :q, :Q, :x, :&, a
// count after :h or :t, a pattern in :s) leave the line needing approval
// only.

// maxModifiedReadings bounds the readings one line's modifiers give.
const maxModifiedReadings = 8

// zshModifiedReadings returns src with each unread expansion (as
// zshSubscripted lists them) replaced by the value its modifiers give each
// value the line shows for its parameter.
func (w *walker) zshModifiedReadings(src string, unread []string) []string {
	readings := []string{src}
	for _, u := range unread {
		name, mods, ok := modifiedExpansion(u)
		if !ok {
			continue
		}
		var next []string
		for _, v := range w.knownValues(name).Values {
			got, ok := applyZshModifiers(v, mods)
			if !ok {
				next = nil
				break
			}
			for _, r := range readings {
				next = append(next, strings.ReplaceAll(r, u, singleQuoted([]string{got})))
			}
		}
		if len(next) > 0 && len(next) <= maxModifiedReadings {
			readings = next
		}
	}
	if len(readings) == 1 && readings[0] == src {
		return nil
	}
	return readings
}

// modifiedExpansion splits "$x:m1:m2" or "${x:m1:m2}" into the name and
// the modifiers' text (":m1:m2"); ok is false for anything else.
func modifiedExpansion(u string) (name, mods string, ok bool) {
	s, braced := strings.CutPrefix(u, "${")
	if !braced {
		if s, ok = strings.CutPrefix(u, "$"); !ok {
			return "", "", false
		}
	} else if s, ok = strings.CutSuffix(s, "}"); !ok {
		return "", "", false
	}
	n := nameEnd(s)
	if n == 0 || n >= len(s) || s[n] != ':' {
		return "", "", false
	}
	return s[:n], s[n:], true
}

// applyZshModifiers applies mods (":l:r", ":gs/a/b/") to v as zsh does;
// ok is false where one is not among those it applies.
func applyZshModifiers(v, mods string) (string, bool) {
	for i := 0; i < len(mods); {
		if mods[i] != ':' || i+1 >= len(mods) {
			return "", false
		}
		c, j := mods[i+1], i+2
		global := c == 'g'
		if global {
			if j >= len(mods) {
				return "", false
			}
			c, j = mods[j], j+1
		}
		switch c {
		case 'l':
			v = strings.ToLower(v)
		case 'u':
			v = strings.ToUpper(v)
		case 'r':
			if ext := path.Ext(v); ext != "" && !strings.Contains(ext, "/") {
				v = v[:len(v)-len(ext)]
			}
		case 'e':
			ext := path.Ext(v)
			v = strings.TrimPrefix(ext, ".")
		case 't':
			v = v[strings.LastIndexByte(v, '/')+1:]
		case 'h':
			if k := strings.LastIndexByte(v, '/'); k > 0 {
				v = v[:k]
			} else if k == 0 {
				v = "/"
			} else {
				v = "."
			}
		case 's':
			from, to, end, ok := zshSubstitution(mods, j)
			if !ok || strings.ContainsAny(from+to, "*?[\\&") {
				return "", false
			}
			if global {
				v = strings.ReplaceAll(v, from, to)
			} else {
				v = strings.Replace(v, from, to, 1)
			}
			j = end
		default:
			return "", false
		}
		if j < len(mods) && isDigit(mods[j]) {
			return "", false // :h2, :t2
		}
		i = j
	}
	return v, true
}
