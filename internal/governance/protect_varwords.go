package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
	"mvdan.cc/sh/v3/syntax"
)

// A word built at run time from variables the same line gives static
// values names what those values make: "a=GOVERNANCE; echo x > $a.md"
// writes the policy although no word holds its name and the static text
// of "$a.md" is too short to count as one (couldJoin). Each such word is
// also read with every static value the line assigns to each variable it
// expands put in place, and a value holding a pattern ("p='*.md'; sed -i
// s/a/b/ $p") is expanded where the command runs, so self-protection sees
// the names the shell will.

// maxVarWords bounds the words one run-time word yields: the product of
// the values its variables may hold.
const maxVarWords = 64

// maxVarGlobEntries bounds the directory entries read to expand the
// patterns such words hold.
const maxVarGlobEntries = 20000

// assignedValues returns, by variable name, the static values the line a
// gives each variable (NAME+=v appended to each value before it).
func assignedValues(a *shellcmd.Analysis) map[string][]string {
	var vals map[string][]string
	for _, as := range a.Assignments {
		if !as.Static || as.Name == "" {
			continue
		}
		if vals == nil {
			vals = map[string][]string{}
		}
		prev := vals[as.Name]
		if as.Append && len(prev) > 0 {
			for _, p := range prev {
				if len(vals[as.Name]) < maxVarWords {
					vals[as.Name] = append(vals[as.Name], p+as.Value)
				}
			}
			continue
		}
		if len(prev) < maxVarWords {
			vals[as.Name] = append(prev, as.Value)
		}
	}
	return vals
}

// substitutedWords returns the words text (a word as written) makes with
// each of vals' values in place of each plain expansion of a variable
// ($a, ${a}, "$a", an element ${a[i]}) and of each expansion whose
// operator gives a value known from the line (shellcmd.ParamValues: ${a:-x},
// ${a#x}, ${a,,}, ...), or nil where the word expands something else or
// a variable vals holds no value of.
func substitutedWords(text string, vals map[string][]string) []string {
	if !strings.Contains(text, "$") {
		return nil
	}
	call := oneWordCall(text)
	if call == nil {
		return nil
	}
	out := []string{""}
	lit := func(s string) {
		for i := range out {
			out[i] += s
		}
	}
	param := func(p *syntax.ParamExp) bool {
		vs, ok := shellcmd.ParamValues(p, func(name string) shellcmd.Held { return shellcmd.HeldValues(vals[name]) })
		if !ok || len(vs) == 0 || len(out)*len(vs) > maxVarWords {
			return false
		}
		next := make([]string, 0, len(out)*len(vs))
		for _, o := range out {
			for _, v := range vs {
				next = append(next, o+v)
			}
		}
		out = next
		return true
	}
	for _, part := range call.Args[0].Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			lit(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return nil
			}
			lit(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return nil
			}
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					lit(q.Value)
				case *syntax.ParamExp:
					if !param(q) {
						return nil
					}
				default:
					return nil
				}
			}
		case *syntax.ParamExp:
			if !param(p) {
				return nil
			}
		default:
			return nil
		}
	}
	return out
}

// addVarWords adds to cw the words each run-time word of the lines makes
// with the static values its line assigns (substitutedWords), and the
// names a pattern among them matches from cwd.
func (cw *cmdWords) addVarWords(lines []*shellcmd.Analysis, cwd string, add func(shellcmd.Word)) {
	budget := maxVarGlobEntries
	for _, a := range lines {
		vals := assignedValues(a)
		if len(vals) == 0 {
			continue
		}
		each := func(w shellcmd.Word) {
			if w.Kind != shellcmd.Dynamic {
				return
			}
			for _, s := range substitutedWords(w.Text, vals) {
				add(shellcmd.Word{Kind: shellcmd.Static, Text: s})
				if !hasGlobMeta(s) {
					continue
				}
				pat := s
				if !filepath.IsAbs(pat) {
					pat = filepath.Join(cwd, pat)
				}
				names, _ := boundedGlob(pat, &budget)
				for _, n := range names {
					add(shellcmd.Word{Kind: shellcmd.Static, Text: n})
				}
			}
		}
		eachWord([]*shellcmd.Analysis{a}, each)
	}
}
