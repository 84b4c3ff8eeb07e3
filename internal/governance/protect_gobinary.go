package governance

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// go build and go install write each main package they build as a file
// named after the last element of its import path (its directory's name,
// the module path's at a module's root): go install into GOBIN (else the
// first GOPATH's bin, else ~/go/bin), go build into -o's directory, or,
// for one package without -o, into the directory it runs in. A package
// the agent made (x/acp-bridge/main.go) then replaces a protected file
// of that name there, such as the bridge's own program that Claude
// Code's hook runs. Only protected files are decided here: a policy rule
// cannot name GOBIN, and an ordinary "go install ./..." writes nothing
// protected.

// maxGoPatternDirs bounds the directories one go command's "..."
// patterns are walked through for packages named like a protected file;
// past it the command is asked about. A variable only so that tests can
// lower it.
var maxGoPatternDirs = 20000

// goValueFlags are go build's and go install's flags that take a value in
// the next word when not given as -flag=value.
var goValueFlags = setOf("p", "asmflags", "buildmode", "compiler", "gccgoflags", "gcflags", "installsuffix", "ldflags",
	"mod", "modfile", "overlay", "pgo", "pkgdir", "tags", "toolexec", "covermode", "coverpkg", "o", "C", "exec")

// goBuild is one go build or go install command as read for the
// binaries it writes.
type goBuild struct {
	install  bool
	dir      string // where it runs, after -C
	shellDir string // where the shell runs it, before -C
	out      string // -o's value, "" for none
	patterns []shellcmd.Word
	unread   bool // a word known only at run time where a flag may be
}

// readGoBuild reads form as go build or go install; ok is false for any
// other command.
func readGoBuild(form []shellcmd.Word, cwd string) (goBuild, bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "go" {
		return goBuild{}, false
	}
	g := goBuild{shellDir: cwd}
	var i int
	g.dir, i = goChdir(form, cwd)
	if i >= len(form) || form[i].Kind != shellcmd.Static || form[i].Text != "build" && form[i].Text != "install" {
		return goBuild{}, false
	}
	g.install = form[i].Text == "install"
	args := form[i+1:]
	for j := 0; j < len(args); j++ {
		w := args[j]
		if w.Kind != shellcmd.Static {
			if strings.HasPrefix(w.Text, "-") || w.Text == "" {
				// -ldflags="-X main.v=$V" sets a flag that names no
				// file; another may be -o or -C.
				name, _, eq := strings.Cut(strings.TrimLeft(w.Text, "-"), "=")
				g.unread = g.unread || !eq || !goValueFlags[name] || name == "o" || name == "C"
				continue
			}
			g.patterns = append(g.patterns, args[j:]...)
			break
		}
		if w.Text == "--" {
			g.patterns = append(g.patterns, args[j+1:]...)
			break
		}
		if !strings.HasPrefix(w.Text, "-") {
			g.patterns = append(g.patterns, args[j:]...)
			break
		}
		name, value, eq := strings.Cut(strings.TrimLeft(w.Text, "-"), "=")
		if !eq && goValueFlags[name] && j+1 < len(args) {
			j++
			value = args[j].Text
			if args[j].Kind != shellcmd.Static {
				g.unread = g.unread || name == "o" || name == "C"
			}
		}
		switch name {
		case "o":
			g.out = value
		case "C":
			g.dir = joinRaw(g.dir, value)
		}
	}
	if len(g.patterns) == 0 {
		g.patterns = []shellcmd.Word{{Kind: shellcmd.Static, Text: "."}}
	}
	return g, true
}

// goBinaryReaches denies go build or go install when a binary it may
// write (see above) is a protected file: a package its patterns may match
// is named like the file and the file lies in the directory the binary
// goes to. It asks, when such a file is a program, where the bridge
// cannot tell: a word known only at run time, a pattern of packages it
// does not find on disk, or a walk past maxGoPatternDirs. assigns are the
// line's variable assignments.
func goBinaryReaches(in *reqInfo, list []protected, form []shellcmd.Word, cwd, source string, assigns []shellcmd.Assignment) (verdict, bool) {
	g, ok := readGoBuild(form, cwd)
	if !ok {
		return verdict{}, false
	}
	outDirs, known := goOutputDirs(in, g, assigns)
	if g.out != "" && !known {
		// -o names the file itself: decided as a written name.
		return verdict{}, false
	}
	// The protected files in a directory a binary may go to, by name.
	names := map[string]string{}
	for _, pr := range list {
		if pr.dir {
			continue
		}
		for _, f := range pr.forms {
			for _, d := range outDirs {
				if d == "*" || filepath.Dir(f) == d {
					names[strings.TrimSuffix(filepath.Base(f), ".exe")] = f
				}
			}
		}
	}
	if len(names) == 0 {
		return verdict{}, false
	}
	// What the bridge cannot read is asked about only next to a
	// protected program: a file such as the policy is replaced only by a
	// package of its name, which a pattern the line shows names.
	program := false
	for _, f := range names {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			program = true
		}
	}
	ask := func(why string) (verdict, bool) {
		if !program {
			return verdict{}, false
		}
		return verdict{value: RequireApproval, ref: "self-protection",
			ruleTx: "require-approval for commands that may replace the bridge's own files (built-in self-protection)",
			reason: fmt.Sprintf("running %q: go %s writes a binary named after each main package it builds next to a protected file, and %s", strings.TrimSpace(source), goVerb(g), why)}, true
	}
	if g.unread {
		return ask("a word of it is known only when it runs")
	}
	budget := maxGoPatternDirs
	var pats []shellcmd.Word
	for _, p := range g.patterns {
		switch p.Kind {
		case shellcmd.Static:
			pats = append(pats, p)
		case shellcmd.Glob:
			// The shell's pattern: each name it matches, or itself
			// when none.
			m, _ := filepath.Glob(joinRaw(g.dir, p.Text))
			if len(m) > maxOperands {
				return ask(fmt.Sprintf("%s matches too many names to check", p.Text))
			}
			pats = append(pats, p)
			for _, n := range m {
				pats = append(pats, shellcmd.Word{Kind: shellcmd.Static, Text: n})
			}
		default:
			return ask("a package pattern of it is known only when it runs")
		}
	}
	for _, p := range pats {
		found, sure := goPatternNames(g.dir, p.Text, names, &budget)
		if found != "" {
			f := names[found]
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: "deny commands that replace the bridge's own files (built-in self-protection)",
				reason: fmt.Sprintf("running %q: go %s may build a main package named %s from %s, writing %s, a file protected from the agent whatever the policy says", strings.TrimSpace(source), goVerb(g), found, p.Text, f)}, true
		}
		if !sure {
			return ask(fmt.Sprintf("the bridge cannot tell which packages %s names", p.Text))
		}
	}
	return verdict{}, false
}

// goVerb is "build" or "install".
func goVerb(g goBuild) string {
	if g.install {
		return "install"
	}
	return "build"
}

// goOutputDirs returns the directories (their real paths) g may write
// binaries into; "*" stands for any, when a value deciding it is known
// only at run time. known is false when -o names a file rather than a
// directory (a name ending in "/" or an existing directory).
func goOutputDirs(in *reqInfo, g goBuild, assigns []shellcmd.Assignment) (dirs []string, known bool) {
	if g.out != "" {
		// go reads a relative -o from the directory -C leads to, but the
		// shell may have made it relative from its own: "-o $PWD/.claude/"
		// reaches the bridge as "./.claude/". Both are where it may go.
		bases := []string{g.dir}
		if g.shellDir != g.dir && !filepath.IsAbs(g.out) {
			bases = append(bases, g.shellDir)
		}
		for _, base := range bases {
			o := joinRaw(base, g.out)
			if fi, err := os.Stat(o); strings.HasSuffix(g.out, "/") || err == nil && fi.IsDir() {
				dirs = append(dirs, resolvedDir(filepath.Clean(o)))
			}
		}
		return dirs, len(dirs) > 0
	}
	if !g.install {
		if len(g.patterns) != 1 {
			return nil, true // several packages: built and discarded
		}
		return []string{resolvedDir(filepath.Clean(g.dir))}, true
	}
	env := func(name string) (string, bool) {
		for i := len(assigns) - 1; i >= 0; i-- {
			if a := assigns[i]; a.Name == name {
				return a.Value, a.Static && !a.Append
			}
		}
		for _, v := range in.req.Env {
			if v.Name == name {
				return v.Value, true
			}
		}
		if v, ok := os.LookupEnv(name); ok {
			return v, true
		}
		return goEnvFile(name), true
	}
	bin, ok := env("GOBIN")
	if !ok {
		return []string{"*"}, true
	}
	if bin == "" {
		gopath, ok := env("GOPATH")
		if !ok {
			return []string{"*"}, true
		}
		if list := filepath.SplitList(gopath); len(list) > 0 && list[0] != "" {
			bin = filepath.Join(list[0], "bin")
		} else if home, ok := env("HOME"); ok && home != "" {
			bin = filepath.Join(home, "go", "bin")
		} else if home, err := os.UserHomeDir(); err == nil {
			bin = filepath.Join(home, "go", "bin")
		} else {
			return []string{"*"}, true
		}
	}
	return []string{resolvedDir(filepath.Clean(bin))}, true
}

// goEnvFile returns the value go env -w wrote for name in go's
// configuration file (GOENV, else the user configuration directory's
// go/env), "" for none.
func goEnvFile(name string) string {
	p := os.Getenv("GOENV")
	if p == "" {
		d, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		p = filepath.Join(d, "go", "env")
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), name+"="); ok {
			return v
		}
	}
	return ""
}

// goPatternNames returns the name of names that a main package pattern
// (run in dir) may match may be built as, "" for none: a path or import
// path's last element (the one before a /vN major version; a .go file's
// name without .go; the module path's at a module's root), and for a
// pattern holding "..." the name of every directory holding .go files
// beneath the pattern's fixed start, walked through at most *budget
// directories. sure is false when the bridge cannot tell: an import path
// outside the module with "...", "all", or a walk past the budget.
func goPatternNames(dir, pattern string, names map[string]string, budget *int) (found string, sure bool) {
	pat, _, _ := strings.Cut(pattern, "@")
	switch pat {
	case "std", "cmd":
		return "", true // the standard library's and Go's own tools
	case "all":
		return "", false
	}
	local := pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat)
	if !strings.Contains(pat, "...") {
		if strings.HasSuffix(pat, ".go") {
			n := strings.TrimSuffix(filepath.Base(pat), ".go")
			return hit(names, n), true
		}
		if !local {
			return hit(names, importName(pat)), true
		}
		return hit(names, goDirNames(joinRaw(dir, pat))...), true
	}
	if !local {
		root, mod, ok := goModule(dir)
		rest, in := strings.CutPrefix(pat, mod)
		if !ok || !in || rest != "" && !strings.HasPrefix(rest, "/") && !strings.HasPrefix(rest, "...") {
			return hit(names, importName(strings.TrimSuffix(pat, "/..."))), false
		}
		pat = "." + rest
		if strings.HasPrefix(rest, "...") {
			pat = "./" + rest
		}
		dir = root
	}
	start := pat[:strings.Index(pat, "...")]
	if i := strings.LastIndex(start, "/"); i >= 0 {
		start = start[:i]
	} else {
		start = "."
	}
	top := joinRaw(dir, start)
	if n := hit(names, goDirNames(top)...); n != "" {
		return n, true
	}
	sure = true
	filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if *budget--; *budget < 0 {
			sure = false
			return filepath.SkipAll
		}
		b := d.Name()
		if p != top && (strings.HasPrefix(b, ".") || strings.HasPrefix(b, "_") || b == "testdata") {
			return filepath.SkipDir
		}
		if n := hit(names, b); n != "" && holdsGoFiles(p) {
			found = n
			return filepath.SkipAll
		}
		return nil
	})
	return found, sure
}

// hit returns the first of cands that names holds, "" for none.
func hit(names map[string]string, cands ...string) string {
	for _, c := range cands {
		if _, ok := names[c]; ok && c != "" {
			return c
		}
	}
	return ""
}

// importName is the name go gives a binary built from import path p:
// its last element, or the one before a major version (/v2).
func importName(p string) string {
	p = strings.TrimSuffix(p, "/")
	base := filepath.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		return filepath.Base(filepath.Dir(p))
	}
	return base
}

// goDirNames returns the names a main package in directory d may be
// built as: the directory's name (the one above a vN directory), and the
// module path's last element when d holds go.mod.
func goDirNames(d string) []string {
	abs, err := filepath.Abs(d)
	if err != nil {
		return nil
	}
	out := []string{importName(abs)}
	if mod := goModPath(filepath.Join(abs, "go.mod")); mod != "" {
		out = append(out, importName(mod))
	}
	return out
}

// goModule returns the root and module path of the module dir lies in
// (the nearest go.mod at or above it).
func goModule(dir string) (root, mod string, ok bool) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if m := goModPath(filepath.Join(d, "go.mod")); m != "" {
			return d, m, true
		}
		if d == filepath.Dir(d) {
			return "", "", false
		}
	}
}

// goModPath returns the module path a go.mod file declares, "" for none.
func goModPath(p string) string {
	data, err := readRegular(p, maxConfigFileBytes)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

// holdsGoFiles reports whether directory d holds a .go file.
func holdsGoFiles(d string) bool {
	ents, err := os.ReadDir(d)
	if err != nil {
		return true
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

// goChdir reads the -C options that come first after go in form ("go -C
// dir build", "go -C=dir run"), the directories go changes to, from dir:
// it returns where go then runs and the index of the word after them (the
// subcommand).
func goChdir(form []shellcmd.Word, dir string) (string, int) {
	i := 1
	for i < len(form) && form[i].Kind == shellcmd.Static && strings.HasPrefix(form[i].Text, "-C") {
		if v, ok := strings.CutPrefix(strings.TrimPrefix(form[i].Text, "-"), "C="); ok {
			dir = joinRaw(dir, v)
		} else if form[i].Text == "-C" && i+1 < len(form) {
			i++
			dir = joinRaw(dir, form[i].Text)
		}
		i++
	}
	return dir, i
}
