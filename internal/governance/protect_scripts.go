package governance

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A script the line runs (bash s.sh, python3 tool.py, ./s.sh, source
// env.sh, make with its Makefile) does what its text says, which the line
// does not show: the agent writes ": > GOVERNANCE.md" into s.sh with an
// edit the policy allows and asks to run "bash s.sh", which the person
// approves. protectedScripts reads each such file (and the script files
// sed and awk read) when the request is decided, whole (a regular file
// inside the workspace roots, through its links, up to maxScanBytes:
// protect_scan.go), and refuses the line where the file's text names a
// protected location as the line's own text would (namedIndex). A name
// the script computes is not seen, as on the line, and the file may
// change between the decision and the run (docs/security.md). A file a
// request still in flight may be writing is not taken from the disk
// alone (inflight.go).

// protectedScripts denies a command line one of whose commands runs a
// script file whose text names a protected location of list; cwd is the
// line's directory. The file's whole text is judged (namedInFile), and
// every content the IDE has answered writing there that the disk may not
// show yet (inFlight.written); while a write of the file the IDE has not
// answered, or a terminal whose line may write it, is in flight
// (inFlight.busy), the line is denied, and so is a line running a file
// larger than the bridge reads.
func (e *Engine) protectedScripts(in *reqInfo, list []protected, lines []*shellcmd.Analysis, cwd string) (verdict, bool) {
	return e.eachScript(in, lines, cwd, func(c *shellcmd.Command, f, d, p string) (verdict, bool) {
		return e.scriptVerdict(in, list, c, p, f, d)
	})
}

// eachScript calls visit with each file a command c of lines (run in
// cwd) may run as code, once each: f its name, d the directory it runs
// in, p the path as the program opens it (not cleaned: "link/.." is
// where the kernel takes it). The first verdict visit returns is
// eachScript's.
func (e *Engine) eachScript(in *reqInfo, lines []*shellcmd.Analysis, cwd string, visit func(c *shellcmd.Command, f, d, p string) (verdict, bool)) (verdict, bool) {
	seen := map[string]bool{}
	at := func(c *shellcmd.Command, f, d string) (verdict, bool) {
		p := joinRaw(d, f)
		if seen[p] {
			return verdict{}, false
		}
		seen[p] = true
		return visit(c, f, d, p)
	}
	for _, a := range in.commandLines() {
		// The script files sed and awk read (sed -f, awk -f), which lines
		// holds judged, in place of their names.
		for _, c := range a.Commands {
			for _, s := range c.Scripts {
				if s.Name.Kind != shellcmd.Static {
					continue
				}
				for _, d := range e.runDirs(in, c, cwd) {
					if v, ok := at(c, s.Name.Text, d); ok {
						return v, true
					}
				}
			}
		}
	}
	var extra []string // on a line that runs code, every file it names
	if runsCode(lines) {
		extra = lineFiles(lines)
	}
	// Where PATH and the like may lead a name (protect_pathlookup.go); past
	// what the bridge searches, lookupLimit asks about the line.
	looked, _ := e.lookupFiles(in, lines)
	extra = append(extra, looked.valued...)
	for _, a := range lines {
		for _, c := range a.Commands {
			dirs := e.runDirs(in, c, cwd)
			files := append(slices.Clone(extra), looked.startup()...)
			if runsPrograms(c) {
				files = append(files, looked.runnable...)
			}
			mo, _ := looked.catalogs(in, dirs)
			files = append(files, mo...)
			for _, form := range c.Forms {
				files = append(files, scriptFiles(form)...)
				files = append(files, looked.lookedUp(form)...)
				for _, d := range dirs {
					files = append(files, projectManifest(form, d)...)
					files = append(files, buildFiles(form, d)...)
					files = append(files, pythonPathFiles(form, d)...)
					files = append(files, scriptIncludes(form, d)...)
				}
				files = append(files, gitConfigScripts(form, in.roots, dirs)...)
			}
			for _, f := range in.expandGlobs(files, dirs) {
				for _, d := range dirs {
					if v, ok := at(c, f, d); ok {
						return v, true
					}
				}
			}
		}
	}
	return verdict{}, false
}

// scriptVerdict denies c, a command running the file at p (named f, run
// in d) as code, where the file, or a content the IDE has answered
// writing there that the disk may not show yet, names a location of list;
// where a write of the file or a terminal may still be changing it
// (inFlight.busy); or where it is too large to read.
func (e *Engine) scriptVerdict(in *reqInfo, list []protected, c *shellcmd.Command, p, f, d string) (verdict, bool) {
	src := strings.TrimSpace(c.Source)
	if t := e.flight.busy(p); t != "" {
		return flightBusyVerdict(src, t, "the file "+f+" it runs as code")
	}
	k, sum, err := scriptFileNamed(in, list, p, d)
	if errors.Is(err, errScanTooLarge) {
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: "deny commands running a script the bridge cannot read whole (built-in self-protection)",
			reason: fmt.Sprintf("running %q: the file %s it runs as code %s, so the bridge cannot tell whether it changes a protected file", src, f, err)}, true
	}
	by := ""
	if k < 0 {
		for _, w := range e.flight.written(p, sum, err == nil) {
			if k = namedIndex(list, w.text, nil, filepath.Dir(p)); k < 0 {
				k = namedIndex(list, w.text, nil, d)
			}
			if k >= 0 {
				by = fmt.Sprintf("; it is what %s wrote there, which the disk does not show yet", w.what)
				break
			}
		}
	}
	if k < 0 {
		return verdict{}, false
	}
	what, pf := "a protected location", ""
	if pr, f, _ := commandPlaceHit(list, nil, k); pr != nil {
		what, pf = pr.What, " ("+f+")"
	}
	return verdict{value: Deny, ref: "self-protection",
		ruleTx: fmt.Sprintf("deny commands running a script that names %s (built-in self-protection)", what),
		reason: fmt.Sprintf("running %q: the file %s it runs names %s%s, which is protected from the agent, whatever the policy says%s", src, f, what, pf, by)}, true
}

// runsCode reports whether a command of lines runs an interpreter, a
// shell, source or a source runner (protect_sourcerunners.go), which may read its code from its input ("cat s.sh |
// bash", "bash < s.sh") or from a file another word names.
func runsCode(lines []*shellcmd.Analysis) bool {
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				if len(form) > 0 && form[0].Kind == shellcmd.Static {
					n := filepath.Base(form[0].Text)
					if isInterpreter(n) || scriptRunners[n] || sourceRunners[n] {
						return true
					}
				}
			}
		}
	}
	return false
}

// lineFiles returns every static or glob word of lines that does not
// start with "-", and every file they redirect from: on a line that runs
// code, any file it names may be that code.
func lineFiles(lines []*shellcmd.Analysis) []string {
	var out []string
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				for _, w := range form[min(1, len(form)):] {
					if w.Kind != shellcmd.Dynamic && w.Text != "" && !strings.HasPrefix(w.Text, "-") {
						out = append(out, globMark(w))
					}
				}
			}
		}
		for _, r := range a.Redirects {
			if r.Read && r.Target.Kind != shellcmd.Dynamic {
				out = append(out, globMark(r.Target))
			}
		}
	}
	return out
}

// globMark returns w's text, marked with a leading NUL when it is a glob
// (expandGlobs expands it).
func globMark(w shellcmd.Word) string {
	if w.Kind == shellcmd.Glob {
		return "\x00" + w.Text
	}
	return w.Text
}

// expandGlobs returns names with each glob (globMark) replaced by the
// files it matches now in each of dirs, and where the links in kept lead
// (keptGlobNames: after "ln -s . kk", "bash kk/r*.sh" runs run.sh), at
// most maxGlobMatches each.
func (in *reqInfo) expandGlobs(names []string, dirs []string) []string {
	var out []string
	for _, n := range names {
		g, ok := strings.CutPrefix(n, "\x00")
		if !ok {
			out = append(out, n)
			continue
		}
		for _, d := range dirs {
			p := g
			if !filepath.IsAbs(p) {
				p = filepath.Join(d, p)
			}
			m, _ := in.keptGlobNames(p, maxGlobMatches)
			out = append(out, m...)
		}
	}
	return out
}

// scriptRunners run the file their operands name as code: the
// interpreters, the shell's source, zsh's autoload of a function's file
// by its path (autoload -U /ws/fn; fn) and make (its makefile).
var scriptRunners = map[string]bool{"source": true, ".": true, "busybox": true, "mksh": true, "fish": true, "autoload": true}

// scriptFiles returns the names in form of files it runs as code: the
// program itself when it is named by a path (./s.sh), every static
// operand of an interpreter, source or a source runner (bash s.sh;
// python3 tool.py; java Evil.java), the .go files of go run,
// and make's makefiles (-f, --file, --makefile, else GNUmakefile,
// makefile and Makefile in -C's directory).
func scriptFiles(form []shellcmd.Word) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return nil
	}
	var out []string
	if strings.Contains(form[0].Text, "/") && !systemProgram(form[0].Text) {
		out = append(out, form[0].Text)
	}
	name := filepath.Base(form[0].Text)
	switch {
	case name == "make" || name == "gmake":
		return append(out, makefiles(form)...)
	case name == "enable":
		return append(out, loadables(form)...)
	case vimFamily[name]:
		return append(out, vimScripts(form)...)
	case name == "npm" || name == "yarn" || name == "pnpm":
		// Their package.json: projectManifests, which needs the directory.
		return out
	case name == "go":
		return append(out, goRunFiles(form)...)
	case !isInterpreter(name) && !scriptRunners[name] && !sourceRunners[name]:
		return out
	}
	start := 1
	if operands, _, ok := shellcmd.ShellOptions(form); ok {
		start = operands // past a shell's options and their values (-o pipefail)
	}
	exts := includeExtensions[shellcmd.InterpreterName(name)]
	for _, w := range form[min(start, len(form)):] {
		if w.Kind == shellcmd.Static && w.Text != "" && !strings.HasPrefix(w.Text, "-") {
			out = append(out, w.Text)
			// The library an option loads by a name without its ending
			// (ruby -r ./evil, node --require ./evil): evil.rb, evil.js.
			for _, e := range exts {
				out = append(out, w.Text+e)
			}
		}
	}
	if shellcmd.InterpreterName(name) == "python" {
		out = append(out, pythonModuleFiles(form)...)
	}
	return out
}

// pythonModuleFiles returns the files "python -m MOD" may run from the
// directory it runs in, which Python puts first on its module path: MOD
// with its dots as '/' and ".py", or its "__main__.py", and the
// "__init__.py" of each package on the way ("-m a.b" runs a/__init__.py,
// then a/b.py or a/b/__init__.py and a/b/__main__.py). Options before -m
// are read as python reads its clusters (-Im MOD, -mMOD).
func pythonModuleFiles(form []shellcmd.Word) []string {
	module := ""
words:
	for i := 1; i < len(form) && module == ""; i++ {
		t := form[i].Text
		if form[i].Kind != shellcmd.Static || t == "--" || !strings.HasPrefix(t, "-") || t == "-" {
			return nil // a script, or a word known only at run time
		}
		for j := 1; j < len(t); j++ {
			switch c := t[j]; {
			case strings.IndexByte(pythonFlags, c) >= 0:
			case c == 'm' || c == 'W' || c == 'X':
				v := t[j+1:]
				if v == "" && i+1 < len(form) && form[i+1].Kind == shellcmd.Static {
					i++
					v = form[i].Text
				}
				if c == 'm' {
					module = v
				}
				continue words
			default:
				return nil // -c code, or an option not known
			}
		}
	}
	if module == "" {
		return nil
	}
	parts := strings.Split(module, ".")
	var out []string
	for k := 1; k < len(parts); k++ {
		out = append(out, strings.Join(parts[:k], "/")+"/__init__.py")
	}
	p := strings.Join(parts, "/")
	return append(out, p+".py", p+"/__init__.py", p+"/__main__.py")
}

// loadables returns the files an enable form may load as builtins, code
// bash runs in its own process (enable -f evil.so x runs evil.so's
// constructor before it looks for x): every static word not starting
// with '-', and what follows the f of an option cluster (-f./evil.so,
// -nfevil.so), since which word -f takes is the option parser's.
func loadables(form []shellcmd.Word) []string {
	var out []string
	for _, w := range form[1:] {
		t := w.Text
		switch {
		case w.Kind != shellcmd.Static || t == "" || t == "--":
		case !strings.HasPrefix(t, "-"):
			out = append(out, t)
		default:
			if _, v, ok := strings.Cut(t[1:], "f"); ok && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// makefiles returns the makefiles a make form reads: those -f, --file or
// --makefile name, else GNUmakefile, makefile and Makefile, in the
// directory the last -C names (relative to where make runs).
func makefiles(form []shellcmd.Word) []string {
	var files []string
	dir := ""
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if t == "--" {
			break
		}
		next := func(v string) string {
			if v != "" {
				return v
			}
			if i+1 < len(form) {
				i++
				return form[i].Text
			}
			return ""
		}
		switch {
		case strings.HasPrefix(t, "--file=") || strings.HasPrefix(t, "--makefile="):
			_, v, _ := strings.Cut(t, "=")
			files = append(files, v)
		case t == "--file" || t == "--makefile":
			files = append(files, next(""))
		case strings.HasPrefix(t, "--directory="):
			_, v, _ := strings.Cut(t, "=")
			dir = filepath.Join(dir, v)
		case t == "--directory":
			dir = filepath.Join(dir, next(""))
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				if t[j] == 'f' {
					files = append(files, next(t[j+1:]))
					break
				}
				if t[j] == 'C' {
					dir = filepath.Join(dir, next(t[j+1:]))
					break
				}
				if strings.IndexByte("IjlolOW", t[j]) >= 0 {
					break // the rest (or the next word) is that option's value
				}
			}
		}
	}
	if len(files) == 0 {
		files = []string{"GNUmakefile", "makefile", "Makefile"}
	}
	var out []string
	for _, f := range files {
		if f == "" || f == "-" {
			continue
		}
		if dir != "" && !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		out = append(out, f)
	}
	return out
}

// scriptFileNamed returns the index namedIndex gives the text of the
// script file at p run in d (namedInFile), and the SHA-256 of the text;
// -1 where there is none to read: missing, outside the workspace roots
// (through its links) or not a regular file. The error says why it was
// not read.
func scriptFileNamed(in *reqInfo, list []protected, p, d string) (int, [32]byte, error) {
	resolved, err := filepath.EvalSymlinks(p)
	if err != nil {
		return -1, [32]byte{}, err
	}
	if !in.insideRoots(resolved) {
		return -1, [32]byte{}, errors.New("it is outside the workspace roots")
	}
	return namedInFile(list, resolved, filepath.Dir(p), d)
}

// projectManifest returns the package.json whose scripts npm, yarn or pnpm
// run ("npm run x", and the lifecycle scripts of install, test, ...), and
// for npm and pnpm the .npmrc beside it and what it names (npmrcFiles), when
// form runs in dir: in the directory their --prefix, -C, --cwd or --dir
// names, or the nearest at or above it holding one, as manifestDir finds
// it (where a word before the subcommand is computed, dir's). nil for any
// other form.
func projectManifest(form []shellcmd.Word, dir string) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return nil
	}
	name := filepath.Base(form[0].Text)
	if name != "npm" && name != "yarn" && name != "pnpm" {
		return nil
	}
	top, _, ok := manifestDir(name, manifestTools[name], form, dir)
	if !ok {
		top = dir
	}
	out := []string{filepath.Join(top, "package.json")}
	// yarn's own configuration is protected (protect_toolconfig.go); a
	// command that changes the settings runs no script with them.
	if name != "yarn" && !shellcmd.NpmSettingsOnly(form[1:]) {
		out = append(out, npmrcFiles(top)...)
	}
	return out
}
