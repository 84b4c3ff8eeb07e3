package shellcmd

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A cd changes where every later relative name of the line leads: in
// "cd /elsewhere && touch x" touch creates /elsewhere/x. The walk follows
// the directory through the line's lists as the shell does: a cd with one
// operand given in full moves it for the commands after it in the same
// list ("cd a; ls" runs ls in a, or where the line started if cd failed,
// so in either); inside a subshell, a command substitution or a pipeline
// only there. What it cannot follow (an operand computed at run time, none,
// "-", popd, a cd in a loop or a function, eval or source, a command word
// computed at run time) makes every later directory unknown.

// Dir is where a command runs, as far as the line shows.
type Dir struct {
	// Paths are the directories it may run in: "" for the directory the
	// line starts in, else the operands of the cd commands before it
	// joined with "/" and not cleaned ("sub", "sub/../x", "/etc"), so a
	// link in them is followed as the kernel follows it. A relative path
	// is relative to the directory the line starts in. nil means the
	// directory the line starts in, alone.
	Paths []string
	// Unknown says the line changes directory before it in a way the
	// analysis does not follow; Why says how.
	Unknown bool
	Why     string
	// Searched says a cd before it named a relative directory not
	// starting with "." or "..", which the shell looks up in CDPATH when
	// CDPATH is set.
	Searched bool
	// AtTop says it runs at the top of the git work tree that holds one
	// of Paths: that directory or any above it (git runs a rebase's
	// --exec, an alias's command, a pager there).
	AtTop bool
}

// Moved reports whether the command may run somewhere other than where
// the line starts.
func (d Dir) Moved() bool {
	return d.Unknown || d.AtTop || len(d.Paths) > 1 || len(d.Paths) == 1 && d.Paths[0] != ""
}

// String describes d for a person: "" when it has not moved.
func (d Dir) String() string {
	switch {
	case d.Unknown:
		return "a directory not known until the line runs (" + d.Why + ")"
	case !d.Moved():
		return ""
	}
	names := d.names()
	if d.AtTop {
		return "the top of the git work tree holding " + strings.Join(names, " or ") + " (it or a directory above it)"
	}
	return strings.Join(names, " or ")
}

// maxDirPaths bounds the directories one command may run in, and
// maxDirLen the length of each; past them the directory is unknown.
const (
	maxDirPaths = 8
	maxDirLen   = 4096
)

// unknownDir returns the unknown directory, for why.
func unknownDir(why string) Dir { return Dir{Unknown: true, Why: why} }

// paths returns d's directories, the starting one for nil.
func (d Dir) paths() []string {
	if d.Paths == nil {
		return []string{""}
	}
	return d.Paths
}

// names returns the directories d may be as a person reads them: the
// start, "", as ".".
func (d Dir) names() []string {
	var names []string
	for _, p := range d.paths() {
		if p == "" {
			p = "."
		}
		names = append(names, p)
	}
	return names
}

// union is every directory a or b may be.
func union(a, b Dir) Dir {
	switch {
	case a.Unknown:
		return a
	case b.Unknown:
		return b
	}
	out := Dir{Searched: a.Searched || b.Searched}
	for _, p := range append(a.paths(), b.paths()...) {
		if !slices.Contains(out.Paths, p) {
			out.Paths = append(out.Paths, p)
		}
	}
	if len(out.Paths) > maxDirPaths {
		return unknownDir("the line may change directory in too many ways to follow")
	}
	return out
}

// enter is d after a cd to operand succeeded.
func (d Dir) enter(operand string, searched bool) Dir {
	if d.Unknown {
		return d
	}
	out := Dir{Searched: d.Searched || searched}
	for _, p := range d.paths() {
		q := operand
		if !strings.HasPrefix(operand, "/") && p != "" {
			q = strings.TrimSuffix(p, "/") + "/" + operand
		}
		if len(q) > maxDirLen {
			return unknownDir("the line changes directory too many times to follow")
		}
		if !slices.Contains(out.Paths, q) {
			out.Paths = append(out.Paths, q)
		}
	}
	return out
}

// sameShell are the commands that run code in the shell itself, where a
// cd in it moves every later command: eval "cd x", builtin cd, command cd,
// trap 'cd x' ..., alias c='cd x', zsh's noglob cd, a mapfile callback.
var sameShell = map[string]bool{"eval": true, "builtin": true, "command": true, "trap": true, "alias": true,
	"noglob": true, "nocorrect": true, "mapfile": true, "readarray": true, "fc": true, "exec": true}

// mentionsCd reports whether s holds cd, pushd, popd or chdir as a word.
func mentionsCd(s string) bool {
	for _, name := range []string{"cd", "pushd", "popd", "chdir"} {
		for i := 0; ; {
			j := strings.Index(s[i:], name)
			if j < 0 {
				break
			}
			j += i
			if (j == 0 || !nameChar(s[j-1])) && (j+len(name) == len(s) || !nameChar(s[j+len(name)])) {
				return true
			}
			i = j + 1
		}
	}
	return false
}

// nameChar reports whether b may be part of a command name around cd.
func nameChar(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '.' || b == '/' || b == '-'
}

// dirWalk computes the directory of every statement of a parsed line.
type dirWalk struct {
	src string
	out map[*syntax.Stmt]Dir
	// unsearched: the line sets CDPATH or cdable_vars, so a cd operand
	// the shell may look up elsewhere leads to an unknown directory.
	unsearched bool
	// autocd: the line mentions autocd (bash's shopt, zsh's AUTO_CD), with
	// which a command whose name is a directory goes there.
	autocd bool
	// bodies are the function bodies: they run where they are called.
	bodies []*syntax.Stmt
	// depth is how deep the statement being walked is nested; past
	// maxNesting the walk stops, as the line's walk does (file).
	depth int
}

// stmtDirs returns where each statement of f runs, start being where the
// line starts (for a nested shell string, where the command running it
// runs), and whether any runs elsewhere.
func stmtDirs(f *syntax.File, src string, start Dir) (map[*syntax.Stmt]Dir, bool) {
	squashed := strings.ToLower(strings.ReplaceAll(src, "_", ""))
	d := &dirWalk{src: src, out: map[*syntax.Stmt]Dir{},
		unsearched: strings.Contains(src, "CDPATH") || strings.Contains(squashed, "cdablevars"),
		autocd:     strings.Contains(squashed, "autocd")}
	_, end := d.stmts(f.Stmts, start)
	moved := !sameDir(end, start) || d.anyMoved(start)
	if moved {
		// A function runs where it is called, which may be after any
		// change of directory the line makes.
		for _, b := range d.bodies {
			d.stmt(b, unknownDir("a function runs in the directory it is called from, and the line changes directory"))
		}
	}
	return d.out, moved
}

// anyMoved reports whether some statement runs elsewhere than start.
func (d *dirWalk) anyMoved(start Dir) bool {
	for _, dir := range d.out {
		if !sameDir(dir, start) {
			return true
		}
	}
	return false
}

// stmts walks a list run in order; ok and all are the directories after
// it when its last command succeeded, and after it whatever happened.
func (d *dirWalk) stmts(list []*syntax.Stmt, in Dir) (ok, all Dir) {
	ok, all = in, in
	for _, s := range list {
		ok, all = d.stmt(s, all)
	}
	return ok, all
}

// stmt walks one statement started in in.
func (d *dirWalk) stmt(s *syntax.Stmt, in Dir) (ok, all Dir) {
	if s == nil {
		return in, in
	}
	d.out[s] = in
	if _, list := s.Cmd.(*syntax.BinaryCmd); !list {
		// A list (a && b, a | b) nests only in the grammar.
		if d.depth >= maxNesting {
			// Not analysed deeper (a problem of the line says so):
			// what it may do to the directory is not known.
			out := unknownDir("the line nests too deep to follow")
			return out, out
		}
		d.depth++
		defer func() { d.depth-- }()
	}
	after := d.substitutions(s, in)
	if s.Background || s.Coprocess || s.Disown {
		d.command(s.Cmd, in) // a subshell of its own
		return after, after
	}
	ok, all = d.command(s.Cmd, in)
	if after.Unknown {
		ok, all = after, after
	}
	if s.Negated {
		ok = all
	}
	return ok, all
}

// substitutions walks the command substitutions of a statement's own
// words and redirections, each run in a subshell from in. It returns in,
// or unknown when a substitution that runs in the shell itself (${ cmd;})
// changes directory.
func (d *dirWalk) substitutions(s *syntax.Stmt, in Dir) Dir {
	after := in
	visit := func(n syntax.Node) {
		syntax.Walk(n, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Stmt:
				return false // walked by command
			case *syntax.CmdSubst:
				_, all := d.stmts(x.Stmts, in)
				if (x.TempFile || x.ReplyVar) && all.Moved() && !after.Unknown {
					after = unknownDir("a ${ ...;} substitution runs in the shell itself and changes directory")
				}
				return false
			case *syntax.ProcSubst:
				d.stmts(x.Stmts, in)
				return false
			}
			return true
		})
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd:
		visit(c)
	case *syntax.ForClause:
		visit(c.Loop)
	case *syntax.CaseClause:
		visit(c.Word)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				visit(p)
			}
		}
	}
	for _, r := range s.Redirs {
		visit(r)
	}
	return after
}

// command walks one command started in in.
func (d *dirWalk) command(cmd syntax.Command, in Dir) (ok, all Dir) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return d.call(c, in)
	case *syntax.DeclClause:
		return in, in
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			xo, xa := d.stmt(c.X, in)
			yo, ya := d.stmt(c.Y, xo)
			return yo, union(xa, ya)
		case syntax.OrStmt:
			xo, xa := d.stmt(c.X, in)
			yo, ya := d.stmt(c.Y, xa)
			return union(xo, yo), union(xa, ya)
		default:
			// A pipeline's commands run in subshells; zsh, and bash
			// with lastpipe, run the last in the shell itself.
			d.stmt(c.X, in)
			yo, ya := d.stmt(c.Y, in)
			return union(in, yo), union(in, ya)
		}
	case *syntax.Subshell:
		d.stmts(c.Stmts, in)
		return in, in
	case *syntax.Block:
		return d.stmts(c.Stmts, in)
	case *syntax.IfClause:
		return d.ifClause(c, in)
	case *syntax.WhileClause:
		return d.loop(in, func(in Dir) Dir {
			_, ca := d.stmts(c.Cond, in)
			_, ba := d.stmts(c.Do, ca)
			return union(ca, ba)
		})
	case *syntax.ForClause:
		return d.loop(in, func(in Dir) Dir {
			_, ba := d.stmts(c.Do, in)
			return ba
		})
	case *syntax.CaseClause:
		ok, all = in, in
		for _, it := range c.Items {
			io, ia := d.stmts(it.Stmts, in)
			ok, all = union(ok, io), union(all, ia)
		}
		return ok, all
	case *syntax.FuncDecl:
		if _, ba := d.stmt(c.Body, in); !sameDir(ba, in) {
			out := unknownDir("a function the line defines changes directory")
			d.stmt(c.Body, out)
			return out, out
		}
		d.bodies = append(d.bodies, c.Body)
		return in, in
	case *syntax.TimeClause:
		return d.stmt(c.Stmt, in)
	case *syntax.CoprocClause:
		d.stmt(c.Stmt, in)
		return in, in
	}
	return in, in
}

// sameDir reports whether a and b are the same directories.
func sameDir(a, b Dir) bool {
	return a.Unknown == b.Unknown && slices.Equal(a.paths(), b.paths())
}

// ifClause walks if/elif/else started in in.
func (d *dirWalk) ifClause(c *syntax.IfClause, in Dir) (ok, all Dir) {
	if len(c.Cond) == 0 { // else
		return d.stmts(c.Then, in)
	}
	co, ca := d.stmts(c.Cond, in)
	to, ta := d.stmts(c.Then, co)
	eo, ea := ca, ca
	if c.Else != nil {
		eo, ea = d.ifClause(c.Else, ca)
	}
	return union(to, eo), union(ta, ea)
}

// loop walks a loop whose body, run once from in, ends in the directory
// body returns: a body that changes directory runs again from where the
// last run left it, so it is walked again from an unknown directory.
func (d *dirWalk) loop(in Dir, body func(Dir) Dir) (ok, all Dir) {
	if out := body(in); sameDir(out, in) {
		return in, in
	}
	out := unknownDir("a loop changes directory")
	body(out)
	return out, out
}

// call walks a simple command; ok is the directory after it when it
// succeeded, all whatever happened.
func (d *dirWalk) call(c *syntax.CallExpr, in Dir) (ok, all Dir) {
	if len(c.Args) == 0 {
		return in, in
	}
	// The command word, past bash's NAME+=v and NAME[i]=v words; the
	// rest only for cd and the commands that run code in the shell, so
	// a long line is not read again word by word.
	var words []Word
	for i, a := range c.Args {
		fs, _ := fields(a, d.src)
		if len(fs) == 1 && len(words) == 0 && fs[0].Kind != Dynamic && assignableArg(a, d.src) && assignmentWord(fs[0].Text) {
			continue // an assignment before the command word
		}
		words = append(words, fs...)
		if len(words) > 0 {
			if name := words[0].Text; words[0].Kind == Static && (name == "cd" || name == "chdir" || name == "pushd" || sameShell[name]) {
				for _, r := range c.Args[i+1:] {
					fs, _ := fields(r, d.src)
					words = append(words, fs...)
				}
			}
			break
		}
	}
	if len(words) == 0 {
		return in, in
	}
	var out Dir
	switch {
	case words[0].Kind != Static:
		out = unknownDir("a command word computed at run time may change directory")
	case words[0].Text == "cd" || words[0].Text == "chdir" || words[0].Text == "pushd":
		ok = d.cd(words, in)
		// If cd fails the shell stays where it was.
		return ok, union(in, ok)
	case words[0].Text == "popd":
		out = unknownDir("popd returns to a directory the line does not show")
	case words[0].Text == "source" || words[0].Text == ".":
		out = unknownDir(words[0].Text + " runs a file that may change directory")
	case sameShell[words[0].Text] && runsCd(words[1:]):
		out = unknownDir(words[0].Text + " may run cd in the shell itself")
	case d.autocd || dirOnly(words[0].Text):
		// An interactive bash with autocd (the shell an IDE types the
		// line into; the person's settings may set it) and zsh with
		// AUTO_CD run "DIR" as "cd DIR".
		out = unknownDir(words[0].Text + " may name a directory, which autocd enters")
	default:
		return in, in
	}
	return out, out
}

// cd returns the directory after cd, chdir or pushd succeeded: one
// operand given in full moves it, anything else makes it unknown.
func (d *dirWalk) cd(words []Word, in Dir) Dir {
	name := words[0].Text
	var operands []Word
	opts := true
	for _, w := range words[1:] {
		switch {
		case opts && w.Kind == Static && w.Text == "--":
			opts = false
		case opts && w.Kind == Static && len(w.Text) > 1 && w.Text[0] == '-' && strings.Trim(w.Text[1:], "LPe@") == "":
			// -L, -P, -e, -@: where it goes is the same, logical or
			// physical, since every path is judged both ways.
		default:
			opts = false
			operands = append(operands, w)
		}
	}
	switch {
	case len(operands) != 1:
		return unknownDir(name + " with " + map[bool]string{true: "no operand goes to $HOME", false: "more than one operand"}[len(operands) == 0])
	case operands[0].Kind != Static:
		return unknownDir(name + " " + operands[0].Text + " goes to a directory computed when the line runs")
	}
	op := operands[0].Text
	switch {
	case op == "" || op == "-" || strings.HasPrefix(op, "+") || strings.HasPrefix(op, "-"):
		return unknownDir(name + " " + op + " goes to a directory the line does not show")
	}
	searched := !strings.HasPrefix(op, "/") && op != "." && op != ".." && !strings.HasPrefix(op, "./") && !strings.HasPrefix(op, "../")
	if searched && d.unsearched {
		return unknownDir(name + " " + op + " may be looked up in CDPATH or as a variable, which the line sets")
	}
	return in.enter(op, searched)
}

// dirOnly reports whether a command name can only name a directory: its
// last element is ".", ".." or empty ("..", "sub/../..", "dir/").
func dirOnly(name string) bool {
	last := name[strings.LastIndexByte(name, '/')+1:]
	return last == "" || last == "." || last == ".."
}

// runsCd reports whether words may run cd: one of them mentions it, or is
// computed at run time.
func runsCd(words []Word) bool {
	for _, w := range words {
		if w.Kind == Dynamic || mentionsCd(w.Text) {
			return true
		}
	}
	return false
}
