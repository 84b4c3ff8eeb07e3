package shellcmd

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash evaluates some values as code when the line runs, not when it is
// read: the value of a variable named in arithmetic ($((X)), $[X], ((X)),
// let, for ((...)), [[ X -eq 1 ]], an indexed array's subscript, a
// substring offset) is itself an arithmetic expression, and an array
// subscript in it (X='a[$(rm x)]') has its command substitutions run; the
// output of a command substitution in arithmetic is evaluated the same way;
// ${!X} looks up the name X holds (subscript included) and ${X@P} expands
// X's value as a prompt. So X=$(cat f); echo $((X)) runs whatever the file
// says, though every command in the line is harmless.
//
// The walker records each such use (an evaluation) and, once the line is
// walked, checkEvaluations makes each use the line does not give a value the
// bridge can read a Problem: the variable's value is known only when every
// assignment to it in the line is static and inert for that use (a number
// for arithmetic, a name for ${!X}, text without expansions for ${X@P}).
// Values from outside the line (the environment, positional parameters,
// REPLY, BASH_REMATCH) are not known.

// evalUse says how bash reads the value it evaluates.
type evalUse uint8

const (
	// evalArith: the value is an arithmetic expression.
	evalArith evalUse = iota
	// evalName: the value is a variable name, subscript included (${!X}).
	evalName
	// evalPrompt: the value is expanded as a prompt string (${X@P}).
	evalPrompt
)

// evaluation is one value bash evaluates as code.
type evaluation struct {
	// name is the variable whose value is evaluated; empty when output.
	name string
	// output: the output of a command substitution is evaluated.
	output bool
	use    evalUse
	// where is the expression, as written.
	where string
	// indirect: the value evaluated is that of the variable name's value
	// names (${!X@P}).
	indirect bool
}

// evaluations is what the walker collects for checkEvaluations.
type evaluations struct {
	uses []evaluation
	// arith holds names arithmetic assigns (i=0, i++): their values are
	// numbers.
	arith map[string]bool
	// integer holds names with the integer attribute, bash's own
	// (integerSpecials) and those the line declares (declare -i): bash
	// evaluates every value assigned to them as arithmetic.
	integer map[string]bool
	// nameref: the line declares a name reference, so an assignment to
	// one name can change another.
	nameref bool
}

// evaluated records a use of name's value (or of output) as code.
func (w *walker) evaluated(e evaluation) {
	w.evals.uses = append(w.evals.uses, e)
}

// evalNode records what one node of a parsed line makes bash evaluate.
func (w *walker) evalNode(n syntax.Node, src string) {
	switch n := n.(type) {
	case *syntax.Redirect:
		w.zshClobber(n, src)
		w.zshNumericRange(n, src)
	case *syntax.ArithmExp:
		w.arithm(n.X, sourceOf(n, src), src)
	case *syntax.ArithmCmd:
		w.arithm(n.X, sourceOf(n, src), src)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			w.arithm(x, sourceOf(n, src), src)
		}
	case *syntax.CStyleLoop:
		for _, x := range []syntax.ArithmExpr{n.Init, n.Cond, n.Post} {
			if x != nil {
				w.arithm(x, sourceOf(n, src), src)
			}
		}
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, x := range []syntax.TestExpr{n.X, n.Y} {
				if wd, ok := x.(*syntax.Word); ok {
					w.arithm(wd, sourceOf(n, src), src)
				}
			}
		case syntax.TsReMatch:
			w.assign(Assignment{Name: "BASH_REMATCH"}, 0)
		}
	case *syntax.Assign:
		if n.Index != nil {
			w.arithm(n.Index, sourceOf(n, src), src)
		}
	case *syntax.ArrayElem:
		if n.Index != nil {
			w.arithm(n.Index, sourceOf(n, src), src)
		}
	case *syntax.UnaryTest:
		if wd, ok := n.X.(*syntax.Word); ok && n.Op == syntax.TsVarSet {
			if v := evalWord(wd, src); v.Kind != Dynamic {
				w.elementSubscript(v.Text)
			}
		}
	case *syntax.DeclClause:
		w.declAttributes(n)
	case *syntax.ParamExp:
		w.paramExp(n, src)
	}
}

// paramExp records the evaluations of one parameter expansion: its
// subscript and substring offsets are arithmetic, ${!X} and ${X@P}
// evaluate X's value, and ${X=v} and ${X:=v} assign X.
func (w *walker) paramExp(p *syntax.ParamExp, src string) {
	where := sourceOf(p, src)
	if p.Index != nil && !allElements(p.Index) {
		w.arithm(p.Index, where, src)
	}
	if p.Slice != nil {
		for _, x := range []syntax.ArithmExpr{p.Slice.Offset, p.Slice.Length} {
			if x != nil {
				w.arithm(x, where, src)
			}
		}
	}
	if p.Param == nil {
		return
	}
	if p.Excl && p.Names == 0 && (p.Index == nil || !allElements(p.Index)) {
		w.evaluated(evaluation{name: p.Param.Value, use: evalName, where: where})
	}
	if p.Exp == nil {
		return
	}
	switch p.Exp.Op {
	case syntax.OtherParamOps:
		if p.Exp.Word != nil && p.Exp.Word.Lit() == "P" {
			w.evaluated(evaluation{name: p.Param.Value, use: evalPrompt, where: where, indirect: p.Excl})
		}
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		a := Assignment{Name: p.Param.Value, Static: true}
		if p.Exp.Word != nil {
			v := evalWord(p.Exp.Word, src)
			a.Value, a.Static = v.Text, v.Kind == Static
		}
		w.assign(a, 0)
	}
}

// allElements reports whether a subscript is @ or *, which lists the
// elements instead of evaluating anything.
func allElements(x syntax.ArithmExpr) bool {
	wd, ok := x.(*syntax.Word)
	return ok && (wd.Lit() == "@" || wd.Lit() == "*")
}

// arithm records what an arithmetic expression evaluates: the value of
// every variable it names, bare or expanded, and the output of every
// command substitution in it.
func (w *walker) arithm(x syntax.ArithmExpr, where, src string) {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if name, ok := arithName(x.X); ok && assignOp(x.Op) {
			w.evals.arith[name] = true
			if x.Op != syntax.Assgn {
				w.evaluated(evaluation{name: name, where: where})
			}
		} else {
			w.arithm(x.X, where, src)
		}
		w.arithm(x.Y, where, src)
	case *syntax.UnaryArithm:
		if name, ok := arithName(x.X); ok && (x.Op == syntax.Inc || x.Op == syntax.Dec) {
			w.evals.arith[name] = true
		}
		w.arithm(x.X, where, src)
	case *syntax.ParenArithm:
		w.arithm(x.X, where, src)
	case *syntax.Word:
		w.arithWord(x.Parts, where)
	}
}

// arithWord records the variables and substitutions of a word bash
// evaluates as arithmetic.
func (w *walker) arithWord(parts []syntax.WordPart, where string) {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if len(parts) == 1 && validName(p.Value) {
				w.evaluated(evaluation{name: p.Value, where: where})
			}
		case *syntax.ParamExp:
			if p.Param != nil && !p.Length {
				w.evaluated(evaluation{name: p.Param.Value, where: where})
			}
			if p.Exp != nil && p.Exp.Word != nil {
				w.arithWord(p.Exp.Word.Parts, where)
			}
		case *syntax.DblQuoted:
			w.arithWord(p.Parts, where)
		case *syntax.CmdSubst, *syntax.ProcSubst:
			w.evaluated(evaluation{output: true, where: where})
		}
	}
}

// arithName returns the variable an arithmetic assignment or increment
// names.
func arithName(x syntax.ArithmExpr) (string, bool) {
	wd, ok := x.(*syntax.Word)
	if !ok {
		return "", false
	}
	name := wd.Lit()
	return name, validName(name)
}

// assignOp reports whether op assigns (=, +=, ...).
func assignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
		syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// declAttributes records declare -i (values assigned are arithmetic) and
// declare -n (a name reference).
func (w *walker) declAttributes(d *syntax.DeclClause) {
	var integer bool
	if d.Variant != nil && d.Variant.Value == "nameref" {
		w.evals.nameref = true
	}
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			flag := as.Value.Lit()
			if strings.HasPrefix(flag, "-") || strings.HasPrefix(flag, "+") {
				integer = integer || strings.Contains(flag, "i")
				w.evals.nameref = w.evals.nameref || strings.Contains(flag, "n")
			} else if flag == "" {
				// declare "$flags" x: the attributes are not known.
				integer, w.evals.nameref = true, true
			}
			continue
		}
		if integer && as.Name != nil {
			w.evals.integer[as.Name.Value] = true
		}
	}
}

// element matches a word that names an array element (a[i], a[i]=v),
// capturing the subscript.
var element = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\[(.*?)\](\+?=.*)?$`)

// elementSubscript records the names in the subscript of an array element
// a builtin is given by name (test -v 'a[i]', printf -v 'a[i]',
// declare 'a[i]=v'): bash evaluates the subscript as arithmetic.
func (w *walker) elementSubscript(text string) {
	if m := element.FindStringSubmatch(text); m != nil {
		w.arithText(m[1], text)
	}
}

// testElements records the elements test and [ are asked about with -v.
func (w *walker) testElements(words []Word) {
	if len(words) == 0 || words[0].Kind != Static || words[0].Text != "test" && words[0].Text != "[" {
		return
	}
	for i := 1; i+1 < len(words); i++ {
		if words[i].Kind == Static && words[i].Text == "-v" && words[i+1].Kind == Static {
			w.elementSubscript(words[i+1].Text)
		}
	}
}

// numericSpecials are parameters bash keeps numeric whatever the line does.
var numericSpecials = map[string]bool{
	"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"LINENO": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true, "EPOCHSECONDS": true,
}

// integerSpecials are the variables bash gives the integer attribute before
// the line runs (declare -p RANDOM prints declare -i): a plain assignment to
// one (RANDOM=$(cat f), OPTIND=X) evaluates the value as arithmetic, its
// subscripts' command substitutions included, though the line declares
// nothing. Bash 5.2 runs the code assigned to RANDOM, SRANDOM, OPTIND and
// HISTCMD; SECONDS and BASHPID carry the attribute too and are held to it.
var integerSpecials = []string{"RANDOM", "SRANDOM", "OPTIND", "HISTCMD", "SECONDS", "BASHPID"}

// bashIntegers returns the names a line starts with the integer attribute
// set on: bash's integer specials.
func bashIntegers() map[string]bool {
	m := make(map[string]bool, len(integerSpecials))
	for _, name := range integerSpecials {
		m[name] = true
	}
	return m
}

// inertValue matches, for each use, a static value that evaluates to no
// code: a number, a plain name (or parameter), text without expansions.
var inertValue = map[evalUse]*regexp.Regexp{
	evalArith:  regexp.MustCompile(`^[ \t]*[-+]?(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9A-Za-z@_]+)?)?[ \t]*$`),
	evalName:   regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[-@*#?$!])$`),
	evalPrompt: regexp.MustCompile("^[^$`]*$"),
}

// checkEvaluations makes a Problem of every evaluation whose value the line
// does not give in full.
func (w *walker) checkEvaluations() {
	byName := map[string][]Assignment{}
	aliased := w.evals.nameref
	for _, a := range w.a.Assignments {
		w.elementSubscript(a.Name) // read 'a[i]', printf -v 'a[i]'
		if !validName(a.Name) {
			aliased = true // declare "$x"=v, read "$x": any name may be set
		}
		byName[a.Name] = append(byName[a.Name], a)
		if w.evals.integer[a.Name] {
			if !a.Static {
				w.evaluated(evaluation{output: true, where: a.Name + "=" + a.Value})
			} else {
				w.arithText(a.Value, a.Name+"="+a.Value)
			}
		}
	}
	for _, e := range w.evals.uses {
		if e.indirect {
			w.indirectPrompt(e, byName, aliased)
			continue
		}
		if e.use == evalPrompt {
			w.promptCode(byName[e.name])
		}
		if why := w.unknownValue(e, byName, aliased); why != "" {
			w.problem("bash evaluates %s in %s as code, running any command substitution it holds, and %s", evaluatedWhat(e), e.where, why)
		}
	}
}

// arithNames matches the variable names in an arithmetic expression.
var arithNames = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// arithText records the names a static value evaluated as arithmetic reads.
func (w *walker) arithText(value, where string) {
	for _, name := range arithNames.FindAllString(value, -1) {
		w.evaluated(evaluation{name: name, where: where})
	}
}

// unknownValue says why the value an evaluation reads is not known, or ""
// when it is known to run nothing.
func (w *walker) unknownValue(e evaluation, byName map[string][]Assignment, aliased bool) string {
	if e.output {
		return "the output is known only when the line runs"
	}
	as := byName[e.name]
	if len(as) == 0 && e.use == evalArith && numericSpecials[e.name] {
		return ""
	}
	if aliased {
		return "the line sets a variable it names at run time or through a name reference"
	}
	if len(as) == 0 && !w.evals.arith[e.name] {
		return "the line does not set " + paramName(e.name) + ", so its value comes from outside it"
	}
	for _, a := range as {
		if !a.Static {
			return "the line sets " + paramName(e.name) + " to a value known only when it runs"
		}
		value := a.Value
		if e.use == evalPrompt {
			value = promptText(value)
		}
		if !inertValue[e.use].MatchString(value) {
			return "the line sets " + paramName(e.name) + " to " + quoteValue(a.Value) + ", which is evaluated in turn"
		}
	}
	return ""
}

// evaluatedWhat names what an evaluation evaluates.
func evaluatedWhat(e evaluation) string {
	if e.output {
		return "the output of a command substitution"
	}
	return "the value of " + paramName(e.name)
}

// paramName shows a variable's name, a positional or special parameter
// with its $ ($1, $@).
func paramName(name string) string {
	if validName(name) {
		return name
	}
	return "$" + name
}

// quoteValue shows a value in a message, shortened.
func quoteValue(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "'" + s + "'"
}
