package governance

import (
	"path"
	"strings"
)

// shellCommand is one simple command found in a command line.
type shellCommand struct {
	// forms are the command's words as written (leading assignments and
	// keywords removed), followed by the words of what each wrapper it
	// starts with runs: "sudo env X=1 rm -rf /" has the forms
	// [sudo env X=1 rm -rf /], [env X=1 rm -rf /] and [rm -rf /].
	forms [][]string
	// dynamic says the command to run is not fully known from the text:
	// its command word comes from an expansion, or the line did not parse.
	dynamic bool
}

// maxShellDepth bounds nesting of substitutions and "sh -c" strings.
const maxShellDepth = 8

// splitCommand splits a shell command line into the simple commands it
// runs: it splits on && || ; | & and newlines, descends into $(...),
// backticks, <(...) and >(...), "bash -c '...'", "eval ...", "find -exec",
// and strips wrappers (env, sudo, command, exec, nohup, time, nice,
// timeout, stdbuf, xargs, ...) so none of them can hide a command from a
// rule. Quotes and backslashes are removed from words, as the shell does.
func splitCommand(line string) []shellCommand {
	var out []shellCommand
	splitInto(line, 0, &out)
	return out
}

// lexer state for one command line.
type shellLexer struct {
	s     string
	i     int
	depth int
	out   *[]shellCommand

	words   []string
	wordDyn []bool
	cur     strings.Builder
	inWord  bool
	curDyn  bool
	broken  bool
}

func splitInto(line string, depth int, out *[]shellCommand) {
	if depth > maxShellDepth {
		*out = append(*out, shellCommand{forms: [][]string{{line}}, dynamic: true})
		return
	}
	lx := &shellLexer{s: line, depth: depth, out: out}
	lx.run()
}

func (lx *shellLexer) endWord() {
	if lx.inWord {
		lx.words = append(lx.words, lx.cur.String())
		lx.wordDyn = append(lx.wordDyn, lx.curDyn)
	}
	lx.cur.Reset()
	lx.inWord, lx.curDyn = false, false
}

func (lx *shellLexer) endCommand() {
	lx.endWord()
	if len(lx.words) > 0 || lx.broken {
		lx.emit(lx.words, lx.wordDyn, lx.broken)
	}
	lx.words, lx.wordDyn, lx.broken = nil, nil, false
}

// sub handles a nested command line (a substitution or -c string).
func (lx *shellLexer) sub(inner string) {
	splitInto(inner, lx.depth+1, lx.out)
}

func (lx *shellLexer) run() {
	s := lx.s
	for lx.i < len(s) {
		c := s[lx.i]
		switch {
		case c == '\'':
			end := strings.IndexByte(s[lx.i+1:], '\'')
			lx.inWord = true
			if end < 0 {
				lx.cur.WriteString(s[lx.i+1:])
				lx.broken = true
				lx.i = len(s)
				continue
			}
			lx.cur.WriteString(s[lx.i+1 : lx.i+1+end])
			lx.i += end + 2
		case c == '"':
			lx.inWord = true
			lx.doubleQuoted()
		case c == '\\':
			if lx.i+1 < len(s) {
				if s[lx.i+1] != '\n' {
					lx.inWord = true
					lx.cur.WriteByte(s[lx.i+1])
				}
				lx.i += 2
			} else {
				lx.i++
			}
		case c == '$' || c == '`':
			lx.inWord = true
			lx.expansion()
		case (c == '<' || c == '>') && lx.i+1 < len(s) && s[lx.i+1] == '(':
			inner, n := balanced(s[lx.i+1:])
			lx.sub(inner)
			lx.inWord, lx.curDyn = true, true
			lx.cur.WriteString(s[lx.i : lx.i+1+n])
			lx.i += 1 + n
		case c == '#' && !lx.inWord:
			nl := strings.IndexByte(s[lx.i:], '\n')
			if nl < 0 {
				lx.i = len(s)
			} else {
				lx.i += nl
			}
		case c == ' ' || c == '\t' || c == '\r':
			lx.endWord()
			lx.i++
		case c == '&' && (lx.i+1 < len(s) && s[lx.i+1] == '>' ||
			lx.inWord && strings.HasSuffix(lx.cur.String(), ">") ||
			lx.inWord && strings.HasSuffix(lx.cur.String(), "<")):
			// Redirections: &>file, 2>&1, <&3.
			lx.inWord = true
			lx.cur.WriteByte(c)
			lx.i++
		case c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')':
			lx.endCommand()
			lx.i++
		default:
			lx.inWord = true
			lx.cur.WriteByte(c)
			lx.i++
		}
	}
	lx.endCommand()
}

// doubleQuoted consumes a "..." string starting at lx.i.
func (lx *shellLexer) doubleQuoted() {
	s := lx.s
	lx.i++
	for lx.i < len(s) {
		c := s[lx.i]
		switch c {
		case '"':
			lx.i++
			return
		case '\\':
			if lx.i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[lx.i+1]) >= 0 {
				if s[lx.i+1] != '\n' {
					lx.cur.WriteByte(s[lx.i+1])
				}
				lx.i += 2
				continue
			}
			lx.cur.WriteByte(c)
			lx.i++
		case '$', '`':
			lx.expansion()
		default:
			lx.cur.WriteByte(c)
			lx.i++
		}
	}
	lx.broken = true
}

// expansion consumes $..., ${...}, $(...), $((...)) or `...` at lx.i. Command
// substitutions are split as command lines of their own; every expansion
// makes the word dynamic.
func (lx *shellLexer) expansion() {
	s := lx.s
	start := lx.i
	lx.curDyn = true
	if s[lx.i] == '`' {
		j := lx.i + 1
		var inner strings.Builder
		for j < len(s) && s[j] != '`' {
			if s[j] == '\\' && j+1 < len(s) {
				inner.WriteByte(s[j+1])
				j += 2
				continue
			}
			inner.WriteByte(s[j])
			j++
		}
		if j >= len(s) {
			lx.broken = true
		}
		lx.sub(inner.String())
		lx.i = min(j+1, len(s))
		lx.cur.WriteString(s[start:lx.i])
		return
	}
	if lx.i+1 >= len(s) {
		lx.cur.WriteByte('$')
		lx.i++
		lx.curDyn = false
		return
	}
	switch n := s[lx.i+1]; {
	case n == '(':
		inner, k := balanced(s[lx.i+1:])
		if k == len(s[lx.i+1:]) && !strings.HasSuffix(s, ")") {
			lx.broken = true
		}
		lx.sub(inner)
		lx.i += 1 + k
	case n == '{':
		end := strings.IndexByte(s[lx.i:], '}')
		if end < 0 {
			lx.broken = true
			lx.i = len(s)
		} else {
			// ${x:-$(cmd)} may hold a command.
			lx.sub(s[lx.i+2 : lx.i+end])
			lx.i += end + 1
		}
	case n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z':
		j := lx.i + 1
		for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		lx.i = j
	case strings.IndexByte("0123456789?!#*@$-", n) >= 0:
		lx.i += 2
	default:
		lx.cur.WriteByte('$')
		lx.i++
		lx.curDyn = false
		return
	}
	lx.cur.WriteString(s[start:lx.i])
}

// balanced returns the text inside the parenthesis that opens s and the
// number of bytes up to and including its closing parenthesis (all of s if
// it never closes). Quotes inside are respected.
func balanced(s string) (string, int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return s[1:], len(s)
			}
			i += end + 1
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[1:i], i + 1
			}
		}
	}
	if len(s) == 0 {
		return "", 0
	}
	return s[1:], len(s)
}

// shellKeywords start compound commands; they are skipped before the
// command word.
var shellKeywords = map[string]bool{
	"!": true, "{": true, "}": true, "if": true, "then": true, "else": true,
	"elif": true, "fi": true, "do": true, "done": true, "while": true,
	"until": true, "esac": true,
}

// emit turns the words of one simple command into a shellCommand.
func (lx *shellLexer) emit(words []string, dyn []bool, broken bool) {
	i := 0
	for i < len(words) && !dyn[i] && shellKeywords[words[i]] {
		i++
	}
	if i < len(words) && !dyn[i] {
		switch words[i] {
		case "for", "case", "select", "function":
			return // loop headers run nothing; their substitutions were split
		}
	}
	for i < len(words) && isAssignment(words[i]) {
		i++
	}
	words, dyn = words[i:], dyn[i:]
	if len(words) == 0 {
		if broken {
			*lx.out = append(*lx.out, shellCommand{forms: [][]string{{lx.s}}, dynamic: true})
		}
		return
	}
	sc := shellCommand{dynamic: broken || dyn[0]}
	sc.forms = append(sc.forms, words)
	for depth := 0; depth < maxShellDepth; depth++ {
		inner, innerDyn, nested, ok := unwrap(words, dyn)
		if nested != "" {
			lx.sub(nested)
		}
		if !ok {
			break
		}
		if len(inner) == 0 {
			break
		}
		words, dyn = inner, innerDyn
		sc.forms = append(sc.forms, words)
		if dyn[0] {
			sc.dynamic = true
		}
	}
	// /usr/bin/rm is rm.
	for _, f := range sc.forms {
		if strings.Contains(f[0], "/") {
			g := append([]string{path.Base(f[0])}, f[1:]...)
			sc.forms = append(sc.forms, g)
		}
	}
	*lx.out = append(*lx.out, sc)
}

// isAssignment reports whether w is a NAME=value word.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := w[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// wrapperArgs lists, per wrapper, its options that take an argument.
var wrapperArgs = map[string]string{
	"env":        "uSCP",
	"sudo":       "ugCDhpRrTtU",
	"doas":       "uC",
	"command":    "",
	"builtin":    "",
	"exec":       "a",
	"nohup":      "",
	"time":       "fo",
	"nice":       "n",
	"ionice":     "cnp",
	"timeout":    "sk",
	"stdbuf":     "ioe",
	"xargs":      "IinPLdEsa",
	"unbuffer":   "",
	"chrt":       "",
	"setsid":     "",
	"watch":      "nd",
	"flock":      "wEn",
	"caffeinate": "tw",
}

// shells run their -c argument as a command line.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "busybox": false}

// unwrap returns what the command in words runs when its command word is a
// wrapper, and any command line it runs as a string (sh -c, eval, find
// -exec is returned as words). ok is false if words is not a wrapper.
func unwrap(words []string, dyn []bool) (inner []string, innerDyn []bool, nested string, ok bool) {
	name := path.Base(words[0])
	if name == "eval" {
		return nil, nil, strings.Join(words[1:], " "), false
	}
	if shells[name] {
		for i := 1; i < len(words); i++ {
			w := words[i]
			if w == "--" || !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "+") {
				break
			}
			if strings.Contains(w[1:], "c") && !strings.HasPrefix(w, "--") && i+1 < len(words) {
				return nil, nil, words[i+1], false
			}
		}
		return nil, nil, "", false
	}
	if name == "find" {
		for i := 1; i < len(words); i++ {
			switch words[i] {
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(words) && words[j] != ";" && words[j] != "+" {
					j++
				}
				if j > i+1 {
					return words[i+1 : j], dyn[i+1 : j], "", true
				}
			}
		}
		return nil, nil, "", false
	}
	withArg, isWrapper := wrapperArgs[name]
	if !isWrapper {
		return nil, nil, "", false
	}
	i := 1
	for i < len(words) {
		w := words[i]
		if w == "--" {
			i++
			break
		}
		if name == "env" && isAssignment(w) {
			i++
			continue
		}
		if name == "env" && (w == "-S" || strings.HasPrefix(w, "--split-string")) && i+1 < len(words) {
			return nil, nil, words[i+1], false
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		if !strings.HasPrefix(w, "--") && len(w) == 2 && strings.IndexByte(withArg, w[1]) >= 0 {
			i += 2
			continue
		}
		i++
	}
	// timeout DURATION, chrt PRIORITY, flock FILE, nice N (legacy -N form
	// handled above) take one positional argument before the command.
	switch name {
	case "timeout", "chrt", "flock":
		i++
	}
	if i >= len(words) {
		return nil, nil, "", false
	}
	return words[i:], dyn[i:], "", true
}
