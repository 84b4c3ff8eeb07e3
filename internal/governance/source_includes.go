package governance

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A formatter or compiler given a source file reads the files the source
// names: rustfmt formats every module a file declares, opening the file a
// "#[path = "../.env"] mod e;" names (and printing its lines when it does
// not parse), and cpp or gcc -fsyntax-only read what "#include ".env""
// names, printing it or quoting it in a warning, though no word of the line
// names it. sourceIncludeArgs reads each source file such a command is
// given (as a sed script file is read, args_scripts.go) and returns the
// files it includes, decided as reads (for rustfmt without --check, as
// writes too: it rewrites each module it formats), and the sources those
// include read in turn, to maxScriptDepth. For cargo fmt the sources are
// the package's usual targets (src/main.rs, src/lib.rs, src/bin, tests,
// examples, benches, build.rs). What the bridge cannot follow needs
// approval, whatever rule allows the program: a source it cannot read, an
// include it cannot read (a macro, a comment inside the directive), a
// manifest that places targets or members elsewhere, -p, --all.

// sourceLang is how one language's sources name the files they include.
type sourceLang struct {
	// includes returns the files text (in dir) includes, each with the
	// directories it may be found in relative to, or why the bridge
	// cannot tell.
	includes func(text, dir, stem string, search []string) ([]sourceInclude, string)
}

// sourceInclude is one file a source includes and how the compiler reads
// it: by the way it is included, never by its name (gcc reads a file an
// #include names as C, rustc a module file as Rust, whatever its suffix).
type sourceInclude struct {
	path string
	// as is the language the file is compiled as; nil is the including
	// source's own.
	as *sourceLang
	// data is set for a file put into the output as bytes (//go:embed,
	// include_str!), read whole but compiled nothing of.
	data bool
}

// includesOf returns paths as files compiled in the including source's
// language.
func includesOf(paths []string) []sourceInclude {
	out := make([]sourceInclude, 0, len(paths))
	for _, p := range paths {
		out = append(out, sourceInclude{path: p})
	}
	return out
}

// cIncluders are the C preprocessors and compilers whose sources'
// #include lines are read.
var cIncluders = map[string]bool{"cpp": true, "gcc": true, "cc": true, "g++": true, "c++": true, "clang": true, "clang++": true, "as": true}

// cSourceExt are the source file extensions a C compiler preprocesses.
var cSourceExt = map[string]bool{".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".hpp": true, ".hh": true,
	".m": true, ".mm": true, ".S": true, ".s": true, ".sx": true, ".asm": true, ".i": true, ".ii": true, ".inc": true}

// cDirective matches a preprocessing directive's name: # (or the digraph
// %:) first on a line.
var cDirective = regexp.MustCompile(`^[ \t]*(?:#|%:)[ \t]*([A-Za-z_]+)`)

// cDirectiveStart matches a line that is a preprocessing directive.
var cDirectiveStart = regexp.MustCompile(`^[ \t]*(?:#|%:)`)

// cPlainDirectives are the directives that include no file.
var cPlainDirectives = map[string]bool{"define": true, "undef": true, "if": true, "ifdef": true, "ifndef": true, "elif": true,
	"elifdef": true, "elifndef": true, "else": true, "endif": true, "line": true, "error": true, "warning": true, "pragma": true}

// cInclude matches an include directive naming its file literally.
var cInclude = regexp.MustCompile(`^[ \t]*(?:#|%:)[ \t]*(?:include|include_next|import|embed)[ \t]*(?:"([^"]*)"|<([^>]*)>)`)

// asmIncludeAny matches an assembler's .incbin or .include directive,
// which the GNU assembler (and gcc given a .s or .S file) reads: .incbin
// puts the file's bytes into the object, .include assembles it and quotes
// its lines in errors. It may follow a label or another statement.
var asmIncludeAny = regexp.MustCompile(`(?i)(?:^|[\s:;])\.(?:incbin|include)\b`)

// asmInclude matches such a directive naming its file literally.
var asmInclude = regexp.MustCompile(`(?i)(?:^|[\s:;])\.(?:incbin|include)[ \t]+"([^"\\]*)"`)

// rustPath matches a path attribute and the file it names.
var rustPath = regexp.MustCompile(`#\s*\[\s*path\s*=\s*"([^"\\]*)"\s*\]`)

// rustPathAny matches any path attribute, for one rustPath cannot read.
var rustPathAny = regexp.MustCompile(`#\s*!?\s*\[\s*path\b`)

// rustCfgPath matches a path given through cfg_attr, which rustfmt
// follows too.
var rustCfgPath = regexp.MustCompile(`cfg_attr\s*\([^\]]*\bpath\s*=`)

// rustInlineMod matches an inline module, whose file modules are found
// beneath its own directory.
var rustInlineMod = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])mod\s+(?:r#)?[A-Za-z_][A-Za-z0-9_]*\s*\{`)

// cComment matches a comment inside one line.
var cComment = regexp.MustCompile(`/\*.*?\*/`)

// rustMod matches a module declared in its own file: "mod name;".
var rustMod = regexp.MustCompile(`(?m)(?:^|[^A-Za-z0-9_])mod\s+(?:r#)?([A-Za-z_][A-Za-z0-9_]*)\s*;`)

// cLang reads C's #include lines: a "file" from the including file's
// directory, where the compiler runs and the search directories; a
// <file> from the search directories (the system's are not read).
var cLang = sourceLang{includes: func(text, dir, _ string, search []string) ([]sourceInclude, string) {
	out, why := cIncludes(text, dir, search)
	return includesOf(out), why
}}

// cIncludes returns the files text's #include (and assembler .include and
// .incbin) lines name, from dir and the search directories.
func cIncludes(text, dir string, search []string) ([]string, string) {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\\\n", ""), "\n") {
		if asmIncludeAny.MatchString(l) {
			m := asmInclude.FindStringSubmatch(l)
			if m == nil {
				return nil, "the source includes a file whose name the bridge cannot read (" + strings.TrimSpace(l) + ")"
			}
			out = append(out, filepath.Join(dir, m[1]))
			for _, s := range search {
				out = append(out, filepath.Join(s, m[1]))
			}
			continue
		}
		if !cDirectiveStart.MatchString(l) {
			continue
		}
		l = cComment.ReplaceAllString(l, " ")
		d := cDirective.FindStringSubmatch(l)
		if d != nil && cPlainDirectives[d[1]] {
			continue // no file read: __has_include only asks whether one is there
		}
		if d == nil || d[1] != "include" && d[1] != "include_next" && d[1] != "import" && d[1] != "embed" {
			if !strings.Contains(l, "include") && !strings.Contains(l, "embed") && !strings.Contains(l, "import") {
				continue
			}
		}
		m := cInclude.FindStringSubmatch(l)
		switch {
		case m == nil:
			return nil, "the source includes a file whose name the bridge cannot read (" + strings.TrimSpace(l) + ")"
		case m[1] != "":
			out = append(out, filepath.Join(dir, m[1]))
			for _, s := range search {
				out = append(out, filepath.Join(s, m[1]))
			}
		default:
			for _, s := range search {
				out = append(out, filepath.Join(s, m[2]))
			}
		}
	}
	return out, ""
}

// rustLang reads Rust's module declarations: a #[path] attribute's file
// relative to the declaring file's directory (and its module directory),
// and a module's own file, name.rs or name/mod.rs, beside a mod.rs, lib.rs
// or main.rs and in the directory of any other file's stem.
var rustLang = sourceLang{includes: func(text, dir, stem string, _ []string) ([]sourceInclude, string) {
	out, why := rustModFiles(text, dir, stem)
	return includesOf(out), why
}}

// rustModFiles returns the module files text declares (see rustLang).
func rustModFiles(text, dir, stem string) ([]string, string) {
	var out []string
	if len(rustPath.FindAllStringIndex(text, -1)) != len(rustPathAny.FindAllStringIndex(text, -1)) || rustCfgPath.MatchString(text) {
		return nil, "the source gives a module's path in a form the bridge cannot read"
	}
	if rustInlineMod.MatchString(text) && (rustMod.MatchString(text) || rustPathAny.MatchString(text)) {
		return nil, "the source declares a module file inside an inline module, found where the bridge does not look"
	}
	modDir := dir
	if stem != "mod" && stem != "lib" && stem != "main" {
		modDir = filepath.Join(dir, stem)
	}
	for _, m := range rustPath.FindAllStringSubmatch(text, -1) {
		out = append(out, filepath.Join(dir, m[1]))
		if modDir != dir {
			out = append(out, filepath.Join(modDir, m[1]))
		}
	}
	for _, m := range rustMod.FindAllStringSubmatch(text, -1) {
		for _, d := range []string{dir, modDir} {
			out = append(out, filepath.Join(d, m[1]+".rs"), filepath.Join(d, m[1], "mod.rs"))
		}
	}
	return out, ""
}

// sourceForm is what one form of a command formats or compiles: the
// sources (relative to where it runs), the language, the search
// directories, whether the program rewrites what it reads, and why the
// sources cannot be known.
type sourceForm struct {
	lang    *sourceLang
	sources []shellcmd.Word
	search  []string
	rewrite bool
	why     string
	// tree are directories whose whole project is sources, which
	// treeSources lists (the go command's module, goModuleSources;
	// cargo's workspace, cargoTreeSources).
	tree        []shellcmd.Word
	treeSources func(in *reqInfo, dir string) (compiled, read []string, why string)
	// langFor, when set, says how a source is read by its name, nil for a
	// file read whole but compiled nothing of (an embedded one).
	langFor func(p string) *sourceLang
}

// sourceFormOf reads a form of rustfmt, cargo fmt or a C preprocessor or
// compiler; ok is false for any other program.
func sourceFormOf(form []shellcmd.Word) (sourceForm, bool) {
	name := filepath.Base(form[0].Text)
	switch {
	case name == "rustfmt":
		return rustfmtForm(form), true
	case name == "cargo":
		return cargoSourceForm(form)
	case name == "rustc":
		return rustcForm(form), true
	case cIncluders[name]:
		return cCompilerForm(form), true
	case name == "cscope":
		return cscopeForm(form), true
	case name == "go":
		return goSourceForm(form)
	}
	return sourceForm{}, false
}

// rustfmtValueOpts are rustfmt's options that take the next word.
var rustfmtValueOpts = map[string]bool{"--edition": true, "--emit": true, "--config": true, "--config-path": true,
	"--color": true, "--print-config": true, "--style-edition": true}

// rustfmtForm reads rustfmt's sources (its operands) and whether it
// rewrites them (not with --check or --emit stdout).
func rustfmtForm(form []shellcmd.Word) sourceForm {
	sf := sourceForm{lang: &rustLang, rewrite: true}
	o := optionWords{form: form}
	for o.next() {
		switch t := o.opt.Text; {
		case t == "--check" || t == "--emit=stdout":
			sf.rewrite = false
		case rustfmtValueOpts[t]:
			if v := o.value("", false); t == "--emit" && v != nil && v.Text == "stdout" {
				sf.rewrite = false
			}
		}
	}
	sf.sources = o.ops
	return sf
}

// cargoSourceForm reads a cargo command that formats or compiles (its
// subcommand past cargo's own options, cargoSubcommand); ok is false for
// another subcommand.
func cargoSourceForm(form []shellcmd.Word) (sf sourceForm, ok bool) {
	at, dir, why := cargoSubcommand(form)
	if why != "" {
		return sourceForm{why: why}, true
	}
	if at == 0 {
		return sourceForm{}, false
	}
	sub := append([]shellcmd.Word{form[0]}, form[at:]...)
	switch {
	case sub[1].Text == "fmt":
		return cargoFmtForm(sub, dir.Text), true
	case cargoCompiling[sub[1].Text]:
		return cargoCompileForm(sub, dir), true
	}
	return sourceForm{}, false
}

// cargoFmtForm reads cargo fmt's sources: the usual targets of the
// package in dir, where it runs (or whose manifest --manifest-path names,
// from there).
func cargoFmtForm(form []shellcmd.Word, dir string) sourceForm {
	sf := sourceForm{lang: &rustLang, rewrite: true}
	top := dir
	for i := 2; i < len(form); i++ {
		w, t := form[i], form[i].Text
		switch {
		case t == "--":
			for _, o := range form[i+1:] {
				if o.Text == "--check" || o.Text == "--emit=stdout" {
					sf.rewrite = false
				}
			}
			i = len(form)
		case w.Kind != shellcmd.Static:
			sf.why = "cargo " + form[1].Text + " is given a word computed when the line runs"
			return sf
		case t == "--check":
			sf.rewrite = false
		case t == "--manifest-path" && i+1 < len(form) && form[i+1].Kind == shellcmd.Static:
			dir = filepath.Dir(joinRaw(top, form[i+1].Text))
			i++
		case strings.HasPrefix(t, "--manifest-path="):
			dir = filepath.Dir(joinRaw(top, strings.TrimPrefix(t, "--manifest-path=")))
		case t == "-p" || strings.HasPrefix(t, "--package") || t == "--all" || strings.HasPrefix(t, "-p") || t == "--manifest-path":
			sf.why = "cargo " + form[1].Text + " reads packages (" + t + ") the bridge does not place"
			return sf
		}
	}
	for _, f := range []string{"Cargo.toml", "src/main.rs", "src/lib.rs", "build.rs", "src/bin/*.rs", "src/bin/*/main.rs",
		"tests/*.rs", "examples/*.rs", "benches/*.rs"} {
		sf.sources = append(sf.sources, shellcmd.Word{Kind: shellcmd.Static, Text: filepath.Join(dir, f)})
	}
	return sf
}

// cCompilerForm reads a C preprocessor's or compiler's sources (operands
// with a source file's extension, cpp's first operand) and its search
// directories (-I, -iquote, -isystem, -idirafter).
func cCompilerForm(form []shellcmd.Word) sourceForm {
	sf := sourceForm{lang: &cLang}
	cpp := filepath.Base(form[0].Text) == "cpp"
	operands := 0
	for i := 1; i < len(form); i++ {
		w, t := form[i], form[i].Text
		if w.Kind != shellcmd.Static {
			if strings.HasPrefix(t, "-I") || strings.HasPrefix(t, "-i") {
				sf.why = "the compiler searches a directory computed when the line runs"
				return sf
			}
			continue
		}
		for _, o := range []string{"-I", "-iquote", "-isystem", "-idirafter"} {
			if t == o && i+1 < len(form) {
				sf.search = append(sf.search, form[i+1].Text)
				i++
				break
			}
			if v, ok := strings.CutPrefix(t, o); ok && v != "" && (o == "-I" || !strings.HasPrefix(o, "-I")) {
				sf.search = append(sf.search, strings.TrimPrefix(v, "="))
				break
			}
		}
		switch {
		case t == "-o" || t == "-x" || t == "-MF" || t == "-MT" || t == "-MQ" || t == "-include" || t == "-imacros":
			i++
		case strings.HasPrefix(t, "-"):
		case cSourceExt[filepath.Ext(t)] || cpp && operands == 0:
			sf.sources = append(sf.sources, w)
			operands++
		}
	}
	return sf
}

// sourceIncludeArgs returns the files the sources c formats or compiles
// include, as reads (and writes where the program rewrites them), and a
// question for each the bridge cannot follow.
func (e *Engine) sourceIncludeArgs(in *reqInfo, c *shellcmd.Command) []argWord {
	var out []argWord
	for _, form := range c.Forms {
		sf, ok := sourceFormOf(form)
		if !ok {
			continue
		}
		if sf.why != "" {
			out = append(out, argWord{word: form[0], text: form[0].Text, readOnly: true, namedBy: "the sources it reads", unplaced: sf.why})
			continue
		}
		bases, unknown := e.commandDirs(in, c.Dir)
		if unknown || len(bases) != 1 {
			if len(sf.sources) > 0 {
				out = append(out, argWord{word: form[0], text: form[0].Text, readOnly: true, namedBy: "the sources it reads",
					unplaced: "the line changes directory before it, so the files its sources include are not known"})
			}
			continue
		}
		var search []string
		for _, s := range sf.search {
			search = append(search, e.operandPath(bases[0], s))
		}
		if sf.lang == &cLang {
			// The assembler's .incbin and .include look where it runs.
			search = append(search, bases[0])
		}
		for _, w := range sf.tree {
			compiled, read, why := sf.treeSources(in, e.operandPath(bases[0], w.Text))
			if why != "" {
				out = append(out, argWord{word: form[0], text: form[0].Text, readOnly: true, namedBy: "the sources it compiles", unplaced: why})
				continue
			}
			src := func(f string) shellcmd.Word {
				rel, err := filepath.Rel(bases[0], f)
				if err != nil {
					rel = f
				}
				return shellcmd.Word{Kind: shellcmd.Static, Text: rel}
			}
			for _, f := range compiled {
				// The compiler reads each, a link to .env too.
				out = append(out, argWord{word: src(f), text: f, readOnly: true, namedBy: "a source it compiles"})
			}
			seen := map[string]bool{}
			for _, f := range read {
				lang := sf.lang
				if sf.langFor != nil {
					lang = sf.langFor(f)
				}
				if lang == nil {
					continue
				}
				out = append(out, e.sourceFileArgs(in, sf, lang, src(f), f, bases[0], search, 0, seen)...)
			}
		}
		for _, w := range sf.sources {
			if w.Kind != shellcmd.Static {
				out = append(out, argWord{word: w, text: w.Text, readOnly: true, namedBy: "a source file",
					unplaced: "the source's name is computed when the line runs, so the files it includes are not known"})
				continue
			}
			p := e.operandPath(bases[0], w.Text)
			names := []string{p}
			if strings.ContainsAny(w.Text, "*?[") {
				names, _ = filepath.Glob(p)
			}
			seen := map[string]bool{}
			for _, n := range names {
				out = append(out, e.sourceFileArgs(in, sf, sf.lang, w, n, bases[0], search, 0, seen)...)
			}
		}
	}
	return out
}

// sourceFileArgs reads the source at p, compiled as lang, and returns the
// files it includes (see sourceIncludeArgs), depth includes deep, each
// read in turn as the language it is included as; at depth 0 a source the
// agent may not read is left to the command's own words.
func (e *Engine) sourceFileArgs(in *reqInfo, sf sourceForm, lang *sourceLang, w shellcmd.Word, p, cwd string, search []string, depth int, seen map[string]bool) []argWord {
	ask := func(why string) []argWord {
		return []argWord{{word: w, text: p, readOnly: true, namedBy: "a source file", unplaced: why}}
	}
	if seen[p] {
		return nil
	}
	seen[p] = true
	if depth > maxScriptDepth {
		return ask("the sources include sources more than " + strconv.Itoa(maxScriptDepth) + " deep")
	}
	sub := *in
	sub.read, sub.write, sub.command = true, false, false
	var discard []string
	if v := e.decidePathLazy(&sub, p, &discard); v.value != Allow {
		// The source's own name decides the command, or the include's,
		// decided as the file it is.
		return nil
	}
	resolved, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // nothing there: nothing read
	case err != nil:
		return ask("it cannot be read now, so the files it includes are not known")
	}
	if !in.insideRoots(resolved) {
		return ask("it is outside the workspace roots, so the files it includes are not known")
	}
	if filepath.Base(p) == "Cargo.toml" {
		m, why := readCargoManifest(resolved)
		switch {
		case why != "":
			return ask("the bridge cannot read the manifest: " + why)
		case m.placesTargets():
			return ask("the manifest places targets or members the bridge does not follow")
		}
		return nil
	}
	text, why := readTextFile(resolved)
	if why != "" {
		return ask("the bridge cannot read it: " + why)
	}
	stem := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
	files, why := lang.includes(text, filepath.Dir(p), stem, search)
	if why != "" {
		return ask(why)
	}
	var out []argWord
	for _, f := range files {
		named := "included by the source " + w.Text
		out = append(out, argWord{word: w, text: f.path, readOnly: true, namedBy: named})
		if sf.rewrite && fileExists(f.path) {
			out = append(out, argWord{word: w, text: f.path, write: true, namedBy: named + ", which the formatter rewrites"})
		}
		if !f.data {
			as := lang
			if f.as != nil {
				as = f.as
			}
			out = append(out, e.sourceFileArgs(in, sf, as, w, f.path, cwd, search, depth+1, seen)...)
		}
	}
	return out
}

// fileExists reports whether a file (through links) is at p.
func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// cscopeValueOpts are cscope's options that take a value (the rest of the
// word, or the next word): its files, search and source directories, and
// in line mode (-L) the pattern of a -0 to -9 query.
const cscopeValueOpts = "fFiIpsP0123456789"

// cscopeForm reads the sources cscope indexes and prints lines of, with
// the files their #include lines name: its operands, and its -I
// directories. With -d it reads only the database an earlier run built;
// without operands (its cscope.files, or every C file where it runs), with
// -R, -i or -s it finds its sources itself, which the bridge does not
// follow.
func cscopeForm(form []shellcmd.Word) sourceForm {
	sf := sourceForm{lang: &cLang}
	dbOnly := false
	for i := 1; i < len(form); i++ {
		w, t := form[i], form[i].Text
		if w.Kind != shellcmd.Static || !strings.HasPrefix(t, "-") || len(t) < 2 {
			sf.sources = append(sf.sources, w)
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			switch {
			case c == 'd':
				dbOnly = true
				continue
			case c == 'R' || c == 'i' || c == 's':
				sf.why = "cscope finds the sources it reads itself (-" + string(c) + ")"
				return sf
			case strings.IndexByte(cscopeValueOpts, c) < 0:
				continue
			}
			v := t[j+1:]
			if v == "" && i+1 < len(form) {
				i++
				v = form[i].Text
			}
			if c == 'I' {
				sf.search = append(sf.search, v)
			}
			break
		}
	}
	if len(sf.sources) == 0 && !dbOnly {
		sf.why = "cscope finds the sources it reads itself (cscope.files, or every C file where it runs)"
	}
	return sf
}
