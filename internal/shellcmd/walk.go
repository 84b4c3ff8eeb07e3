package shellcmd

import (
	"regexp"
	"slices"
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
	var guard nestingGuard
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			guard.leave()
			return true
		}
		if !guard.enter(n) {
			w.problem("the command line nests substitutions, expansions or compound commands more than %d deep, so what is deeper is not analysed", maxNesting)
			return false
		}
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
	for _, arg := range call.Args {
		fs, ok := fields(arg, src)
		complete = complete && ok
		words = append(words, fs...)
	}
	// bash reads NAME+=v and NAME[i]=v before the command word as
	// assignments; a grammar that does not sees a command named so.
	for len(words) > 0 && words[0].Kind != Dynamic && assignmentWord(words[0].Text) {
		name, value, _ := strings.Cut(words[0].Text, "=")
		w.assign(Assignment{Name: strings.TrimSuffix(name[:nameEnd(name)], "+"), Value: value, Static: words[0].Kind == Static,
			Append: strings.HasSuffix(name[:nameEnd(name)], "+")}, depth)
		words = words[1:]
	}
	if len(words) == 0 || words[0].Kind == Static && words[0].Text == ":" {
		return // ":" runs nothing; substitutions in its words are walked
	}
	w.testElements(words)
	if keywordOption(words) {
		w.keyword = true
	}
	outer := w.fds
	w.fds = fdInputs(st, src)
	defer func() { w.fds = outer }()
	for _, words := range w.readings(cwdTildeForms(words), depth) {
		c := &Command{Source: strings.TrimRight(sourceOf(st, src), "; \t&"), Dir: w.cur}
		if !complete {
			c.Notes = append(c.Notes, Note{Kind: Unparsed, Text: "brace expansion too large to list"})
		}
		in := stdinOf(st, src)
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
// x=1 secrets/a.key a.txt". Each reading is decided as a command of the
// line, the strictest decision standing.
func (w *walker) readings(forms [][]Word, depth int) [][]Word {
	out := forms
	for _, f := range forms {
		if g, ok := w.withoutEmptyGlobs(f); ok {
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

// loopAssign records the values a for or select loop gives its variable:
// each word of a static list, else a value known only at run time.
func (w *walker) loopAssign(it *syntax.WordIter, src string, depth int) {
	if !it.InPos.IsValid() {
		w.assign(Assignment{Name: it.Name.Value}, depth) // the positional parameters
		return
	}
	for _, item := range it.Items {
		fs, ok := fields(item, src)
		if !ok {
			w.assign(Assignment{Name: it.Name.Value}, depth)
		}
		for _, f := range fs {
			if f.Kind == Static {
				w.assign(Assignment{Name: it.Name.Value, Value: f.Text, Static: true}, depth)
			} else {
				w.assign(Assignment{Name: it.Name.Value}, depth)
			}
		}
	}
}

// subscriptCode matches a word that names an array element whose
// subscript holds a command substitution.
var subscriptCode = regexp.MustCompile("^[A-Za-z_][A-Za-z0-9_]*\\[.*(\\$\\(|`|\\$\\{[ \t\n|])")

// holdsSubstitution reports whether s holds a command substitution: $(...),
// backquotes, or bash 5.3's ${ cmd;} and ${|cmd;}.
func holdsSubstitution(s string) bool {
	return strings.Contains(s, "$(") || strings.Contains(s, "`") || strings.Contains(s, "${ ") ||
		strings.Contains(s, "${\t") || strings.Contains(s, "${\n") || strings.Contains(s, "${|")
}

// assignmentWord reports whether s reads as a bash assignment: NAME=v,
// NAME+=v or NAME[i]=v.
func assignmentWord(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	name := s[:eq]
	end := nameEnd(name)
	if end == 0 {
		return false
	}
	rest := name[end:]
	return rest == "" || rest == "+" || strings.HasPrefix(rest, "[") && (strings.HasSuffix(rest, "]") || strings.HasSuffix(rest, "]+"))
}

// nameEnd returns the length of the shell name s starts with.
func nameEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return i
		}
	}
	return len(s)
}

// decl handles declare, export, local, readonly, typeset and nameref.
func (w *walker) decl(d *syntax.DeclClause, src string, depth int) {
	forms := []Word{{Kind: Static, Text: d.Variant.Value}}
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			fs, _ := fields(as.Value, src)
			forms = append(forms, fs...)
			for _, f := range fs {
				if f.Kind == Static {
					w.elementSubscript(f.Text) // declare 'a[i]=v'
				}
				if f.Kind != Dynamic && assignmentWord(f.Text) {
					name, value, _ := strings.Cut(f.Text, "=")
					w.assign(Assignment{Name: strings.TrimSuffix(name[:nameEnd(name)], "+"), Value: value, Static: f.Kind == Static,
						Append: strings.HasSuffix(name[:nameEnd(name)], "+")}, depth)
				} else if f.Kind == Dynamic {
					// declare "$x": the name and value are not known.
					w.assign(Assignment{Name: f.Text}, depth)
				}
			}
			continue
		}
		w.assignNode(as, src, depth)
		forms = append(forms, Word{Kind: Static, Text: sourceOf(as, src)})
	}
	w.add(&Command{Source: sourceOf(d, src), Forms: [][]Word{forms}}, depth)
}

// assignNode records one parsed assignment.
func (w *walker) assignNode(as *syntax.Assign, src string, depth int) {
	if as.Name == nil {
		return
	}
	a := Assignment{Name: as.Name.Value, Append: as.Append}
	switch {
	case as.Array != nil && (a.Name == "BASH_CMDS" || a.Name == "BASH_ALIASES"):
		// Each element is a name's file or alias text (command_tables.go).
		for _, el := range as.Array.Elems {
			if el.Value != nil {
				v := evalWord(el.Value, src)
				w.assign(Assignment{Name: a.Name, Value: v.Text, Static: v.Kind == Static}, depth)
			}
		}
		a.Dir = w.cur
		w.record(a, depth) // the variable is set, as any array is
		return
	case as.Array != nil:
	case as.Value == nil:
		a.Static = true
	default:
		v := evalWord(as.Value, src)
		a.Value, a.Static = v.Text, v.Kind == Static
	}
	w.assign(a, depth)
}

// assign records an assignment. A static value that holds a command
// substitution runs it wherever bash evaluates the value again
// (arithmetic, ${x@P}, an array subscript), so it is analysed as code.
// NAME+=value adds to what the variable held: each value the line gave it
// before, joined with this one, is recorded as a value it may hold ("M=.e;
// M+=nv" gives M .env), and so is a value not known when the line may not
// show what it held.
func (w *walker) assign(a Assignment, depth int) {
	if !a.Dir.Moved() {
		a.Dir = w.cur
	}
	held := w.held[a.Name]
	switch {
	case !a.Static:
		held.unknown = true
	case !a.Append:
		held.add(a.Value)
	default:
		for _, v := range held.values {
			held.add(v + a.Value)
		}
	}
	if w.held == nil {
		w.held = map[string]heldValues{}
	}
	w.held[a.Name] = held
	w.commandTable(a, held, depth)
	w.record(a, depth)
	if !a.Append {
		return
	}
	if held.unknown || len(held.values) == 0 {
		w.record(Assignment{Name: a.Name, Dir: a.Dir}, depth)
	}
	if a.Static {
		for _, v := range held.values {
			if strings.HasSuffix(v, a.Value) {
				w.record(Assignment{Name: a.Name, Value: v, Static: true, Dir: a.Dir}, depth)
			}
		}
	}
}

// heldValues are the values the line gives a variable, as far as it shows
// them: at most maxHeld, past which, or after a value computed at run
// time, what it holds is not known.
type heldValues struct {
	values  []string
	unknown bool
}

// maxHeld bounds the values kept for one variable.
const maxHeld = 16

// add keeps v among the values, or marks them not known past maxHeld.
func (h *heldValues) add(v string) {
	switch {
	case slices.Contains(h.values, v):
	case len(h.values) >= maxHeld:
		h.unknown = true
	default:
		h.values = append(h.values, v)
	}
}

// record adds an assignment to the analysis once.
func (w *walker) record(a Assignment, depth int) {
	key := "\x00" + a.Name + "\x00" + a.Value + "\x00" + a.Dir.String()
	if a.Append {
		key += "\x00+"
	}
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	w.a.Assignments = append(w.a.Assignments, a)
	if a.Static && holdsSubstitution(a.Value) {
		if strings.HasPrefix(a.Value, "(") && strings.HasSuffix(a.Value, ")") {
			// declare -a a='($(cmd))' (typeset, local, readonly, -A
			// too) takes a quoted value in parentheses for a compound
			// assignment and expands its elements: read as one.
			w.line("_="+a.Value, depth+1, dialectsOf("bash"))
			return
		}
		// Read as the argument of a command, where a[...] is a word.
		w.line(": "+a.Value, depth+1, dialectsOf("bash"))
	}
}

// AssignmentCode analyses the value of an environment variable set
// outside any command line (a terminal request's env) the way a value
// assigned in a line is: a command substitution it holds is code bash may
// run. It returns nil when the value holds none.
func AssignmentCode(value string, opts Options) *Analysis {
	if !holdsSubstitution(value) {
		return nil
	}
	return Analyze(": "+value, opts)
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
			in = &stdin{text: v.Text, known: true}
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
// subscript, running what it holds.
func (w *walker) subscript(word *syntax.Word, src string, depth int) {
	if !strings.Contains(sourceOf(word, src), "[") {
		return
	}
	// A glob's text counts as well: a[$(cmd)] matches no file, so bash
	// passes it on as written, its backslashes removed.
	if val, _, _, why := quoteRemoval(word); why == "" && holdsSubstitution(val) && subscriptCode.MatchString(val) {
		w.line(": "+val, depth+1, dialectsOf("bash"))
	}
}
