package shellcmd

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// WordKind says how much of a word's value is known before it runs.
type WordKind uint8

const (
	// Static: the value is known from the text (after quote removal).
	Static WordKind = iota
	// Glob: the word is a pathname pattern; the shell replaces it with the
	// names of the files it matches when the command runs.
	Glob
	// Dynamic: the value comes from an expansion done at run time.
	Dynamic
)

// Word is one word of a command, after brace expansion.
type Word struct {
	// Kind says whether Text is the value.
	Kind WordKind
	// Text is the value after quote removal when Kind is Static; the glob
	// pattern (quoted metacharacters escaped with a backslash) when Glob;
	// the word as written when Dynamic.
	Text string
	// Why says what makes a Dynamic word dynamic ("parameter expansion
	// $X"); empty otherwise.
	Why string
	// zshPattern is the word as a pattern (quoted bytes escaped) where
	// zsh's EXTENDED_GLOB reads operators in it that bash and sh do not
	// (zshExtendedReadings); empty otherwise.
	zshPattern string
}

// String returns the word's text; a word that is not static is marked.
func (w Word) String() string {
	switch w.Kind {
	case Glob:
		return w.Text + " (glob)"
	case Dynamic:
		return w.Text + " (" + w.Why + ")"
	}
	return w.Text
}

// NoteKind classifies a reason a command cannot be vouched for.
type NoteKind uint8

const (
	// NotStatic: the command word, or a word a wrapper's grammar needs,
	// is computed at run time.
	NotStatic NoteKind = iota + 1
	// Unparsed: the wrapper's options were not understood, the line did
	// not parse in one of the dialects, or nesting went too deep.
	Unparsed
	// RunsCode: the command runs code the analysis does not see
	// (python -c, eval, source, a shell reading its input); a policy rule
	// that names the command can still allow it.
	RunsCode
	// OpensFiles: the command opens files named inside its script (sed's
	// r and w, awk's getline < and print >), which are not decided as
	// paths; no rule vouches for it.
	OpensFiles
	// ScriptFile: the command runs a script it reads from a file the line
	// names (sed -f, awk -f), listed in Command.Scripts. The text is not
	// the line's, so no rule vouches for it; a caller that reads the file
	// judges the text instead (AnalyzeScript) and drops the note.
	ScriptFile
	// LoadsCode: the command loads code from a file the bridge does not
	// read (gawk's -i library found on AWKPATH, its -l shared library,
	// its debugger's commands); no rule vouches for it.
	LoadsCode
)

// Input is the standard input a redirection gives a command: the file a
// < or <> names (File), or a here-document's or here-string's text (Text,
// when Known: static); neither when its text is computed.
type Input struct {
	File  *Word
	Text  string
	Known bool
}

// Note is one reason a command cannot be vouched for.
type Note struct {
	Kind NoteKind
	Text string
	// Form is the index in Command.Forms of the form the note is about: a
	// rule that names that form, or an outer one, names the command.
	Form int
}

// Command is one simple command the line runs.
type Command struct {
	// Forms are the command's words, then the words of what each wrapper
	// runs, outermost first. No form is empty.
	Forms [][]Word
	// Source is the command as written.
	Source string
	// Notes say why no rule can vouch for the command; empty when its
	// forms say everything it runs.
	Notes []Note
	// Transparent: the command only runs shell code that is analysed as
	// commands of its own (bash -c 'ls', trap 'ls' EXIT), so it needs no
	// decision of its own unless a rule names it.
	Transparent bool
	// Input is what a redirection of the command's statement gives it as
	// its standard input; nil when none does (a pipe, the terminal).
	Input *Input
	// Dir is where the command runs, after the line's cd commands
	// before it (cwd.go).
	Dir Dir
	// Scripts are the script files the command's text tools read their
	// script from (script_sources.go), each with a ScriptFile note.
	Scripts []Script
	// NoPath, when not empty, says why a program the command runs, or
	// one the shell runs after it, may start with no PATH (env -i, env
	// -u PATH, exec -c, unset PATH): it then looks names up where it
	// runs (nopath.go).
	NoPath string
	// ShellScripts are the files a shell or source among its forms runs
	// as shell code: a shell's script operand (bash s.sh), the file
	// source or . runs, the file a shell reads its commands from on its
	// input (bash < s.sh). Their text is not the line's; a caller reads
	// it to decide the commands it runs.
	ShellScripts []ShellScript
}

// ShellScript is a file a form of a command runs as shell code.
type ShellScript struct {
	// Name is the file as the line names it, relative to where the
	// command runs (Command.Dir).
	Name Word
	// Form is the index in Command.Forms of the shell's or source's form.
	Form int
}

// Assignment is a variable the line sets: NAME=value, NAME+=value,
// NAME[i]=value, declare/export/local/readonly NAME=value, env NAME=value,
// read NAME, for NAME in ...
type Assignment struct {
	Name string
	// Value is the value when Static.
	Value  string
	Static bool
	// Dir is where the line is when it sets the variable: where a
	// relative name in the value leads for the program that reads it.
	Dir Dir
	// Append says the value is added to what the variable held
	// (NAME+=value): the whole value is that and Value together.
	Append bool
}

// Analysis is everything a command line runs.
type Analysis struct {
	// Line is the analysed command line.
	Line string
	// Commands are the simple commands, in the order they appear.
	Commands []*Command
	// Assignments are the variables set, in order.
	Assignments []Assignment
	// Redirects are the files the line's redirections open.
	Redirects []Redirect
	// Duplications are the descriptors the line's redirections copy
	// onto others (2>&1).
	Duplications []Duplication
	// ChangesDir: the line runs cd, pushd or popd, so a relative path in
	// it may not be relative to the directory it starts in; each
	// command's and redirection's Dir says where it runs.
	ChangesDir bool
	// Problems are line-level reasons for caution (a parse error); each
	// makes the whole line at least need approval.
	Problems []string
}

// Options configures an analysis. The zero value is usable.
type Options struct {
	// Dir is the directory the command runs in; glob patterns in command
	// position are matched against its file system. Optional; if empty,
	// globs are not expanded.
	Dir string
	// Script says the text is a script file a shell runs, not a line
	// typed at an interactive bash: no history expansion applies.
	Script bool
}

// maxDepth bounds nesting of shell strings run by shells, eval and
// wrappers.
const maxDepth = 8

// maxFields bounds the words one simple command may expand to (brace
// expansion); beyond it the command is marked Unparsed.
const maxFields = 512

// Analyze returns every command line runs, parsed as bash and as POSIX sh.
// It never fails: what it cannot read becomes a Problem or a Note.
func Analyze(line string, opts Options) *Analysis {
	a := &Analysis{Line: line}
	w := newWalker(a, opts)
	if e, ok := historyExpansion(line); ok && !opts.Script {
		w.problem("an interactive bash replaces %s with words from its history (history expansion) before it reads the line, so what runs is not what the line shows", e)
	}
	w.line(line, 0, dialectsOf("sh"))
	w.checkEvaluations()
	markSourced(a)
	return a
}

// AnalyzeArgv returns what running argv directly (execve, no shell) runs.
func AnalyzeArgv(argv []string, opts Options) *Analysis {
	a := &Analysis{Line: strings.Join(argv, " ")}
	if len(argv) == 0 {
		return a
	}
	w := newWalker(a, opts)
	words := make([]Word, len(argv))
	for i, s := range argv {
		words[i] = Word{Kind: Static, Text: s}
	}
	w.build(&Command{Source: a.Line}, words, nil, 0)
	return a
}

// maxPrefixLines bounds the lines prefix tries.
const maxPrefixLines = 64

// prefix walks the longest run of leading lines of src that parses: a
// shell runs the lines before a syntax error before it reports it. A
// recovering parse of the whole is walked too.
func (w *walker) prefix(src string, depth int, langs dialects) {
	for _, lang := range langs {
		if f, err := parse(src, lang, syntax.RecoverErrors(16)); err == nil {
			w.file(f, src, depth, lang)
		}
		lines := strings.SplitAfter(src, "\n")
		for n := min(len(lines)-1, maxPrefixLines); n > 0; n-- {
			head := strings.Join(lines[:n], "")
			if f, err := parse(head, lang); err == nil {
				w.file(f, head, depth, lang)
				break
			}
		}
		w.beforeError(src, depth, lang)
	}
}

// beforeError walks the commands of src before the one its parse in lang
// fails in: the text up to the last ; & | or newline before the error's
// position, if that parses. dash reads and runs a line command by command,
// so "echo $'\'; rm x; echo ${x:0:1}" runs rm x before it fails at the
// slice, which the POSIX grammar here rejects where it meets it.
func (w *walker) beforeError(src string, depth int, lang syntax.LangVariant) {
	if w.parses += 2; w.parses > maxParses {
		w.problem("the command line nests too many shell strings to analyse")
		return
	}
	_, err := parse(src, lang)
	var pos syntax.Pos
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		pos = pe.Pos
	case errors.As(err, &le):
		pos = le.Pos
	default:
		return
	}
	off := int(pos.Offset())
	if off <= 0 || off > len(src) {
		return
	}
	head := src[:strings.LastIndexAny(src[:off], ";&|\n")+1]
	if strings.TrimSpace(head) == "" {
		return
	}
	if f, err := parse(head, lang); err == nil {
		w.file(f, head, depth, lang)
	}
}

// maxPieces bounds the pieces of a line that does not parse that pieces
// walks.
const maxPieces = 256

// pieces walks each piece of src between the characters that end or open a
// command (; & | ( ) { } ` and newlines), its leading reserved words
// (then, do, ...) taken off, that parses on its own. src does not parse
// here, while bash may read it: mvdan.cc/sh v3.14.1 reads a subscript
// of a compound assignment as arithmetic, so "declare -A m=([a b]=1); rm
// x" did not parse, and the rm x bash runs after it was never decided. A
// piece may be text inside quotes that runs nothing; deciding it anyway
// only adds commands to a line that needs approval already.
func (w *walker) pieces(src string, depth int, langs dialects) {
	cut := func(r rune) bool { return strings.ContainsRune(";&|(){}`\n", r) }
	n := 0
	for _, piece := range strings.FieldsFunc(src, cut) {
		piece = strings.TrimSpace(piece)
		for {
			word, rest, _ := strings.Cut(piece, " ")
			switch word {
			case "then", "do", "else", "elif", "if", "while", "until", "!", "time", "$":
				piece = strings.TrimSpace(rest)
				continue
			}
			break
		}
		if piece == "" || piece == src {
			continue
		}
		if n++; n > maxPieces {
			w.problem("the command line has too many pieces to analyse")
			return
		}
		for _, lang := range langs {
			if f, err := parse(piece, lang); err == nil {
				w.file(f, piece, depth, lang)
				break
			}
		}
	}
}

// parse parses src in lang with the parser options opts. The recovering
// parser of mvdan.cc/sh v3.14.1 (syntax.RecoverErrors) panics on some
// broken lines ("A=$((0 A"): a panic is an error, as a line that does not
// parse is, so the line is walked no further than its other parses reach
// and needs approval.
func parse(src string, lang syntax.LangVariant, opts ...syntax.ParserOption) (f *syntax.File, err error) {
	defer func() {
		if v := recover(); v != nil {
			f, err = nil, fmt.Errorf("the parser failed: %v", v)
		}
	}()
	src, err = commentsEndAtNewline(src, lang, opts)
	if err != nil {
		return nil, err
	}
	return syntax.NewParser(append(opts, syntax.Variant(lang))...).Parse(strings.NewReader(src), "")
}

// commentsEndAtNewline returns src with the backslash that ends a comment
// line made a space. bash and dash end a comment at the newline, the
// backslash before it being a character of the comment; mvdan.cc/sh
// v3.14.1 takes that backslash and newline for a line continuation
// (lexer.go, the '#' case: "case escNewl: break runeLoop"), so that
// "echo ok # \" followed by a newline and "rm x" was one command to the
// grammar (echo ok rm x, allowed by a rule for echo) and two to every
// shell. The space keeps every offset of src, which the walk slices. A
// comment whose end the parser places where src holds no backslash and
// newline is an error: the line needs approval rather than a reading the
// shells do not share.
func commentsEndAtNewline(src string, lang syntax.LangVariant, opts []syntax.ParserOption) (string, error) {
	if !strings.Contains(src, "#") || !strings.Contains(src, "\\\n") && !strings.Contains(src, "\\\r\n") {
		return src, nil
	}
	for range maxCommentLines {
		f, err := syntax.NewParser(append(opts[:len(opts):len(opts)], syntax.Variant(lang), syntax.KeepComments(true))...).Parse(strings.NewReader(src), "")
		if f == nil || err != nil && len(opts) == 0 {
			return src, nil // the parse that follows reports it
		}
		b := []byte(src)
		changed := false
		var bad error
		syntax.Walk(f, func(n syntax.Node) bool {
			c, ok := n.(*syntax.Comment)
			if !ok || !strings.HasSuffix(c.Text, "\\\n") || bad != nil {
				return true
			}
			start := int(c.Hash.Offset())
			nl := strings.IndexByte(src[min(start, len(src)):], '\n')
			at := start + nl - 1
			if at > start && src[at] == '\r' {
				at--
			}
			if nl < 0 || at <= start || src[at] != '\\' {
				bad = fmt.Errorf("a comment at offset %d ends in a backslash and a newline, which the grammar here reads otherwise than the shells", start)
				return false
			}
			b[at] = ' '
			changed = true
			return true
		})
		if bad != nil {
			return src, bad
		}
		if !changed {
			return src, nil
		}
		src = string(b)
	}
	return src, fmt.Errorf("more than %d comments end in a backslash and a newline", maxCommentLines)
}

// maxCommentLines bounds the parses commentsEndAtNewline makes: each
// fixes every comment the grammar found, and a fixed comment may let it
// find the next one (the line it swallowed held it).
const maxCommentLines = 64

// dialects lists the grammars a shell string is parsed in.
type dialects []syntax.LangVariant

// dialectsOf returns the grammars of the shell named name: sh may be dash
// or bash, so it is read as both; so are shells the analysis does not
// model (zsh, ksh, fish), with a note.
func dialectsOf(shell string) dialects {
	switch shell {
	case "bash", "rbash":
		return dialects{syntax.LangBash}
	case "dash", "ash", "posh":
		return dialects{syntax.LangPOSIX}
	}
	return dialects{syntax.LangBash, syntax.LangPOSIX}
}

// walker accumulates an analysis.
type walker struct {
	a    *Analysis
	opts Options
	// seen holds the keys of commands already added, so a line read in
	// two dialects that agree lists each command once.
	seen map[string]bool
	// parses counts the shell strings parsed, against maxParses.
	parses int
	// evals are the values the line evaluates as code (evaluate.go).
	evals evaluations
	// cur is where the statement being walked runs (cwd.go).
	cur Dir
	// lineNames are the names starting with '-' the line may make where
	// it starts (option_globs.go).
	lineNames map[string]bool
	// held are the values the line gives each variable, for NAME+=value
	// (walk.go).
	held map[string]heldValues
	// fds is what the statement being walked feeds each input
	// descriptor (fd_scripts.go).
	fds map[int]*stdin
	// keyword says a command before may have turned on bash's keyword
	// option (set -k), under which a NAME=value word after the command
	// word is an assignment, not an argument (readings, walk.go).
	keyword bool
	// extendedGlob says a command before may have turned on zsh's
	// EXTENDED_GLOB, under which a "^" first in a path element is a
	// negation too (zsh_extendedglob.go).
	extendedGlob bool
	// aliases are the aliases the line defined so far, by name, and
	// expanding those whose expansion is being walked (alias_uses.go).
	aliases   map[string]string
	expanding map[string]bool
	// pipedFrom is, for each statement on the right of a pipe, the one
	// whose output it reads (pure_output.go).
	pipedFrom map[*syntax.Stmt]*syntax.Stmt
	// funcs are the bodies of the functions the line defined so far, by
	// name (function_calls.go).
	funcs map[string]string
	// argv0 are the names the line assigned zsh's ARGV0 so far, which
	// the programs zsh starts after it take as their name (argv0.go).
	argv0 []string
}

// newWalker returns a walker that adds to a.
func newWalker(a *Analysis, opts Options) *walker {
	return &walker{a: a, opts: opts, seen: map[string]bool{},
		evals: evaluations{arith: map[string]bool{}, integer: bashIntegers()}}
}

// maxParses bounds the parsing one analysis does: shell strings nest, are
// read in two dialects and wrappers may offer many candidates, so the work
// could otherwise grow exponentially with a crafted line.
const maxParses = 512

// problem records a line-level reason for caution.
func (w *walker) problem(format string, args ...any) {
	p := fmt.Sprintf(format, args...)
	if !w.seen["\x01"+p] {
		w.seen["\x01"+p] = true
		w.a.Problems = append(w.a.Problems, p)
	}
}

// line parses src in each dialect and walks what parses. If no dialect
// parses it, the parts a recovering parser can read are still walked, so a
// denied command before the syntax error is found.
func (w *walker) line(src string, depth int, langs dialects) {
	if depth > maxDepth {
		w.problem("shell strings nested more than %d deep are not analysed", maxDepth)
		return
	}
	w.parses += len(langs)
	if w.parses > maxParses {
		w.problem("the command line nests too many shell strings to analyse")
		return
	}
	if depth == 0 || !strings.Contains(w.a.Line, src) {
		w.mapfileUses(src) // zsh_mapfile.go
	}
	if zshOptionsAssigned(src) {
		// zsh's options array: options[extendedglob]=on sets the option
		// (zsh_extendedglob.go), a line bash does not read as zsh does.
		w.extendedGlob = true
	}
	if strings.Contains(src, "\\\n") { // continuations.go
		keep, parses := keptContinuations(src)
		if joined, ok := withoutContinuations(src, keep); ok {
			switch {
			case joinedParses(joined, langs):
				w.line(joined, depth+1, langs)
			case parses:
				w.problem("the command line read without its line continuations, as the shells read it, does not parse")
			}
		}
	}
	// zsh's reading of subscripts and modifiers (zsh_subscripts.go),
	// after the line's own, whose commands are shown first.
	defer func() {
		braced, unread, ok := zshSubscripted(src)
		if ok && joinedParses(braced, langs) {
			w.line(braced, depth+1, langs)
		}
		for _, u := range unread {
			w.problem("zsh applies the modifiers or flags of %s to the parameter's value, which is not followed here", u)
		}
		for _, r := range w.zshModifiedReadings(src, unread) { // zsh_modifier_values.go
			w.line(r, depth+1, langs)
		}
	}()
	var failed []string
	var failedLangs dialects
	parsed := 0
	defer func() {
		if len(failed) > 0 && strings.HasPrefix(failed[0], "bash") {
			w.arithmeticOrSubshell(src, depth)
		}
	}()
	for _, lang := range langs {
		f, err := parse(src, lang)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", lang, err))
			failedLangs = append(failedLangs, lang)
			continue
		}
		parsed++
		w.file(f, src, depth, lang)
	}
	if parsed == 0 {
		w.prefix(src, depth, langs)
		w.pieces(src, depth, langs)
		w.zshUnparsedWords(src) // zsh_unparsed.go
		w.bareQualifiers(src, depth)
		for _, r := range caseToggleReadings(src) { // bash_casetoggle.go
			w.line(r, depth+1, langs)
		}
		w.problem("the command line does not parse (%s), so what runs is not known", strings.Join(failed, "; "))
		return
	}
	if len(failed) > 0 && langs[0] == syntax.LangBash && strings.HasPrefix(failed[0], "bash") {
		// bash accepts lines its grammar here rejects (A[0]=1 cmd): the
		// POSIX reading was walked, but bash may read it otherwise.
		w.problem("the command line does not parse as bash (%s)", failed[0])
		w.zshUnparsedWords(src)
		w.bareQualifiers(src, depth)
		for _, r := range caseToggleReadings(src) {
			w.line(r, depth+1, langs)
		}
		return
	}
	if len(failed) > 0 {
		// The POSIX grammar here rejects what dash reads and runs
		// command by command ("echo $'\'; rm x; echo ${x:0:1}": dash
		// reads no $'...', runs rm x, and fails at the slice only when
		// it expands it), and reads on past some of bash's constructs
		// ("&>" is "&" then ">" to it): the line is read as sh reads
		// it (posixReading).
		for _, lang := range failedLangs {
			if lang == syntax.LangPOSIX {
				w.posixReading(src, depth)
				continue
			}
			w.beforeError(src, depth, lang)
		}
	}
}
