package shellcmd

import (
	"os"
	"os/exec"
	"slices"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestParamValuesAgainstBash: for each value x may hold and each operator,
// a value ParamValues gives (when it reads the expansion) holds what bash
// makes of ${x...} with x and n set so, in a UTF-8 locale.
func TestParamValuesAgainstBash(t *testing.T) {
	vals := []string{"eval", "rm", "Rm", "a.b.c", "é-x", "", " a b ", "x*y", "[ab]", "ÉÀ"}
	ops := []string{"", ":-w", "-w", ":+w", "+w", "#e", "##*.", "%.*", "%%.*", "#?", "%?", "/e/r", "//[ab]/z", "/#e/r", "/%l/r", "/#/r", "/%/r",
		"^", "^^", ",", ",,", "^^[a-e]", ",[A-Z]", ":1", ":1:1", ": -2", ":0:-1", ":(-1)", ":n", ":n:1", "/e*/r", "/\\*/s", "/'*'/s", "/\"[ab]\"/s", "#\"a\"", "/?/", "//?/_", ":2:n-1",
		"/#[[:alpha:]]/_", "//[![:alpha:]]/_", "/%[[:punct:]]?/_", "#*[.]", "%%[!.]*", "/[]]/_", "//[a-]/_", "/e/$'\\t'", "//./", ":-$n", ":n:n", ":$((1+1))", ":-${n:-q}"}
	compared := 0
	for _, v := range vals {
		for _, op := range ops {
			expr := "${x" + op + "}"
			src := "echo " + expr
			f, err := parse(src, syntax.LangBash)
			if err != nil || len(f.Stmts) != 1 {
				continue
			}
			call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
			if !ok || len(call.Args) != 2 || len(call.Args[1].Parts) != 1 {
				continue
			}
			p, ok := call.Args[1].Parts[0].(*syntax.ParamExp)
			if !ok {
				continue
			}
			known := func(name string) Held {
				switch name {
				case "x":
					return Held{Values: []string{v}}
				case "n":
					return Held{Values: []string{"1"}}
				}
				return Held{}
			}
			got, ok := ParamValues(p, known)
			if !ok {
				continue
			}
			cmd := exec.Command("bash", "-c", `x=$1; n=1; printf %s "`+expr+`"`, "bash", v)
			cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
			out, err := cmd.Output()
			if err != nil {
				continue
			}
			compared++
			if !slices.Contains(got, string(out)) {
				t.Errorf("x=%q %s: bash %q, ParamValues %q", v, expr, out, got)
			}
		}
	}
	if want := len(vals) * len(ops) * 3 / 4; compared < want {
		t.Errorf("compared %d expansions with bash, want at least %d: ParamValues reads too few", compared, want)
	}
}
