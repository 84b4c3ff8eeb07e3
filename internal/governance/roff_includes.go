package governance

import (
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A roff document reads the files its requests name: man formats a page
// it is given by path ("man -l p.1", "man ./p.1") with groff, and a page
// holding ".so .env" prints .env, though no word of the line names it; so
// do groff, nroff, troff and soelim given the document. roffIncludeArgs
// reads each document such a command formats (as a sed script file is
// read, args_scripts.go: a static name, where the command runs, readable
// without asking, inside the roots) and returns the files its requests
// include (so, mso, cf, trf, nx and their quiet forms, psbb, hpf), each
// decided as a read of that name from where the command runs and from the
// document's directory, and the documents they include read in turn, to
// maxScriptDepth. What the bridge cannot follow needs approval, whatever
// rule allows the program: a document it cannot read, a request whose
// name or file the document computes or escapes (".ds x so" then
// ".\*x .env"), one that changes how requests are read (cc, c2, ec, eo,
// rn, als, do), one that runs or writes (sy, pi, pso, open, opena), a
// request after a transparent-throughput escape, a page asking man for
// preprocessors (a first line "'\" p", or -p, whose pic and refer read
// files), pages from a directory the line gives (-M, --manpath, MANPATH,
// -C's configuration) and groff's own search and unsafe options (-I, -M,
// -U).

// roffReaders are the programs that read roff documents they are given.
var roffReaders = map[string]bool{"groff": true, "nroff": true, "troff": true, "soelim": true}

// roffControl matches a control line: the control character, the request
// or macro name and the rest of the line.
var roffControl = regexp.MustCompile(`^[.'][ \t]*([^ \t]*)[ \t]*(.*)$`)

// roffIncludes are the requests that read the file they name; roffRuns
// those that run a command or write a file (refused by groff's safer
// mode, which -U lifts); roffRereads those that change which requests a
// document's lines give.
var (
	roffIncludes = map[string]bool{"so": true, "soquiet": true, "mso": true, "msoquiet": true, "cf": true, "trf": true,
		"nx": true, "psbb": true, "hpf": true, "hpfa": true}
	roffRuns    = map[string]bool{"sy": true, "pi": true, "pso": true, "open": true, "opena": true}
	roffRereads = map[string]bool{"cc": true, "c2": true, "ec": true, "eo": true, "rn": true, "als": true, "do": true}
)

// roffConditionals are the requests whose argument is a line of input
// read as the document's own (.if 1 .so .env).
var roffConditionals = map[string]bool{"if": true, "ie": true, "el": true, "while": true, "nop": true}

// roffNestedRequest matches a request inside such a line that the bridge
// would read (or ask about) on a line of its own, or one whose name is
// computed.
var roffNestedRequest = regexp.MustCompile(`[.'][ \t]*(?:\\|(?:so|soquiet|mso|msoquiet|cf|trf|nx|psbb|hpf|hpfa|sy|pi|pso|open|opena|cc|c2|ec|eo|rn|als|do)(?:[^A-Za-z0-9_]|$))`)

// roffPreprocessors matches a man page's first line asking for
// preprocessors ('\" tp).
var roffPreprocessors = regexp.MustCompile(`^'\\"[ \t]*[egprtv]+`)

// roffDocument is a document a command formats: its name as the line
// gives it, and the word it comes from.
type roffDocument struct {
	name shellcmd.Word
}

// roffIncludeArgs returns the files the roff documents c formats include,
// as reads, and a question for each the bridge cannot follow.
func (e *Engine) roffIncludeArgs(in *reqInfo, c *shellcmd.Command) []argWord {
	var out []argWord
	for _, form := range c.Forms {
		docs, why := roffDocuments(form)
		if why != "" {
			out = append(out, argWord{word: form[0], text: form[0].Text, readOnly: true, unplaced: why, namedBy: "the formatter's pages"})
			continue
		}
		if filepath.Base(form[0].Text) == "man" && setsVariable(in, "MANPATH") {
			out = append(out, argWord{word: form[0], text: "MANPATH", readOnly: true, namedBy: "the formatter's pages",
				unplaced: "man reads pages from the directories MANPATH lists, whose requests may read any file"})
		}
		for _, d := range docs {
			if d.name.Kind != shellcmd.Static {
				out = append(out, argWord{word: d.name, text: d.name.Text, readOnly: true, namedBy: "a roff document",
					unplaced: "the document's name is computed when the line runs, so the files its requests read are not known"})
				continue
			}
			out = append(out, e.roffDocumentArgs(in, c, d.name, d.name.Text, 0)...)
		}
	}
	return out
}

// roffDocuments returns the documents a form formats, or why the pages
// it formats cannot be known: man given a page by path (-l, --local-file,
// or a name holding a '/'), groff, nroff, troff and soelim their operands.
func roffDocuments(form []shellcmd.Word) ([]roffDocument, string) {
	name := filepath.Base(form[0].Text)
	switch {
	case name == "man":
		return manDocuments(form)
	case roffReaders[name]:
		return groffDocuments(form)
	}
	return nil, ""
}

// manValueShorts are man-db's short options that take a value.
const manValueShorts = "CLMmSsEeRrPp"

// manDocuments returns the pages man formats from files (see
// roffDocuments).
func manDocuments(form []shellcmd.Word) ([]roffDocument, string) {
	local := false
	var operands []shellcmd.Word
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		switch {
		case w.Kind != shellcmd.Static || !strings.HasPrefix(t, "-") || t == "-":
			operands = append(operands, w)
		case t == "--":
			operands = append(operands, form[i+1:]...)
			i = len(form)
		case strings.HasPrefix(t, "--"):
			long, _, hasValue := strings.Cut(t[2:], "=")
			switch {
			case long != "" && strings.HasPrefix("local-file", long):
				local = true
			case long != "" && (strings.HasPrefix("manpath", long) || strings.HasPrefix("config-file", long)):
				return nil, "man reads pages from the directory or configuration " + t + " gives, whose requests may read any file"
			case long != "" && strings.HasPrefix("preprocessor", long):
				return nil, "man runs preprocessors (" + t + "), whose pic and refer read files the bridge does not follow"
			case !hasValue && manLongTakesValue(long):
				i++
			}
		default:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'l':
					local = true
					continue
				case 'M', 'C':
					return nil, "man reads pages from the directory or configuration " + t + " gives, whose requests may read any file"
				case 'p':
					return nil, "man runs preprocessors (" + t + "), whose pic and refer read files the bridge does not follow"
				case 'T', 'H', 'X':
					j = len(t) // an optional value, attached
					continue
				}
				if strings.IndexByte(manValueShorts, t[j]) >= 0 {
					if j == len(t)-1 {
						i++
					}
					break
				}
			}
		}
	}
	var docs []roffDocument
	for _, w := range operands {
		if local || w.Kind != shellcmd.Static || strings.Contains(w.Text, "/") {
			docs = append(docs, roffDocument{name: w})
		}
	}
	return docs, ""
}

// manLongTakesValue reports whether man-db's long option (a prefix of
// one) takes a value in the next word.
func manLongTakesValue(long string) bool {
	for _, o := range []string{"locale", "systems", "sections", "extension", "encoding", "pager", "prompt", "recode"} {
		if long != "" && strings.HasPrefix(o, long) {
			return true
		}
	}
	return false
}

// groffDocuments returns the documents groff, nroff, troff or soelim
// formats: its operands, or why they cannot be known.
func groffDocuments(form []shellcmd.Word) ([]roffDocument, string) {
	var docs []roffDocument
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		if w.Kind != shellcmd.Static || !strings.HasPrefix(t, "-") || t == "-" {
			if t != "-" {
				docs = append(docs, roffDocument{name: w})
			}
			continue
		}
		if t == "--" {
			for _, o := range form[i+1:] {
				docs = append(docs, roffDocument{name: o})
			}
			break
		}
		if strings.HasPrefix(t, "--") {
			continue // --help, --version
		}
		for j := 1; j < len(t); j++ {
			switch c := t[j]; {
			case c == 'U':
				return nil, filepath.Base(form[0].Text) + " -U runs the document's sy, pi and pso requests: commands"
			case c == 'I' || c == 'M' || c == 'F':
				return nil, filepath.Base(form[0].Text) + " " + t + " adds a directory it reads included files or macros from"
			case strings.IndexByte("dfmnoPrTwWKLD", c) >= 0:
				// a value: the rest of the word, or the next word
				if j == len(t)-1 {
					i++
				}
				j = len(t)
			}
		}
	}
	return docs, ""
}

// roffDocumentArgs reads the document named (from where c runs, or an
// absolute path from an including document) and returns the files its
// requests include, and the questions it raises, depth documents deep.
func (e *Engine) roffDocumentArgs(in *reqInfo, c *shellcmd.Command, w shellcmd.Word, name string, depth int) []argWord {
	ask := func(why string) []argWord {
		return []argWord{{word: w, text: name, readOnly: true, namedBy: "a roff document", unplaced: why}}
	}
	if depth > maxScriptDepth {
		return ask("the document includes documents more than " + strconv.Itoa(maxScriptDepth) + " deep")
	}
	bases, unknown := e.commandDirs(in, c.Dir)
	if unknown || len(bases) != 1 {
		return ask("the line changes directory before it, so the document is not known")
	}
	p := e.operandPath(bases[0], name)
	sub := *in
	sub.read, sub.write, sub.command = true, false, false
	var discard []string
	if v := e.decidePathLazy(&sub, p, &discard); v.value != Allow {
		if depth == 0 {
			return nil // the document's own name decides the command
		}
		return ask("the bridge cannot read it without asking, so the files its requests read are not known")
	}
	resolved, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // nothing there: man and groff read nothing
	case err != nil:
		return ask("it cannot be read now, so the files its requests read are not known")
	}
	if !in.insideRoots(resolved) {
		return ask("it is outside the workspace roots, so the files its requests read are not known")
	}
	text, why := readTextFile(resolved)
	if why != "" {
		return ask("the bridge cannot read it: " + why)
	}
	files, why := roffRequestFiles(text)
	if why != "" {
		return ask(why)
	}
	var out []argWord
	docDir := filepath.Dir(p)
	for _, f := range files {
		for _, at := range roffIncludePlaces(bases[0], docDir, f) {
			out = append(out, argWord{word: w, text: at, readOnly: true, namedBy: "included by the roff document " + name})
			out = append(out, e.roffDocumentArgs(in, c, w, at, depth+1)...)
		}
	}
	return out
}

// roffIncludePlaces returns where a file a document includes may be: the
// name from where the formatter runs and from the document's directory.
func roffIncludePlaces(cwd, docDir, f string) []string {
	if filepath.IsAbs(f) {
		return []string{f}
	}
	out := []string{filepath.Join(cwd, f)}
	if d := filepath.Join(docDir, f); d != out[0] {
		out = append(out, d)
	}
	return out
}

// roffRequestFiles returns the files the requests of a roff document
// include, or why the bridge cannot tell which (see roffIncludeArgs).
func roffRequestFiles(text string) ([]string, string) {
	lines := roffLines(text)
	if len(lines) > 0 && roffPreprocessors.MatchString(lines[0]) {
		return nil, "the page asks man to run preprocessors, whose pic and refer read files the bridge does not follow"
	}
	var files []string
	for _, l := range lines {
		if strings.Contains(l, `\!`) || strings.Contains(l, `\?`) {
			return nil, "the document passes lines through (\\!, \\?) that its requests may read again"
		}
		m := roffControl.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		req, arg := m[1], m[2]
		if strings.HasPrefix(req, `\"`) || strings.HasPrefix(req, `\#`) || req == "" {
			continue // a comment, or an empty request
		}
		switch {
		case strings.Contains(req, `\`):
			return nil, "the document computes the name of a request (." + req + "), which may read a file"
		case roffConditionals[req] && roffNestedRequest.MatchString(arg):
			return nil, "the document reads a request inside ." + req + ", which the bridge does not follow"
		case roffRereads[req]:
			return nil, "the document changes how its requests are read (." + req + ")"
		case roffRuns[req]:
			return nil, "the document runs a command or writes a file (." + req + ")"
		case roffIncludes[req]:
			f, _, _ := strings.Cut(strings.TrimSpace(arg), " ")
			f, _, _ = strings.Cut(f, "\t")
			if f == "" || strings.ContainsAny(f, "\\\"") {
				return nil, "the document computes the file its ." + req + " request reads"
			}
			files = append(files, f)
		}
	}
	return files, ""
}

// roffLines splits a document into its lines as troff reads them: a
// backslash before a newline joins the next line to it, an escaped
// backslash does not.
func roffLines(text string) []string {
	var lines []string
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; {
		case ch == '\\' && i+1 < len(text) && text[i+1] == '\n':
			i++ // a continuation
		case ch == '\\' && i+1 < len(text):
			b.WriteByte(ch)
			b.WriteByte(text[i+1])
			i++
		case ch == '\n':
			lines = append(lines, b.String())
			b.Reset()
		default:
			b.WriteByte(ch)
		}
	}
	return append(lines, b.String())
}

// setsVariable reports whether the request or any line it runs sets the
// variable name.
func setsVariable(in *reqInfo, name string) bool {
	for _, v := range in.req.Env {
		if v.Name == name {
			return true
		}
	}
	for _, a := range in.commandLines() {
		for _, as := range a.Assignments {
			if as.Name == name {
				return true
			}
		}
		for _, c := range a.Commands {
			for _, f := range c.Forms {
				for _, w := range f {
					if strings.HasPrefix(w.Text, name+"=") {
						return true
					}
				}
			}
		}
	}
	return false
}
