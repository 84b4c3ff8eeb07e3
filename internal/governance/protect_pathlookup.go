package governance

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A command name without a '/' runs the first executable of that name in
// the directories PATH lists, and a line can change PATH before it runs
// the name: "PATH=. ls", "unset PATH; ls", "PATH=bin:$PATH cat a.txt",
// "read PATH <<< .", "local PATH" in a function, the terminal request's
// env. An empty PATH, an empty element and a relative one are looked up
// from the directory the command runs in, where the agent may have written
// an ls that empties the policy; ./ls is read as the script it is
// (scriptFiles), and ls must be too once PATH may lead there. The rest of
// the decision already asks about the change of PATH; self-protection
// reads the files the name may then run, whatever the person approves.
// Two more variables lead bash to files it runs the same way:
// BASH_LOADABLES_PATH, where enable -f finds a shared object, and HOME,
// where a login or interactive shell (an IDE's terminal among them) finds
// its start-up files.

// lookupDirs returns the directories a command name without a '/' may be
// found in because lines or the request change PATH, as PATH writes them
// (relative ones are relative to where the command runs): each element of
// a value the line or the request gives PATH ("." for an empty one), and
// "." where PATH may be unset or hold what the line does not show. nil
// when nothing changes PATH. computed says an element is known only when
// the line runs ($(go env GOPATH)/bin, read PATH), so it may be any
// directory. name is the variable: PATH, or BASH_LOADABLES_PATH, where
// enable -f looks for a file named without a '/' (loadables), before the
// directory it runs in.
func lookupDirs(req Request, lines []*shellcmd.Analysis, name string) (dirs []string, computed bool) {
	add := func(d string) {
		if d == "" {
			d = "."
		}
		for _, x := range dirs {
			if x == d {
				return
			}
		}
		dirs = append(dirs, d)
	}
	for _, v := range req.Env {
		if v.Name == name {
			for _, d := range strings.Split(v.Value, ":") {
				add(d)
			}
		}
	}
	for _, a := range lines {
		for _, as := range a.Assignments {
			if as.Name != name {
				continue
			}
			elems, unknown := pathElements(as)
			for _, d := range elems {
				add(d)
			}
			computed = computed || unknown
		}
		for _, c := range a.Commands {
			if name == "PATH" && c.NoPath != "" {
				add(".")
			}
			if setsUnseen(c) {
				add(".")
				computed = true
			}
		}
	}
	return dirs, computed
}

// pathElements returns the directories an assignment to PATH lists: each
// element of a static value; of a value computed at run time, each element
// written plainly ("bin" of bin:$PATH), an element written empty ("" of
// $PATH: or :$PATH, the directory a program runs in, as in a static
// value), the earlier PATH ($PATH) left out, and "." for the rest (the
// shell may find it empty), which unknown reports: such an element may be
// any directory.
func pathElements(as shellcmd.Assignment) (elems []string, unknown bool) {
	if as.Static {
		return strings.Split(as.Value, ":"), false
	}
	elems = []string{"."}
	if as.Value == "" {
		return elems, true // read PATH, printf -v PATH: a value not shown
	}
	for _, e := range splitPathValue(strings.NewReplacer(`"`, "", `'`, "").Replace(as.Value)) {
		switch {
		case e == "$PATH" || e == "${PATH}":
		case e == "" || plainPathElement(e):
			elems = append(elems, e)
		default:
			unknown = true
		}
	}
	return elems, unknown
}

// splitPathValue splits a PATH value as written at its colons, but not
// those inside an expansion (${PATH:-/bin}, $(a:b)): what the shell
// leaves of the value is split there.
func splitPathValue(v string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '$' && i+1 < len(v) && (v[i+1] == '{' || v[i+1] == '('):
			depth++
			i++
		case depth > 0 && (c == '{' || c == '('):
			depth++
		case depth > 0 && (c == '}' || c == ')'):
			depth--
		case c == '`':
			if j := strings.IndexByte(v[i+1:], '`'); j >= 0 {
				i += j + 1
			}
		case c == ':' && depth == 0:
			out = append(out, v[from:i])
			from = i + 1
		}
	}
	return append(out, v[from:])
}

// plainPathElement reports whether e, an element of a PATH value as
// written, is its own text: no expansion, quote or escape in it.
func plainPathElement(e string) bool {
	return !strings.ContainsAny(e, "$`\\~{}*?[") && e != ""
}

// setsUnseen reports whether c may set PATH in a way the line's
// assignments do not show: a nameref (declare -n r=PATH; r=bin), or code
// the line does not hold (source env.sh, eval "$x").
func setsUnseen(c *shellcmd.Command) bool {
	for _, form := range c.Forms {
		if shellcmd.Nameref(form) {
			return true
		}
		if form[0].Kind != shellcmd.Static {
			continue
		}
		switch form[0].Text {
		case "source", ".":
			return true
		case "eval":
			for _, w := range form[1:] {
				if w.Kind != shellcmd.Static {
					return true
				}
			}
		}
	}
	return false
}

// lookedUp returns the files the names of form may be once the line
// changes PATH or BASH_LOADABLES_PATH (lookupFiles): its command name (the
// program, or what a wrapper runs), the scripts bash and source look for
// in PATH (searchedScripts) and, for enable, the loadables it names
// without a '/', each joined to each directory the variable lists, and the
// files beneath the roots named so where an element is computed.
func (l lookups) lookedUp(form []shellcmd.Word) []string {
	if form[0].Kind != shellcmd.Static || form[0].Text == "" || strings.Contains(form[0].Text, "/") {
		return nil
	}
	out := l.path.files(form[0].Text)
	for _, n := range searchedScripts(form) {
		out = append(out, l.path.files(n)...)
	}
	if form[0].Text == "enable" {
		for _, n := range loadables(form) {
			if !strings.Contains(n, "/") {
				out = append(out, l.loadables.files(n)...)
			}
		}
	}
	return out
}

// searchedScripts returns the script names of form that bash, source and
// . look for in PATH when no file of that name is where they run (bash
// s, source s): each static operand without a '/'.
func searchedScripts(form []shellcmd.Word) []string {
	switch form[0].Text {
	case "source", ".", "bash", "rbash":
	default:
		return nil
	}
	var out []string
	for _, w := range form[1:] {
		if w.Kind == shellcmd.Static && w.Text != "" && !strings.HasPrefix(w.Text, "-") && !strings.Contains(w.Text, "/") {
			out = append(out, w.Text)
		}
	}
	return out
}

// lookups are where the names of a line's commands may lead (lookupFiles).
type lookups struct {
	path, loadables, home searchList
	// runnable are the executables a program the line runs may find by a
	// name of its own through the PATH the line or the request gives
	// (pathRunnables); valued the files the values of its variables name
	// (valueFiles, protect_valuefiles.go).
	runnable, valued []string
	// pathNamed are the directories the PATH the line gives names
	// (runnables.named); valueNamed the paths other variables' values
	// name inside the roots, there or not (valueFiles).
	pathNamed  []string
	valueNamed []valueNamed
	// catalog holds the directories of TEXTDOMAINDIR, its beneath
	// non-nil where one is computed (protect_catalogs.go).
	catalog searchList
	// catalogMemo keeps catalogs' answers by the directories asked for.
	catalogMemo map[string]catalogResult
}

// searchList is where a variable listing directories may lead a name: its
// directories (lookupDirs) and, where one is computed, the files beneath
// the roots by their names in lower case.
type searchList struct {
	dirs    []string
	beneath map[string][]string
}

// files returns the files name may be found as in l (its base name
// beneath the roots).
func (l searchList) files(name string) []string {
	out := make([]string, 0, len(l.dirs))
	for _, d := range l.dirs {
		out = append(out, strings.TrimSuffix(d, "/")+"/"+name)
	}
	return append(out, l.beneath[strings.ToLower(filepath.Base(name))]...)
}

// lookupFiles returns where PATH, BASH_LOADABLES_PATH and HOME, as the
// request and lines change them, may lead the names of the lines'
// commands and the shells' start-up files; why says, when not empty, that
// an element is computed and the roots hold too much to search for the
// files it may lead to.
func (e *Engine) lookupFiles(in *reqInfo, lines []*shellcmd.Analysis) (lookups, string) {
	if in.looked == nil {
		l, why := e.findLookups(in, lines)
		l.catalogMemo = map[string]catalogResult{}
		in.looked = &lookedUpOnce{l, why}
	}
	return in.looked.l, in.looked.why
}

// lookupWalks counts the walks of the roots lookupFiles and catalogs make
// (TestLookupsWalkOncePerDecision).
var lookupWalks atomic.Int64

// lookedUpOnce is lookupFiles' answer, kept for the rest of a decision.
type lookedUpOnce struct {
	l   lookups
	why string
}

// findLookups is lookupFiles without the memo.
func (e *Engine) findLookups(in *reqInfo, lines []*shellcmd.Analysis) (lookups, string) {
	var l lookups
	var computed [3]bool
	l.path.dirs, computed[0] = lookupDirs(in.req, lines, "PATH")
	var valuedWhy string
	l.valued, l.valueNamed, valuedWhy = e.valueFiles(in, lines)
	run := e.pathRunnables(in, lines)
	l.runnable, l.pathNamed = run.listed, run.named
	l.loadables.dirs, computed[1] = lookupDirs(in.req, lines, "BASH_LOADABLES_PATH")
	l.home.dirs, computed[2] = lookupDirs(in.req, lines, "HOME")
	var catalogComputed bool
	if l.catalog.dirs, catalogComputed = lookupDirs(in.req, lines, "TEXTDOMAINDIR"); catalogComputed {
		l.catalog.beneath = map[string][]string{}
	}
	if !computed[0] && !computed[1] && !computed[2] && run.beneath == nil {
		return l, valuedWhy
	}
	names := commandNames(lines)
	if computed[2] {
		for _, n := range startupFiles {
			names[strings.ToLower(filepath.Base(n))] = true
		}
	}
	found, exes, why := namedBeneath(in.roots, names, run)
	if why != "" {
		return l, "it may give PATH, HOME or the like a directory known only when the line runs, and " + why
	}
	l.runnable = append(l.runnable, exes...)
	beneath := map[string][]string{}
	for _, f := range found {
		n := strings.ToLower(filepath.Base(f))
		beneath[n] = append(beneath[n], f)
	}
	for i, sl := range []*searchList{&l.path, &l.loadables, &l.home} {
		if computed[i] {
			sl.beneath = beneath
		}
	}
	return l, valuedWhy
}

// startupFiles are the files beneath HOME a shell runs when it starts:
// bash's and sh's as a login or interactive shell (an IDE's terminal runs
// bash -i), zsh's (.zshenv for every zsh), the Korn shells', csh's and
// fish's.
var startupFiles = []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout",
	".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout", ".kshrc", ".mkshrc",
	".cshrc", ".tcshrc", ".login", ".logout", ".config/fish/config.fish"}

// startup returns the start-up files a shell the line starts may run
// once the line or the request changes HOME (in an IDE's terminal, the
// shell that runs the line itself).
func (l lookups) startup() []string {
	if len(l.home.dirs) == 0 {
		return nil
	}
	var out []string
	for _, n := range startupFiles {
		out = append(out, l.home.files(n)...)
	}
	return out
}

// lookupLimit asks about a line one of whose variables (PATH, HOME,
// BASH_LOADABLES_PATH, TEXTDOMAINDIR) is given a directory known only
// when it runs, where the workspace holds more than the bridge searches
// for the files that directory may lead to (lookupFiles, catalogs), or
// whose value names a directory holding more than it reads (valueFiles):
// it cannot tell whether one of them changes a protected file. Asked, not
// refused: source .venv/bin/activate in a large workspace is everyday.
func (e *Engine) lookupLimit(in *reqInfo, lines []*shellcmd.Analysis, cwd string) (verdict, bool) {
	l, why := e.lookupFiles(in, lines)
	if why == "" {
		if _, why = l.catalogs(in, []string{cwd}); why != "" {
			why = "it may give PATH, HOME or the like a directory known only when the line runs, and " + why
		}
	}
	if why == "" {
		return verdict{}, false
	}
	line := strings.TrimSpace(in.req.Command + " " + strings.Join(in.req.Argv, " "))
	return verdict{value: RequireApproval, ref: "unreadable-command",
		ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: fmt.Sprintf("running %q: %s, so the bridge cannot read every file the line may then run to tell whether it changes a protected file", line, why)}, true
}

// namedBeneath returns the files beneath roots whose name is one of names
// (case aside, as a case-insensitive file system finds them): those a PATH
// element computed at run time may make a name run; and, where
// run.beneath is not nil, the executables beneath roots in a directory it
// accepts (pathRunnables). It reads at most maxTreeEntries entries, past
// which it says why it cannot tell.
func namedBeneath(roots []string, names map[string]bool, run runnables) (named, exes []string, why string) {
	lookupWalks.Add(1)
	budget := maxTreeEntries
	for _, r := range roots {
		within := walkBudget(r, &budget, func(q string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if names[strings.ToLower(d.Name())] {
				named = append(named, q)
			}
			if run.beneath != nil && run.beneath(filepath.Dir(q)) && run.runs(q) {
				exes = append(exes, q)
			}
			return nil
		})
		if !within {
			return nil, nil, fmt.Sprintf("the workspace holds more than %d entries", maxTreeEntries)
		}
	}
	return named, exes, ""
}

// commandNames returns the names without a '/' that the forms of lines
// run, and the names of the files enable loads, in lower case.
func commandNames(lines []*shellcmd.Analysis) map[string]bool {
	names := map[string]bool{}
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				if form[0].Kind == shellcmd.Static && form[0].Text != "" && !strings.Contains(form[0].Text, "/") {
					names[strings.ToLower(form[0].Text)] = true
				}
				if form[0].Kind == shellcmd.Static {
					for _, n := range searchedScripts(form) {
						names[strings.ToLower(n)] = true
					}
				}
				if form[0].Kind == shellcmd.Static && form[0].Text == "enable" {
					for _, n := range loadables(form) {
						names[strings.ToLower(filepath.Base(n))] = true
					}
				}
			}
		}
	}
	return names
}
