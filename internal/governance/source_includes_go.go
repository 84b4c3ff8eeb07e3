package governance

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The go command compiles files into what it builds that no word of the
// line names: a "//go:embed .env" directive puts the file's bytes into the
// binary (go build, then cat the binary, prints them), and a cgo preamble's
// "#include ".env"" has the C compiler read the file and quote its lines in
// an error. The packages a go command builds are those of its operands and
// everything they import from the module, so goSourceForm's sources are
// every Go, C and assembly file of the module the command runs in (found by
// its go.mod, within the workspace roots), each decided as a read (a
// source that is a link to .env is compiled too), and each "//go:embed" pattern is
// decided as a read of the files it matches (a directory's whole tree), and
// a cgo file's and a C or assembly file's includes as cLang reads them
// (a cgo file's from the directories its cgo flags add too), each
// compiled as C whatever its name. A
// module of more than maxTreeEntries entries, or a pattern the bridge
// cannot read, needs approval.

// goCompilingCommands are the go subcommands that compile packages, and
// so read the files their sources embed and include (go list does too
// with -export or -compiled, goListCompiles).
var goCompilingCommands = map[string]bool{"build": true, "run": true, "test": true, "install": true, "vet": true}

// goToolCgoForm reads go tool cgo's sources: its .go operands, whose
// preambles gcc compiles from where it runs, with the search directories
// and files the C compiler options after "--" add; -srcdir, which places
// the sources elsewhere, and an option naming what the bridge does not
// follow need approval.
func goToolCgoForm(args []shellcmd.Word) sourceForm {
	sf := sourceForm{lang: &goLang, search: []string{"."}}
	for i, a := range args {
		t := a.Text
		switch {
		case a.Kind != shellcmd.Static:
			sf.why = "go tool cgo is given a word computed when the line runs"
			return sf
		case t == "--":
			var gcc []string
			for _, w := range args[i+1:] {
				if w.Kind != shellcmd.Static {
					sf.why = "go tool cgo is given a word computed when the line runs"
					return sf
				}
				gcc = append(gcc, w.Text)
			}
			dirs, files, why := cgoFlags(strings.Join(gcc, " "), ".")
			if why != "" {
				sf.why = "go tool cgo: " + why
				return sf
			}
			sf.search = append(sf.search, dirs...)
			for _, f := range files {
				sf.sources = append(sf.sources, shellcmd.Word{Kind: shellcmd.Static, Text: f})
			}
			return sf
		case strings.TrimLeft(t, "-") == "srcdir" || strings.HasPrefix(strings.TrimLeft(t, "-"), "srcdir="):
			sf.why = "go tool cgo reads its sources from another directory (-srcdir)"
			return sf
		case strings.HasSuffix(t, ".go") && !strings.HasPrefix(t, "-"):
			sf.sources = append(sf.sources, a)
		}
	}
	return sf
}

// goListCompiles reports whether go list, given args, compiles the
// packages it lists: -export builds each package's export data (what it
// embeds is in it), -compiled runs cgo on its files (the C compiler
// quoting an included file in its error), as go build would. A flag
// computed when the line runs is taken to.
func goListCompiles(args []shellcmd.Word) bool {
	for _, a := range args {
		if a.Text == "--" {
			return false
		}
		if a.Kind != shellcmd.Static && strings.HasPrefix(a.Text, "-") {
			return true
		}
		name, val, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a.Text, "-"), "-"), "=")
		if strings.HasPrefix(a.Text, "-") && (name == "export" || name == "compiled") && val != "false" && val != "0" {
			return true
		}
	}
	return false
}

// goEmbedLine matches a //go:embed directive and its patterns.
var goEmbedLine = regexp.MustCompile(`^[ \t]*//go:embed(?:[ \t]+(.*))?$`)

// goSourceForm reads a go command that compiles: the directory it runs in
// (-C moves it), whose module's files are its sources (sourceForm.tree).
func goSourceForm(form []shellcmd.Word) (sourceForm, bool) {
	sf := sourceForm{lang: &goLang, langFor: goLangFor, treeSources: goModuleSources}
	dir := shellcmd.Word{Kind: shellcmd.Static, Text: "."}
	for i := 1; i < len(form); i++ {
		w, t := form[i], form[i].Text
		switch {
		case t == "-C" && i+1 < len(form):
			dir = form[i+1]
			i++
		case strings.HasPrefix(t, "-C="):
			dir = shellcmd.Word{Kind: w.Kind, Text: strings.TrimPrefix(t, "-C=")}
		case w.Kind == shellcmd.Static && strings.HasPrefix(t, "-"):
		case t == "tool" && i+1 < len(form) && form[i+1].Text == "cgo":
			return goToolCgoForm(form[i+2:]), true
		case goCompilingCommands[t] || t == "list" && goListCompiles(form[i+1:]):
			if dir.Kind != shellcmd.Static {
				sf.why = "go runs in a directory computed when the line runs, so the files its packages embed are not known"
			}
			sf.tree = append(sf.tree, dir)
			return sf, true
		default:
			return sourceForm{}, false
		}
	}
	return sourceForm{}, false
}

// goLangFor returns how the go command reads the source at p: a Go file
// for its embeds and cgo includes, a C or assembly file as C; nil for a
// file it compiles nothing of (one a pattern embeds).
func goLangFor(p string) *sourceLang {
	switch ext := filepath.Ext(p); {
	case ext == ".go":
		return &goLang
	case ext == ".s" || cSourceExt[ext]:
		return &cLang
	}
	return nil
}

// goFileEmbedsOrIncludes reports whether the Go file at p may hold a
// //go:embed directive or a cgo preamble, so that only those are read
// whole (a large generated file holding neither is not asked about); one
// that cannot be read is read whole, and asked about there.
func goFileEmbedsOrIncludes(p string) bool {
	b, err := os.ReadFile(p)
	return err != nil || bytes.Contains(b, []byte("go:embed")) || bytes.Contains(b, []byte(`"C"`))
}

// goLang reads a Go file's //go:embed patterns and, in a file that
// imports "C", the #include lines of its cgo preamble (in a // comment
// too), each from the file's directory and the directories its #cgo
// flags add (cgoFlags); what the preamble includes is compiled as C
// whatever its name, what a pattern embeds is data.
var goLang = sourceLang{includes: func(text, dir, _ string, search []string) ([]sourceInclude, string) {
	var out []sourceInclude
	cgo := strings.Contains(text, `import "C"`) || strings.Contains(text, `import (`) && strings.Contains(text, `"C"`)
	var pre strings.Builder
	var forced []string
	for _, l := range strings.Split(text, "\n") {
		if m := goEmbedLine.FindStringSubmatch(l); m != nil {
			pats, why := goEmbedPatterns(m[1])
			if why != "" {
				return nil, why
			}
			for _, p := range pats {
				files, why := goEmbedMatches(dir, p)
				if why != "" {
					return nil, why
				}
				for _, f := range files {
					out = append(out, sourceInclude{path: f, data: true})
				}
			}
			continue
		}
		if cgo {
			t := strings.TrimLeft(l, " \t")
			t = strings.TrimPrefix(t, "//")
			if m := cgoDirective.FindStringSubmatch(t); m != nil {
				flags := m[1]
				if strings.Contains(m[0][:len(m[0])-len(m[1])], "pkg-config") {
					f, why := pkgConfigFlags(strings.Fields(flags), dir)
					if why != "" {
						return nil, "the cgo preamble's pkg-config line: " + why
					}
					flags = f
				}
				dirs, files, why := cgoFlags(flags, dir)
				if why != "" {
					return nil, "the cgo preamble: " + why
				}
				search = append(search[:len(search):len(search)], dirs...)
				forced = append(forced, files...)
				continue
			}
			pre.WriteString(t)
			pre.WriteByte('\n')
		}
	}
	if cgo {
		files, why := cIncludes(pre.String(), dir, search)
		if why != "" {
			return nil, "the cgo preamble: " + why
		}
		for _, f := range forced {
			if filepath.IsAbs(f) {
				files = append(files, filepath.Clean(f))
				continue
			}
			files = append(files, filepath.Join(dir, f))
			for _, s := range search {
				files = append(files, filepath.Join(s, f))
			}
		}
		for _, f := range files {
			out = append(out, sourceInclude{path: f, as: &cLang})
		}
	}
	return out, ""
}}

// cgoDirective matches a #cgo directive and the flags after its colon.
var cgoDirective = regexp.MustCompile(`^[ \t]*#[ \t]*cgo\b[^:]*:(.*)$`)

// cgoSearchOpts are the C compiler's options that add a directory the
// files a preamble includes are found in.
var cgoSearchOpts = []string{"-I", "-iquote", "-isystem", "-idirafter"}

// cgoFlags reads a #cgo directive's flags, ${SRCDIR} being dir: the
// directories its -I (and -iquote, -isystem, -idirafter) options add,
// from dir, and the files its -include and -imacros options have the
// compiler read first. Another option that names a file or directory the
// compiler reads (-iprefix, --sysroot, -B, @file) gives why instead.
func cgoFlags(flags, dir string) (dirs, files []string, why string) {
	f := strings.Fields(strings.ReplaceAll(flags, "${SRCDIR}", dir))
	abs := func(v string) string {
		if filepath.IsAbs(v) {
			return filepath.Clean(v)
		}
		return filepath.Join(dir, v)
	}
	for i := 0; i < len(f); i++ {
		t := f[i]
		next := func() string {
			if i+1 < len(f) {
				i++
				return f[i]
			}
			return ""
		}
		switch {
		case t == "-include" || t == "-imacros":
			files = append(files, next())
			continue
		case strings.HasPrefix(t, "-include") || strings.HasPrefix(t, "-imacros"):
			return nil, nil, "a #cgo option the bridge cannot read (" + t + ")"
		}
		matched := false
		for _, o := range cgoSearchOpts {
			if t == o {
				dirs = append(dirs, abs(next()))
				matched = true
				break
			}
			if v, ok := strings.CutPrefix(t, o); ok && (o == "-I" || strings.HasPrefix(v, "=")) {
				dirs = append(dirs, abs(strings.TrimPrefix(v, "=")))
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		if strings.HasPrefix(t, "-i") || strings.HasPrefix(t, "--sysroot") || strings.HasPrefix(t, "-B") || strings.HasPrefix(t, "@") ||
			strings.HasPrefix(t, "-Wl,") || strings.HasPrefix(t, "-Wp,") || strings.HasPrefix(t, "-Wa,") {
			return nil, nil, "a #cgo option names a file or directory the bridge does not follow (" + t + ")"
		}
	}
	return dirs, files, ""
}

// goEmbedPatterns splits a //go:embed directive's text into its patterns,
// as the go command does: blank-separated, each bare, "quoted" or
// `raw`, an "all:" prefix dropped.
func goEmbedPatterns(s string) ([]string, string) {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		var p string
		switch s[0] {
		case '"':
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, "a //go:embed pattern is quoted in a way the bridge cannot read"
			}
			p, _ = strconv.Unquote(q)
			s = s[len(q):]
		case '`':
			end := strings.IndexByte(s[1:], '`')
			if end < 0 {
				return nil, "a //go:embed pattern is quoted in a way the bridge cannot read"
			}
			p, s = s[1:end+1], s[end+2:]
		default:
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				end = len(s)
			}
			p, s = s[:end], s[end:]
		}
		if s != "" && s[0] != ' ' && s[0] != '\t' {
			return nil, "a //go:embed pattern is quoted in a way the bridge cannot read"
		}
		s = strings.TrimLeft(s, " \t")
		out = append(out, strings.TrimPrefix(p, "all:"))
	}
	return out, ""
}

// goEmbedMatches returns the files a //go:embed pattern in dir embeds: the
// file it names, or each name its glob matches (a leading dot too, as
// path.Match matches it), a directory's every file beneath it.
func goEmbedMatches(dir, pattern string) ([]string, string) {
	p := filepath.Join(dir, filepath.FromSlash(pattern))
	names := []string{p}
	if strings.ContainsAny(pattern, "*?[\\") {
		var err error
		if names, err = filepath.Glob(p); err != nil {
			return nil, "a //go:embed pattern is no pattern the bridge can read (" + pattern + ")"
		}
	}
	var out []string
	for _, n := range names {
		files, why := filesBeneath(n)
		if why != "" {
			return nil, why
		}
		out = append(out, files...)
	}
	return out, ""
}

// filesBeneath returns p, and when p is a directory (not through a link)
// every file beneath it, or why not: more than maxTreeEntries entries.
func filesBeneath(p string) ([]string, string) {
	out := []string{p}
	budget := maxTreeEntries
	err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || q == p {
			return nil
		}
		if budget--; budget < 0 {
			return fs.SkipAll
		}
		out = append(out, q)
		return nil
	})
	if err == nil && budget < 0 {
		return nil, "the go command embeds " + p + ", which holds more than " + strconv.Itoa(maxTreeEntries) + " entries"
	}
	return out, ""
}

// goModuleSources returns the Go, C and assembly files of the module dir
// is in (see treeSources): from the nearest directory at or above dir
// holding go.mod; of its Go files, only those that may hold an embed or a
// cgo preamble are read. The modules a build also compiles from elsewhere
// in the workspace are walked too: from the directory of a go.work at or
// above dir, and from the workspace root when the go.mod replaces a module
// with a directory (goModReplacesLocally).
func goModuleSources(in *reqInfo, dir string) (compiled, read []string, why string) {
	start, marker := dir, "go.mod"
	mod := ""
	for d := dir; in.insideRoots(d); d = filepath.Dir(d) {
		if fileExists(filepath.Join(d, "go.work")) {
			marker = "go.work"
			break
		}
		if mod == "" && fileExists(filepath.Join(d, "go.mod")) {
			mod = filepath.Join(d, "go.mod")
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if marker == "go.mod" && mod != "" && goModReplacesLocally(mod) {
		start = in.rootOf(dir)
	}
	return treeSources(in, start, marker, false, nil, func(p string) (bool, bool) {
		if goLangFor(p) == nil {
			return false, false
		}
		return true, filepath.Ext(p) != ".go" || goFileEmbedsOrIncludes(p)
	})
}

// goModLocalReplace matches a go.mod replace directive whose target is a
// directory ("=> ../lib", "=> ./lib", "=> /abs/lib").
var goModLocalReplace = regexp.MustCompile(`=>\s*["` + "`" + `]?[./]`)

// goModReplacesLocally reports whether the go.mod at p replaces a module
// with a directory, whose packages the build compiles from there; one the
// bridge cannot read is taken to.
func goModReplacesLocally(p string) bool {
	text, why := readTextFile(p)
	return why != "" || goModLocalReplace.MatchString(text)
}

// treeSources walks the project dir is in, from the nearest directory at
// or above it holding marker (the topmost, for a workspace of packages,
// when topmost is set), not above the workspace roots, or dir itself when
// there is none, and returns the files the build compiles and, of those,
// the ones whose includes are read (kind says which a file is). .git and
// the directories skip names are not walked. A project of more than
// maxTreeEntries entries gives why instead.
func treeSources(in *reqInfo, dir, marker string, topmost bool, skip map[string]bool, kind func(p string) (compiled, read bool)) ([]string, []string, string) {
	top := dir
	for d := dir; in.insideRoots(d); d = filepath.Dir(d) {
		if fileExists(filepath.Join(d, marker)) {
			top = d
			if !topmost {
				break
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	var compiled, read []string
	budget := maxTreeEntries
	err := filepath.WalkDir(top, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if budget--; budget < 0 {
			return fs.SkipAll
		}
		if d.IsDir() {
			if q != top && (d.Name() == ".git" || skip[d.Name()]) {
				return fs.SkipDir
			}
			return nil
		}
		if c, r := kind(q); c {
			compiled = append(compiled, q)
			if r {
				read = append(read, q)
			}
		}
		return nil
	})
	if err == nil && budget < 0 {
		return nil, nil, "the project at " + top + " holds more than " + strconv.Itoa(maxTreeEntries) + " entries, so the files its sources include are not known"
	}
	return compiled, read, ""
}

// The go command's -overlay file maps each file it compiles to another it
// reads in its place: {"Replace": {"a.txt": ".env"}} has "//go:embed
// a.txt" embed .env, and a .go file mapped to .env is compiled from it.
// goOverlayArgs decides each file an overlay maps to as a read, from where
// go runs; an overlay the bridge cannot read, and a Go file it gives whose
// embeds or cgo preamble would be read from elsewhere, need approval.
func (e *Engine) goOverlayArgs(in *reqInfo, c *shellcmd.Command) []argWord {
	var out []argWord
	for _, form := range c.Forms {
		w, opt, ok := goOverlayWord(form)
		if !ok {
			continue
		}
		ask := func(why string) {
			out = append(out, argWord{word: w, text: w.Text, readOnly: true, namedBy: "the go command's -" + opt, unplaced: why})
		}
		bases, unknown := e.commandDirs(in, c.Dir)
		if w.Kind != shellcmd.Static || unknown || len(bases) != 1 {
			ask("the -" + opt + " file is not known until the line runs")
			continue
		}
		text, why := readTextFile(e.operandPath(bases[0], w.Text))
		if why != "" {
			ask("the bridge cannot read the -" + opt + " file: " + why)
			continue
		}
		var ov struct{ Replace, Files map[string]string }
		if err := json.Unmarshal([]byte(text), &ov); err != nil {
			ask("the bridge cannot read the -" + opt + " file (" + err.Error() + ")")
			continue
		}
		for from, to := range ov.Files {
			p := e.operandPath(bases[0], to)
			out = append(out, argWord{word: w, text: p, readOnly: true, namedBy: "embedded as " + from + " by go tool compile's -embedcfg"})
		}
		for from, to := range ov.Replace {
			if to == "" {
				continue
			}
			p := e.operandPath(bases[0], to)
			out = append(out, argWord{word: w, text: p, readOnly: true, namedBy: "read in place of " + from + " by the go command's -overlay"})
			if strings.HasSuffix(from, ".go") && goFileEmbedsOrIncludes(p) {
				ask("the overlay gives " + from + " a source whose embeds or cgo includes the bridge does not follow")
			}
		}
	}
	return out
}

// goOverlayWord returns the -overlay value of a go command that compiles,
// or the -embedcfg value of go tool compile, and which option it is: whose "Files" map each
// pattern's name to the file embedded in its place ({"Files": {"a.txt":
// ".env"}}), read as an overlay's are.
func goOverlayWord(form []shellcmd.Word) (shellcmd.Word, string, bool) {
	if filepath.Base(form[0].Text) != "go" {
		return shellcmd.Word{}, "", false
	}
	opt := "overlay"
	if i := slices.IndexFunc(form, func(w shellcmd.Word) bool { return w.Text == "tool" }); i > 0 && i+1 < len(form) && form[i+1].Text == "compile" {
		opt = "embedcfg"
	} else if _, ok := goSourceForm(form); !ok {
		return shellcmd.Word{}, "", false
	}
	for i := 1; i < len(form); i++ {
		t := strings.TrimPrefix(form[i].Text, "-")
		switch {
		case t == "-"+opt || t == opt:
			if i+1 < len(form) {
				return form[i+1], opt, true
			}
		case strings.HasPrefix(t, "-"+opt+"=") || strings.HasPrefix(t, opt+"="):
			_, v, _ := strings.Cut(form[i].Text, "=")
			return shellcmd.Word{Kind: form[i].Kind, Text: v}, opt, true
		}
	}
	return shellcmd.Word{}, "", false
}

// rootOf returns the workspace root p lies in (the deepest, when roots
// nest), or p when it lies in none.
func (in *reqInfo) rootOf(p string) string {
	best := p
	found := false
	for _, r := range in.roots {
		if _, ok := cutDir(r, p); ok && (!found || len(r) > len(best)) {
			best, found = r, true
		}
	}
	return best
}
