package shellcmd

import (
	"slices"
	"testing"
)

// TestScriptToolSources reads where sed and awk take their script: from
// options after an operand (GNU sed permutes them), from a descriptor the
// statement feeds ("-f -", /dev/stdin, /dev/fd/N), from both -e scripts
// when one runs a command and another opens a file. Each rm x the script
// gives is a command of the line; what cannot be known (an option the
// bridge does not read, a script from a pipe, a file, gawk's libraries)
// is noted with a kind no rule vouches for (not RunsCode), so that a
// rule allowing sed or awk does not allow it. Without the fix "sed p
// a.txt -e 'e rm x'" ran rm x unseen, "sed -f - <<< 'e rm x'" and "awk
// -W exec s.awk" were vouched for by the rule, and a script that ran
// echo and read .env (r .env) was not noted as opening a file.
func TestScriptToolSources(t *testing.T) {
	for _, tt := range []struct {
		line   string
		runsRm bool
		// vouched: a rule naming the tool vouches for what the analysis
		// notes of it (every note is RunsCode, or there is none).
		vouched bool
		opens   bool // noted as opening files its script names
	}{
		{"sed -n 1,5p a.txt", false, true, false},
		{"sed -i s/a/b/ a.txt", false, true, false},
		{"sed -i.bak s/a/b/ a.txt", false, true, false},
		{"sed --in-place=.bak -E s/a/b/ a.txt", false, true, false},
		{"awk '{print $1}' a.txt", false, true, false},
		{"awk -F: -v x=1 '{print $1}' a.txt", false, true, false},
		{"awk --lint=fatal '{print}' a.txt", false, true, false},
		{"awk -W version", false, true, false},
		{"awk -W interactive '{print}'", false, true, false},
		{"sed -n p a.txt -e 'e rm x'", true, true, false},
		{"sed -n p a.txt --expression='1e rm x'", true, true, false},
		{"sed 'e rm x' a.txt -e p", true, true, false},
		{"sed -i '' 'e rm x' a.txt", bsdSed, true, false},
		{"sed -i s/a/b/ readme.md notes.md", false, true, false},
		{"sed -i '' -e s/a/b/ readme.md", false, true, false},
		{"sed -f - a.txt <<< 'e rm x'", true, true, false},
		{"sed -f/dev/stdin a.txt <<< 'e rm x'", true, true, false},
		{"awk -f /dev/fd/3 3<<<'BEGIN { system(\"rm x\") }'", true, true, false},
		{"awk -f - <<'E'\nBEGIN { system(\"rm x\") }\nE", true, true, false},
		{"sed -e '1e echo hi' -e 'r .env' a.txt", false, false, true},
		{"awk 'BEGIN { system(\"echo\"); while ((getline l < \".env\") > 0) print l }'", false, false, true},
		{"sed -f s.sed a.txt", false, false, false},
		{"sed -nf s.sed a.txt", false, false, false},
		{"sed p a.txt -f s.sed", false, false, false},
		{"awk -f s.awk", false, false, false},
		{"awk -E s.awk", false, false, false},
		{"awk --exec=s.awk", false, false, false},
		{"awk -f - < s.awk", false, false, false},
		{"cat s.awk | awk -f -", false, false, false},
		{"sed -f - a.txt", false, false, false},
		{"awk -W exec s.awk", false, false, false},
		{"awk -We s.awk", false, false, false},
		{"awk -l ext '{print}'", false, false, false},
		{"gawk -i inplace '{print}' a.txt", false, false, false},
		{"awk --load=ext '{print}'", false, false, false},
		{"awk -D '{print}'", false, false, false},
		{"awk --frobnicate '{print}'", false, false, false},
		{"awk -d/tmp/out '{print}'", false, false, false},
		{"awk --profile=/tmp/out '{print}'", false, false, false},
		{"sed *.sed a.txt", false, false, false},
	} {
		a := checkRunsRm(t, tt.line, tt.runsRm)
		vouched := !slices.ContainsFunc(a.Commands, func(c *Command) bool {
			return slices.ContainsFunc(c.Notes, func(n Note) bool { return n.Kind != RunsCode })
		})
		if vouched != tt.vouched {
			t.Errorf("Analyze(%q): a rule naming the tool vouches %v, want %v (notes %v)", tt.line, vouched, tt.vouched, notesOf(a))
		}
		if opens := hasNote(a, OpensFiles); opens != tt.opens {
			t.Errorf("Analyze(%q): opens files %v, want %v (notes %v)", tt.line, opens, tt.opens, notesOf(a))
		}
	}
}

// notesOf returns the texts of the notes of a's commands.
func notesOf(a *Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		for _, n := range c.Notes {
			out = append(out, n.Text)
		}
	}
	return out
}
