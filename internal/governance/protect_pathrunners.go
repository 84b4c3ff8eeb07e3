package governance

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A program runs other programs by names of its own, which the line does
// not show: make the commands of its recipes, npm and yarn those of
// package.json's scripts, a bare xargs echo, git its aliases and hooks, an
// interpreter whatever its script spawns. Each looks the name up in PATH.
// Once the line or the request changes PATH to list a directory the agent
// may write ("PATH=.:$PATH make", "export PATH=tools:$PATH", env's
// NAME=value, the request's env), the name may run the agent's executable
// there, which empties the policy under a line that shows only "make". So
// self-protection reads, as code the line runs, every executable a
// directory of that PATH holds, not only the names the line shows
// (lookedUp): an absolute directory's own, a relative one's wherever a
// program may run (make -C, npm at the package's top, git at the work
// tree's), and, where an element is "." or empty, every executable beneath
// the roots. An element known only when the line runs (PATH=$(go env
// GOPATH)/bin:$PATH, read PATH, source) is searched only for the names the
// line shows (lookupDirs): every executable of the workspace would refuse
// everyday lines for a script that names the policy (docs/security.md).

// runnables are the executables a PATH the line gives may make a program
// run by a name of its own: listed, those of its absolute directories
// inside the roots; beneath, when not nil, accepts the directories whose
// executables count too, found by a walk of the roots (namedBeneath).
type runnables struct {
	listed  []string
	beneath func(dir string) bool
	kept    func(p string) bool // a file the agent may not write (keptFrom)
	// named are the directories the PATH lists by name, absolute or
	// relative to where the line runs (not those known only at run time).
	named []string
	// anyMode says the line may give a file an execute bit (chmod,
	// install, setfacl): every regular file there may then run.
	anyMode bool
}

// pathRunnables returns the runnables of the PATH the request and lines
// give: each element of a value they show (an empty one is ".", where the
// program runs); an element known only when the line runs is not one, nor
// the "." lookupDirs adds where the earlier PATH may leave it (the IDE's
// PATH is not known, docs/security.md). A PATH the line removes (env -i,
// env -u PATH, exec -c, unset PATH: removesPath) is one holding ".": GNU
// make without PATH runs a recipe's name where it runs, and a bash
// started beneath takes its default PATH, which ends in ".".
func (e *Engine) pathRunnables(in *reqInfo, lines []*shellcmd.Analysis) runnables {
	r := runnables{kept: e.keptFrom(in)}
	var dirs []string
	anyDir := false
	for _, v := range in.req.Env {
		if v.Name == "PATH" {
			dirs = append(dirs, strings.Split(v.Value, ":")...)
		}
	}
	for _, a := range lines {
		for _, as := range a.Assignments {
			if as.Name != "PATH" {
				continue
			}
			elems, _ := pathElements(as)
			if !as.Static || as.Append && strings.HasPrefix(as.Value, ":") {
				elems = elems[1:] // the "." for the earlier PATH, or the "" before PATH+=:dir
			}
			dirs = append(dirs, elems...)
			if !as.Static {
				// $PWD/tools, ~+/tools: the tools where the line is.
				for _, el := range strings.Split(strings.NewReplacer(`"`, "", `'`, "").Replace(as.Value), ":") {
					if n, ok := shellcmd.CwdRelative(el); ok {
						dirs = append(dirs, n)
					}
				}
			}
		}
	}
	if removesPath(lines) {
		anyDir = true // a program may take a default PATH ending in "."
	}
	r.named = dirs
	r.anyMode = changesModes(lines)
	var rel []string // relative elements, cleaned
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			r.listed = append(r.listed, r.executablesIn(in, d)...)
			continue
		}
		c := filepath.Clean(d) // "" is "."
		if c == "." || c == ".." || strings.HasPrefix(c, "../") {
			anyDir = true // where the program runs, or above it: anywhere
			continue
		}
		rel = append(rel, c)
	}
	switch {
	case anyDir:
		r.beneath = func(string) bool { return true }
	case len(rel) > 0:
		r.beneath = func(dir string) bool {
			for _, c := range rel {
				if strings.HasSuffix(dir, "/"+c) {
					return true
				}
			}
			return false
		}
	}
	return r
}

// removesPath reports whether a program the lines run may start with no
// PATH: a command removes it (env -i, env -u PATH, exec -c, unset PATH:
// Command.NoPath), or a nameref may (declare -n r=PATH; unset r). GNU
// make then runs a recipe's name where it runs, and a bash started
// beneath takes bash's default PATH, which ends in ".".
func removesPath(lines []*shellcmd.Analysis) bool {
	for _, a := range lines {
		for _, c := range a.Commands {
			if c.NoPath != "" {
				return true
			}
			for _, form := range c.Forms {
				if shellcmd.Nameref(form) {
					return true
				}
			}
		}
	}
	return false
}

// executablesIn returns the executables in the directory d, where it lies
// inside the workspace roots (through its links): the agent writes none
// elsewhere.
func (r runnables) executablesIn(in *reqInfo, d string) []string {
	resolved, err := filepath.EvalSymlinks(d)
	if err != nil || !in.insideRoots(resolved) {
		return nil
	}
	ents, err := os.ReadDir(d)
	if err != nil {
		return nil
	}
	var out []string
	for i, ent := range ents {
		if i >= maxGlobMatches {
			break
		}
		if p := filepath.Join(d, ent.Name()); !ent.IsDir() && r.runs(p) {
			out = append(out, p)
		}
	}
	return out
}

// runs reports whether p, through its links, is a regular file with an
// execute bit set, one execvp may run, that the agent may have written.
func (r runnables) runs(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (r.anyMode || fi.Mode().Perm()&0o111 != 0) && !r.kept(p)
}

// modeChangers are programs that may give a file an execute bit.
var modeChangers = setOf("chmod", "install", "setfacl", "busybox")

// changesModes reports whether a command of lines may give a file an
// execute bit: "chmod +x tools/helper; PATH=tools:$PATH make" runs a file
// that is not executable when the line is decided.
func changesModes(lines []*shellcmd.Analysis) bool {
	for _, a := range lines {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				if len(form) > 0 && (form[0].Kind != shellcmd.Static || modeChangers[filepath.Base(form[0].Text)]) {
					return true
				}
			}
		}
	}
	return false
}

// lineWritesOnPath denies a line that changes PATH to name a directory
// inside the roots, runs a program, and may write a file into such a
// directory (cp, mv, tee, a redirect, a name computed at run time): the
// file is not there, or holds other text, when the line is decided, and
// the program may run it by a name of its own ("PATH=tools:$PATH; cp evil
// tools/helper; make").
func (e *Engine) lineWritesOnPath(in *reqInfo, lines []*shellcmd.Analysis, cwd string) (verdict, bool) {
	l, _ := e.lookupFiles(in, lines)
	var dirs [][]string // the forms of each directory inside the roots, where the line runs
	for _, d := range l.pathNamed {
		if p := filepath.Clean(joinRaw(cwd, d)); in.insideRoots(p) {
			dirs = append(dirs, pathFormsOf(p))
		}
	}
	if len(dirs) == 0 || !anyRunsPrograms(lines) {
		return verdict{}, false
	}
	w, ok := e.lineWrites(in, lines, cwd, func(dir, name string) bool {
		// The file, or the directory it is copied or moved into (cp
		// evil tools).
		p := joinRaw(dir, name)
		parent, whole := pathFormsOf(filepath.Dir(p)), pathFormsOf(p)
		for _, forms := range dirs {
			if shareForm(forms, parent) || shareForm(forms, whole) {
				return true
			}
		}
		return false
	})
	if !ok {
		return verdict{}, false
	}
	return selfWrittenVerdict(in, w, "a program may find in a directory its PATH lists")
}

// anyRunsPrograms reports whether a command of lines runs a program
// (runsPrograms).
func anyRunsPrograms(lines []*shellcmd.Analysis) bool {
	for _, a := range lines {
		for _, c := range a.Commands {
			if runsPrograms(c) {
				return true
			}
		}
	}
	return false
}

// runsNothing are the shell's builtins that run no program: a line of
// them alone looks no name up in PATH but its own (lookedUp).
var runsNothing = setOf("echo", "printf", "cd", "pwd", "true", "false", ":", "test", "[", "export",
	"unset", "local", "declare", "typeset", "readonly", "read", "shift", "set", "let", "return", "exit",
	"getopts", "mapfile", "readarray", "umask", "wait", "type")

// runsPrograms reports whether c may run a program that looks a name of
// its own up in PATH: any command but the builtins that run nothing.
func runsPrograms(c *shellcmd.Command) bool {
	for _, form := range c.Forms {
		if len(form) == 0 || form[0].Kind != shellcmd.Static || !runsNothing[form[0].Text] {
			return true
		}
	}
	return false
}

// keptFrom returns whether a file is kept from the agent's changes: at
// or beneath a protected location (the bridge's own files, the agent and
// IDE configuration, the repository's hooks) or inside a .git directory,
// whose hooks are protected at any depth. Its text is not the agent's, so
// a file the line may run that names a protected location there (git's
// own fsmonitor-watchman.sample) refuses no line.
func (e *Engine) keptFrom(in *reqInfo) func(p string) bool {
	list := e.protectedFor(in)
	return func(p string) bool {
		lp := strings.ToLower(filepath.Clean(p))
		if strings.Contains(lp, "/.git/") {
			return true
		}
		for _, pr := range list {
			for _, pf := range pr.lower {
				if beneath(pf, lp) {
					return true
				}
			}
		}
		return false
	}
}
