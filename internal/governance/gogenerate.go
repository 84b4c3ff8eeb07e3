package governance

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
	"mvdan.cc/sh/v3/syntax"
)

// "go generate" runs the command of every //go:generate line of the Go
// files of the packages it is given, in each package's directory: a
// command line the line itself does not show, as a script's are. Each
// directive is read as go generate reads it (words split at spaces,
// double-quoted strings unquoted as Go does, $NAME expanded from go
// generate's own variables or left to the environment, "-command NAME
// ..." defining a name for later directives of the file) and written as
// a shell line of the same words, which is decided as a line of its own in
// the package's directory: by self-protection (protect_command.go) and by
// the policy's restrictive rules (script_commands.go), as a shell script's
// lines are. A package named by an import path rather than a directory is
// not read.

// goDirective is one //go:generate line as the command it runs.
type goDirective struct {
	file string // the Go file holding it
	line int    // its line number there
	dir  string // the package directory it runs in
	text string // its command as a shell line of the same words
}

// maxGenerateDepth bounds go generate lines running go generate.
const maxGenerateDepth = 4

// goGenerateDirectives returns the directives "go generate" (form, run in
// dir) runs; why says what keeps the bridge from reading them all (a
// package pattern over more entries than maxTreeEntries, a file it cannot
// read), "" when none does. ok is false for any other form.
func goGenerateDirectives(form []shellcmd.Word, dir string) (out []goDirective, why string, ok bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "go" {
		return nil, "", false
	}
	dir, i := goChdir(form, dir)
	if i >= len(form) || form[i].Text != "generate" {
		return nil, "", false
	}
	var files []string
	patterns := 0
	for j := i + 1; j < len(form); j++ {
		w := form[j]
		t := w.Text
		switch {
		case w.Kind != shellcmd.Static:
			return nil, "a package is named by a word known only when the line runs", true
		case t == "-run" || t == "-skip":
			j++ // and its pattern
		case strings.HasPrefix(t, "-"):
		case strings.HasSuffix(t, ".go"):
			patterns++
			files = append(files, joinRaw(dir, t))
		case strings.HasPrefix(t, ".") || strings.HasPrefix(t, "/"):
			patterns++
			fs, w := goPackageFiles(joinRaw(dir, strings.TrimSuffix(t, "/...")), strings.HasSuffix(t, "/..."))
			if w != "" {
				return nil, w, true
			}
			files = append(files, fs...)
		default:
			patterns++ // an import path: not read
		}
	}
	if patterns == 0 {
		fs, w := goPackageFiles(dir, false)
		if w != "" {
			return nil, w, true
		}
		files = fs
	}
	for _, f := range files {
		ds, w := fileDirectives(f)
		if w != "" {
			return nil, w, true
		}
		out = append(out, ds...)
	}
	return out, "", true
}

// goPackageFiles returns the .go files of the package in dir, and with
// all those of the packages beneath it, as go's "..." finds them (not in
// testdata or a directory whose name starts with "." or "_").
func goPackageFiles(dir string, all bool) ([]string, string) {
	if !all {
		m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		return m, ""
	}
	var out []string
	budget := maxTreeEntries
	within := walkBudget(dir, &budget, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && p != dir && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(d.Name(), ".go"):
			out = append(out, p)
		}
		return nil
	})
	if !within {
		return nil, fmt.Sprintf("the packages beneath %s hold more than %d entries", dir, maxTreeEntries)
	}
	return out, ""
}

// fileDirectives reads the //go:generate lines of the Go file f.
func fileDirectives(f string) ([]goDirective, string) {
	text, why := readResolved(f)
	if why != "" {
		if _, err := os.Stat(f); err != nil {
			return nil, "" // nothing there: go generate runs nothing of it
		}
		return nil, "the Go file " + f + " cannot be read: " + why
	}
	pkg := ""
	aliases := map[string][]string{}
	var out []goDirective
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), maxScriptBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "package "); ok && pkg == "" {
			pkg = strings.TrimSpace(rest)
		}
		rest, ok := strings.CutPrefix(line, "//go:generate")
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		words, err := generateWords(strings.TrimSpace(rest), map[string]string{
			"GOFILE": filepath.Base(f), "GOLINE": strconv.Itoa(n), "GOPACKAGE": pkg, "DOLLAR": "$"})
		if err != "" {
			return nil, fmt.Sprintf("%s:%d: the //go:generate line cannot be read (%s)", f, n, err)
		}
		if len(words) == 0 {
			continue
		}
		if words[0][0].text == "-command" {
			if len(words) > 1 {
				aliases[words[1][0].text] = shellWords(words[2:])
			}
			continue
		}
		cmd := shellWords(words)
		if a, ok := aliases[words[0][0].text]; ok && len(words[0]) == 1 {
			cmd = append(append([]string(nil), a...), cmd[1:]...)
		}
		out = append(out, goDirective{file: f, line: n, dir: filepath.Dir(f), text: strings.Join(cmd, " ")})
	}
	return out, ""
}

// generatePart is a piece of a go generate word: literal text, or (env)
// the name of a variable of the environment it runs in.
type generatePart struct {
	text string
	env  bool
}

// generateWords splits a directive as go generate does: at spaces and
// tabs, a double-quoted string unquoted as a Go string literal, then $NAME
// and ${NAME} expanded from vars, any other name left to the environment.
func generateWords(s string, vars map[string]string) ([][]generatePart, string) {
	var raw []string
	for s = strings.TrimLeft(s, " \t"); s != ""; s = strings.TrimLeft(s, " \t") {
		if s[0] == '"' {
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, "an unterminated quoted string"
			}
			w, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, "a quoted string Go cannot read"
			}
			raw = append(raw, w)
			s = s[end+1:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		raw = append(raw, s[:end])
		s = s[end:]
	}
	out := make([][]generatePart, 0, len(raw))
	for _, w := range raw {
		if strings.IndexByte(w, 0) >= 0 {
			return nil, "a word holding a NUL byte, which no program can be given"
		}
		parts := expandParts(w, vars)
		if len(parts) == 0 {
			parts = []generatePart{{text: ""}}
		}
		out = append(out, parts)
	}
	return out, ""
}

// expandParts is os.Expand of w, which go generate applies to each word,
// with vars for the names go generate sets and every other name left as a
// variable of the environment.
func expandParts(w string, vars map[string]string) []generatePart {
	var parts []generatePart
	lit := 0
	for j := 0; j < len(w); j++ {
		if w[j] != '$' || j+1 >= len(w) {
			continue
		}
		if j > lit {
			parts = append(parts, generatePart{text: w[lit:j]})
		}
		name, n := expandName(w[j+1:])
		switch v, ok := vars[name]; {
		case name == "" && n > 0: // bad syntax: os.Expand drops it
		case name == "":
			parts = append(parts, generatePart{text: "$"})
		case ok:
			parts = append(parts, generatePart{text: v})
		default:
			parts = append(parts, generatePart{text: name, env: true})
		}
		j += n
		lit = j + 1
	}
	if lit < len(w) {
		parts = append(parts, generatePart{text: w[lit:]})
	}
	return parts
}

// expandName is os.Expand's reading of the name after a '$': "{NAME}",
// one of the shell's special characters or a digit, or a run of letters,
// digits and '_'; n is how many bytes it takes (name "" with n > 0 is bad
// syntax, which os.Expand drops).
func expandName(s string) (name string, n int) {
	special := func(c byte) bool { return strings.IndexByte("*#$@!?-", c) >= 0 || c >= '0' && c <= '9' }
	switch {
	case s[0] == '{':
		if len(s) > 2 && special(s[1]) && s[2] == '}' {
			return s[1:2], 3
		}
		for i := 1; i < len(s); i++ {
			if s[i] == '}' {
				if i == 1 {
					return "", 2
				}
				return s[1:i], i + 1
			}
		}
		return "", 1
	case special(s[0]):
		return s[:1], 1
	}
	for n < len(s) && (s[n] == '_' || s[n] >= '0' && s[n] <= '9' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z') {
		n++
	}
	return s[:n], n
}

// shellWords writes each go generate word as one shell word: its literal
// parts quoted, a variable of the environment as "${NAME}".
func shellWords(words [][]generatePart) []string {
	out := make([]string, len(words))
	for i, parts := range words {
		var b strings.Builder
		for _, p := range joinLiterals(parts) {
			if p.env {
				b.WriteString(`"${` + p.text + `}"`)
				continue
			}
			// Quote fails on a NUL byte only, which generateWords refuses
			// (a variable's value may hold none either).
			q, err := syntax.Quote(p.text, syntax.LangBash)
			if err != nil {
				q = "''"
			}
			b.WriteString(q)
		}
		out[i] = b.String()
		if i == 0 && syntax.IsKeyword(out[i]) {
			// go generate runs "if" or "!" as a program, which a shell
			// would read as its own word unless quoted.
			out[i] = "'" + out[i] + "'"
		}
	}
	return out
}

// generateLine is a go generate directive a command of the line runs.
type generateLine struct {
	cmd *shellcmd.Command
	goDirective
}

// generateLines returns the directives the go generate commands of lines
// (run in cwd) run; why says what keeps the bridge from reading them all.
func (e *Engine) generateLines(in *reqInfo, lines []*shellcmd.Analysis, cwd string) (out []generateLine, why string) {
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				for _, d := range e.runDirs(in, c, cwd) {
					ds, w, ok := goGenerateDirectives(form, d)
					if !ok {
						break
					}
					if w != "" {
						return nil, w
					}
					for _, g := range ds {
						out = append(out, generateLine{cmd: c, goDirective: g})
					}
				}
			}
		}
	}
	if len(out) > 0 && in.genDepth >= maxGenerateDepth {
		return nil, fmt.Sprintf("its go generate lines run go generate more than %d deep", maxGenerateDepth)
	}
	return out, ""
}

// who names a directive for a reason: "the //go:generate line gen.go:3".
func (g generateLine) who(in *reqInfo) string {
	return fmt.Sprintf("the //go:generate line %s:%d", displayPath(g.file, in.req.Cwd), g.line)
}

// request is the directive as a request of its own, in its package's
// directory.
func (g generateLine) request(in *reqInfo) *reqInfo {
	sub := scriptRequest(in, g.text, g.dir)
	sub.genDepth = in.genDepth + 1
	return sub
}

// generateProtected decides the go generate lines the line's commands
// run by self-protection, as lines of their own: one that changes a
// protected file, or that the bridge cannot read, refuses or asks about
// the line.
func (e *Engine) generateProtected(in *reqInfo, lines []*shellcmd.Analysis, cwd string) (verdict, bool) {
	line := strings.TrimSpace(in.req.Command + " " + strings.Join(in.req.Argv, " "))
	gs, why := e.generateLines(in, lines, cwd)
	if why != "" {
		return verdict{value: RequireApproval, ref: "unreadable-command",
			ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: fmt.Sprintf("running %q: %s, so the bridge cannot read every go generate line it runs", line, why)}, true
	}
	for _, g := range gs {
		if v, ok := e.protectedCommand(g.request(in)); ok {
			v.reason = fmt.Sprintf("running %q: %s runs %q: %s", line, g.who(in), g.text, v.reason)
			return v, true
		}
	}
	return verdict{}, false
}

// generateCommands decides the go generate lines the line's commands run
// by the policy's restrictive rules, as a script's lines are
// (decideScriptLines): a deny there denies the line, an ask is kept in w.
func (e *Engine) generateCommands(in *reqInfo, lines []*shellcmd.Analysis, w *scriptWalk) (verdict, bool) {
	gs, why := e.generateLines(in, lines, filepath.Clean(in.req.Cwd))
	if why != "" {
		v := verdict{value: RequireApproval, ref: "script-commands",
			ruleTx: "require-approval for scripts whose commands the bridge cannot read (built-in)",
			reason: fmt.Sprintf("running %q: %s, so the bridge cannot tell whether it runs a command the policy refuses", strings.TrimSpace(in.req.Command), why)}
		if w.found == nil || v.value.Stricter(w.found.value) {
			w.found = &v
		}
		return verdict{}, false
	}
	for _, g := range gs {
		w.top = strings.TrimSpace(g.cmd.Source)
		sub := g.request(in)
		if v, ok := e.decideScriptLines(sub, sub.memo.lines, g.who(in), w); ok {
			return v, true
		}
		// The scripts it runs, as a script's scripts are.
		chain := []scriptLink{{name: g.who(in), path: g.file}}
		if v, ok := e.scriptsOf(sub, sub.memo.lines, g.dir, chain, w); ok {
			return v, true
		}
	}
	return verdict{}, false
}

// joinLiterals joins each run of literal parts into one, so that a word
// is quoted once ('${HOME}', not '$”{HOME}').
func joinLiterals(parts []generatePart) []generatePart {
	var out []generatePart
	for _, p := range parts {
		if n := len(out); n > 0 && !p.env && !out[n-1].env {
			out[n-1].text += p.text
			continue
		}
		out = append(out, p)
	}
	return out
}
