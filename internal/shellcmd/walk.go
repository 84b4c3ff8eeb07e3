package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// file walks a parsed line: every statement anywhere in the tree, however
// nested, is visited.
func (w *walker) file(f *syntax.File, src string, depth int, lang syntax.LangVariant) {
	// Where each statement runs; a statement the directory walk did not
	// reach runs in an unknown directory when the line moves at all.
	start := w.cur
	defer func() { w.cur = start }()
	dirs, moved := stmtDirs(f, src, start)
	fallback := start
	if moved {
		fallback = unknownDir("the line changes directory")
	}
	w.hereDocProblems(f, src)
	w.noteLineNames(f)
	walkNesting(f, func(n syntax.Node) bool {
		w.evalNode(n, src)
		w.literalQuotes(n, src, depth)
		switch n := n.(type) {
		case *syntax.Stmt:
			w.cur = fallback
			if d, ok := dirs[n]; ok {
				w.cur = d
			}
			w.redirects(n, src)
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				w.call(n, call, src, depth)
			}
			w.nullCommand(n, src, depth)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if w.pipedFrom == nil {
					w.pipedFrom = map[*syntax.Stmt]*syntax.Stmt{}
				}
				w.pipedFrom[n.Y] = n.X
			}
		case *syntax.FuncDecl:
			w.defineFunction(n, src)
		case *syntax.DeclClause:
			w.decl(n, src, depth)
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok && it.Name != nil {
				w.loopAssign(it, src, depth)
			}
			if n.Select {
				w.assign(Assignment{Name: "REPLY"}, depth)
			}
		case *syntax.Word:
			w.subscript(n, src, depth)
			w.equals(n, src)
		case *syntax.ExtGlob:
			// bash reads *(...) only after shopt -s extglob, and zsh runs
			// a glob qualifier in it (*(e:'cmd':)) for every file.
			w.problem("%s is an extended glob: bash without extglob does not read the line, and zsh runs a glob qualifier such as *(e:'cmd':) as code", sourceOf(n, src))
			if n.Pattern != nil && strings.ContainsAny(n.Pattern.Value, "$`") {
				// bash expands the pattern before it matches it, running
				// its command substitutions (@($(rm x))), which the
				// grammar keeps as text: read as a double-quoted word.
				w.line(`: "`+n.Pattern.Value+`"`, depth+1, dialectsOf("bash"))
			}
			if n.Pattern != nil {
				w.qualifierCode(n.Pattern.Value, depth)
			}
			if n.Op == syntax.GlobExcept && n.Pattern != nil {
				// Without extglob, bash and sh read "!(" starting a
				// command as "! (": the negation of a subshell running
				// what the parentheses hold ("!(rm x)" runs rm).
				w.line(n.Pattern.Value, depth+1, dialectsOf("sh"))
			}
		case *syntax.LetClause:
			w.add(&Command{Source: sourceOf(n, src), Forms: [][]Word{{{Kind: Static, Text: "let"}}}}, depth)
		}
		return true
	}, func() {
		w.problem("the command line nests substitutions, expansions or compound commands more than %d deep, so what is deeper is not analysed", maxNesting)
	})
}

// maxNesting bounds how deep substitutions, expansions and compound
// commands are walked: each level's words hold every level below, so the
// walk costs the square of the depth (20,000 nested $( took minutes and
// gigabytes), and no command a person reads nests so deep.
const maxNesting = 128

// nestingGuard follows how deep a syntax.Walk is in nodes that nest
// (encloses), for a walk that goes no deeper than maxNesting.
type nestingGuard struct {
	open    []bool // for each node being walked: whether it counts
	nesting int
}

// enter records the walk entering n and reports whether it may: false
// past maxNesting, where the walk must not go into n (and will not leave
// it either).
func (g *nestingGuard) enter(n syntax.Node) bool {
	nests := encloses(n)
	if nests && g.nesting >= maxNesting {
		return false
	}
	if nests {
		g.nesting++
	}
	g.open = append(g.open, nests)
	return true
}

// walkNesting walks n as syntax.Walk does, visiting each node with visit
// (false: not its children), and enters no node past maxNesting: tooDeep,
// when not nil, is called for each it stops at.
func walkNesting(n syntax.Node, visit func(syntax.Node) bool, tooDeep func()) {
	var guard nestingGuard
	syntax.Walk(n, func(m syntax.Node) bool {
		if m == nil {
			guard.leave()
			return true
		}
		if !guard.enter(m) {
			if tooDeep != nil {
				tooDeep()
			}
			return false
		}
		if !visit(m) {
			guard.leave() // Walk does not leave what it does not enter
			return false
		}
		return true
	})
}

// leave records the walk leaving the node it entered last.
func (g *nestingGuard) leave() {
	if g.open[len(g.open)-1] {
		g.nesting--
	}
	g.open = g.open[:len(g.open)-1]
}

// encloses reports whether a node counts in nesting: a substitution,
// expansion or compound command, which holds words or commands of its own.
func encloses(n syntax.Node) bool {
	switch n.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.ArithmCmd,
		*syntax.ParenArithm, *syntax.DblQuoted, *syntax.ExtGlob, *syntax.Subshell, *syntax.Block,
		*syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.FuncDecl,
		*syntax.TestClause, *syntax.ParenTest, *syntax.CoprocClause, *syntax.TimeClause, *syntax.LetClause,
		*syntax.DeclClause:
		return true
	}
	return false
}

// call handles one simple command with the redirections of its statement.
func (w *walker) call(st *syntax.Stmt, call *syntax.CallExpr, src string, depth int) {
	for _, as := range call.Assigns {
		w.assignNode(as, src, depth)
	}
	var words []Word
	complete := true
	assignable := 0 // how many words, first, are written as assignments
	for _, arg := range call.Args {
		fs, ok := fields(arg, src)
		complete = complete && ok
		if assignable == len(words) && len(fs) == 1 && assignableArg(arg, src) {
			assignable++
		}
		words = append(words, fs...)
	}
	// bash reads NAME+=v and NAME[i]=v before the command word as
	// assignments; a grammar that does not sees a command named so. A
	// word whose name or '=' is quoted is the command's name ('A=' x
	// runs a program named "A=").
	for len(words) > 0 && assignable > 0 && words[0].Kind != Dynamic && assignmentWord(words[0].Text) {
		assignable--
		name, value, _ := strings.Cut(words[0].Text, "=")
		w.assign(Assignment{Name: strings.TrimSuffix(name[:nameEnd(name)], "+"), Value: value, Static: words[0].Kind == Static,
			Append: strings.HasSuffix(name[:nameEnd(name)], "+")}, depth)
		words = words[1:]
	}
	if len(words) == 0 || words[0].Kind == Static && words[0].Text == ":" {
		return // ":" runs nothing; substitutions in its words are walked
	}
	if head := commandWordArg(call, src); head != nil {
		w.aliasUse(st, head, src, depth)
		w.heldCommandWord(st, head, src, depth)
		w.heldArguments(st, call, head, src, depth)
		w.functionCall(call, head, src, depth)
	}
	w.testElements(words)
	outer := w.fds
	w.fds = fdInputs(st, src)
	defer func() { w.fds = outer }()
	for _, words := range startedAsForms(w.readings(cwdTildeForms(words), depth), w.argv0) {
		c := &Command{Source: strings.TrimRight(sourceOf(st, src), "; \t&"), Dir: w.cur}
		if !complete {
			c.Notes = append(c.Notes, Note{Kind: Unparsed, Text: "brace expansion too large to list"})
		}
		in := stdinOf(st, src)
		if in == nil {
			in = w.pipedInput(st, src)
		}
		if in != nil {
			c.Input = &Input{File: in.file, Text: in.text, Known: in.known}
		}
		w.build(c, words, in, depth)
	}
}

// readings returns forms with the words bash may run in place of each
// added: with nullglob (shopt -s nullglob, the person's ~/.bashrc that an
// IDE's bash -i reads) a glob that matches nothing is no word at all, and
// with keyword (set -k) a NAME=value word after the command word is an
// assignment to the command's environment, not an argument. Either moves
// the words after it: "sort -o zz* secrets/a.key a.txt" writes
// secrets/a.key when zz* matches nothing, and so does "set -k; sort -o
// x=1 secrets/a.key a.txt". zsh's EXTENDED_GLOB adds its own
// (zshExtendedReadings). Each reading is decided as a command of the line,
// the strictest decision standing.
func (w *walker) readings(forms [][]Word, depth int) [][]Word {
	out := forms
	for _, f := range forms {
		out = append(out, nulReadings(f)...)
		out = append(out, zshExtendedReadings(f, w.extendedGlob)...)
		if g, ok := w.withoutEmptyGlobs(f); ok {
			out = append(out, g)
		}
		if g, ok := w.optionGlobs(f); ok {
			out = append(out, g)
		}
	}
	if !w.keyword {
		return out
	}
	for _, f := range out[:len(out):len(out)] {
		if k, assigns := withoutAssignments(f); assigns != nil {
			for _, a := range assigns {
				w.assign(a, depth)
			}
			out = append(out, k)
		}
	}
	return out
}

// withoutEmptyGlobs returns form without the glob words that may match
// nothing when the line runs: those that match no file where the line
// starts (a name with a leading dot only for a pattern with one, as bash
// without dotglob matches), and every glob once the line changed
// directory. ok is false when no word is left out.
func (w *walker) withoutEmptyGlobs(form []Word) (out []Word, ok bool) {
	for _, wd := range form {
		if wd.Kind == Glob && (w.cur.Moved() || len(globFiles(w.opts.Dir, wd.Text)) == 0) {
			ok = true
			continue
		}
		out = append(out, wd)
	}
	return out, ok
}

// withoutAssignments returns form without the words after its command word
// that read as NAME=value, and those as assignments; nil assignments when
// there are none.
func withoutAssignments(form []Word) ([]Word, []Assignment) {
	if len(form) == 0 {
		return nil, nil
	}
	out := []Word{form[0]}
	var assigns []Assignment
	for _, wd := range form[1:] {
		if wd.Kind == Static && assignmentWord(wd.Text) {
			name, value, _ := strings.Cut(wd.Text, "=")
			name = name[:nameEnd(name)]
			assigns = append(assigns, Assignment{Name: strings.TrimSuffix(name, "+"), Value: value, Static: true})
			continue
		}
		out = append(out, wd)
	}
	return out, assigns
}

// keywordOption reports whether words may turn on bash's keyword option:
// set -k (in any cluster), set -o keyword, shopt -o -s keyword, bash -k,
// or a set whose options are known only when the line runs.
func keywordOption(words []Word) bool {
	if len(words) == 0 || words[0].Kind != Static {
		return false
	}
	head := words[0].Name()
	switch head {
	case "set", "shopt", "bash", "sh", "rbash":
	default:
		return false
	}
	for _, wd := range words[1:] {
		if wd.Kind != Static {
			if head == "set" {
				return true
			}
			continue
		}
		t := wd.Text
		if t == "keyword" || head != "shopt" && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsRune(t[1:], 'k') {
			return true
		}
	}
	return false
}

// stdin says what a statement's standard input is, for a shell or
// interpreter that reads its program from it.
type stdin struct {
	// text is a here-document's or here-string's body, when static.
	text string
	// known: stdin is a static here-document or here-string.
	known bool
	// what names any other source ("a here-document with expansions",
	// "a file").
	what string
	// file is the file a < or <> redirection names.
	file *Word
}

// stdinOf returns the statement's stdin redirection, if any.
func stdinOf(st *syntax.Stmt, src string) *stdin {
	var in *stdin
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				in = &stdin{what: "an empty here-document", known: true}
				continue
			}
			v := evalWord(r.Hdoc, src)
			quoted := r.Word != nil && len(r.Word.Parts) > 0 && isQuoted(r.Word)
			if v.Kind == Dynamic && !quoted {
				in = &stdin{what: "a here-document with expansions"}
				continue
			}
			body := v.Text
			if quoted || v.Kind != Static {
				body = sourceOf(r.Hdoc, src)
			}
			in = &stdin{text: body, known: true}
		case syntax.WordHdoc:
			v := evalWord(r.Word, src)
			if v.Kind != Static {
				in = &stdin{what: "a here-string with expansions"}
				continue
			}
			in = &stdin{text: v.Text + "\n", known: true} // bash ends it with a newline
		case syntax.RdrIn, syntax.RdrInOut:
			f := evalWord(r.Word, src)
			in = &stdin{what: "a file", file: &f}
		}
	}
	return in
}

// isQuoted reports whether a here-document delimiter is quoted (its body
// is then taken literally).
func isQuoted(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.(*syntax.Lit).Value, `\`) {
				return true
			}
		}
	}
	return false
}

// add appends a command unless an identical one (from reading the line in
// another dialect) is there.
func (w *walker) add(c *Command, depth int) {
	c.Dir = w.cur
	key := c.key()
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	w.a.Commands = append(w.a.Commands, c)
}

// key identifies a command by its source, forms and notes.
func (c *Command) key() string {
	var b strings.Builder
	b.WriteString(c.Source)
	for _, f := range c.Forms {
		b.WriteByte(0)
		for _, wd := range f {
			b.WriteByte(1)
			b.WriteByte(byte(wd.Kind))
			b.WriteString(wd.Text)
		}
	}
	for _, n := range c.Notes {
		b.WriteByte(2)
		b.WriteString(n.Text)
	}
	// The same command in another directory opens other files.
	b.WriteByte(3)
	b.WriteString(c.Dir.String())
	if c.Dir.Searched {
		b.WriteByte(4)
	}
	return b.String()
}

// equals makes a problem of a word zsh expands to a program's path: an
// unquoted =NAME at the start of a word is NAME as PATH finds it, so
// echo x > =rm writes over rm outside the workspace, where bash and sh
// write a file named =rm.
func (w *walker) equals(word *syntax.Word, src string) {
	if len(word.Parts) == 0 {
		return
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	if !ok || len(lit.Value) < 2 || lit.Value[0] != '=' || lit.Value[1] == '=' {
		return
	}
	w.problem("zsh replaces %s with the path of a program found on PATH", sourceOf(word, src))
}

// subscript reads a static word that names an array element whose
// subscript holds a command substitution as code: unset 'a[$(cmd)]',
// printf -v 'a[$(cmd)]' and [[ -v 'a[$(cmd)]' ]] make bash evaluate the
// subscript, running what it holds. So does a word holding such an element
// anywhere in an arithmetic expression: zsh evaluates the numbers its
// builtins take as arithmetic (printf's numeric conversions and widths,
// repeat's count, read -t's timeout, shift's, exit's and return's), so
// printf '%d' '1+path[$(cmd)]' runs cmd through zsh's own path array; such
// a word is read as the body of an unquoted here-document, which expands
// its substitutions wherever they stand.
func (w *walker) subscript(word *syntax.Word, src string, depth int) {
	if !strings.Contains(sourceOf(word, src), "[") {
		return
	}
	// A glob's text counts as well: a[$(cmd)] matches no file, so bash
	// passes it on as written, its backslashes removed.
	val, _, _, _, why := quoteRemoval(word)
	if why != "" || !holdsSubstitution(val) {
		return
	}
	switch {
	case subscriptCode.MatchString(val):
		w.line(": "+val, depth+1, dialectsOf("bash"))
	case innerSubscriptCode.MatchString(val):
		w.line(": "+hereDocument(val), depth+1, dialectsOf("bash"))
	}
}
