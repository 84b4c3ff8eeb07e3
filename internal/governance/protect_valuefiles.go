package governance

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A program takes its configuration, and code with it, from where a
// variable says: git reads $HOME/.gitconfig (an alias is a command it
// runs) and the config of the repository GIT_DIR names, wget the settings
// WGETRC names (output_document truncates the file it names), tclsh the
// pkgIndex.tcl of each package beneath TCLLIBPATH, less the key file
// LESSKEYIN names (its #env section sets LESSOPEN, a command). No list of
// names holds every such variable, and which file a program looks for
// beneath a directory is the program's own. So whatever its name, the
// value of each variable the line or the request sets is read as code the
// line runs (eachScript): a file the value names (whole, or an element of
// it as a ':' list) and every file beneath a directory it names, inside
// the workspace roots, but for the files kept from the agent. PATH is read as
// programs find their commands in it (protect_pathrunners.go).

// valueFiles returns the files the static values of the variables the
// request and lines set name inside the workspace roots (and the values
// written from the line's directory, $PWD/cfg), and every file
// beneath a directory one names; why, when not empty, says a directory
// holds more than maxTreeEntries entries, so the bridge cannot read them.
func (e *Engine) valueFiles(in *reqInfo, lines []*shellcmd.Analysis) (files []string, named []valueNamed, why string) {
	cwd := filepath.Clean(in.req.Cwd)
	w := valueWalk{in: in, kept: e.keptFrom(in), budget: maxTreeEntries, seen: map[string]bool{}}
	for _, v := range in.req.Env {
		if v.Name != "PATH" {
			w.value(v.Value, []string{cwd})
		}
	}
	for _, a := range lines {
		for _, as := range a.Assignments {
			if as.Name == "PATH" {
				continue
			}
			dirs := []string{cwd}
			if as.Dir.Moved() {
				dirs = e.dirsOrRoots(in, as.Dir)
			}
			if as.Static {
				w.value(as.Value, dirs)
				continue
			}
			// A value written from the line's directory ($PWD/cfg,
			// ~+/cfg, $(pwd)/cfg, each ':' element so) names what
			// the rest names there.
			for _, el := range strings.Split(as.Value, ":") {
				if n, ok := shellcmd.CwdRelative(el); ok {
					w.value(n, dirs)
				}
			}
		}
	}
	if w.budget < 0 {
		return w.files, w.named, fmt.Sprintf("the value of a variable it sets names a directory holding more than %d entries, where a program may find its configuration", maxTreeEntries)
	}
	return w.files, w.named, ""
}

// valueWalk gathers the files of variables' values (valueFiles).
type valueWalk struct {
	in     *reqInfo
	kept   func(p string) bool // a protected file: not the agent's code
	budget int                 // entries left to read
	seen   map[string]bool
	files  []string
	named  []valueNamed // each path a value names inside the roots, there or not
}

// value adds the files value names, relative to each of dirs.
func (w *valueWalk) value(value string, dirs []string) {
	for _, n := range shellcmd.EnvValueNames(value) {
		if n == "" || strings.Contains(n, "://") {
			continue
		}
		for _, d := range dirs {
			w.path(joinRaw(d, n))
		}
	}
}

// path adds p, a file, or every file beneath p, a directory, where it
// lies inside the workspace roots.
func (w *valueWalk) path(p string) {
	resolved, err := filepath.EvalSymlinks(p)
	if err != nil {
		resolved = filepath.Clean(p) // not there yet: the line may make it
	}
	if !w.in.insideRoots(resolved) || w.seen[resolved] {
		return
	}
	w.seen[resolved] = true
	root := w.in.isRoot(resolved)
	w.named = append(w.named, valueNamed{resolved, root})
	fi, err := os.Stat(resolved)
	switch {
	case err != nil:
	case fi.Mode().IsRegular():
		w.add(p)
	case fi.IsDir():
		walkBudget(resolved, &w.budget, func(q string, d fs.DirEntry, err error) error {
			if root && q != resolved && !hiddenBelow(resolved, q) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if err == nil && !d.IsDir() {
				w.add(q)
			}
			return nil
		})
	}
}

// valueNamed is a path a variable's value names inside the roots; root
// says it is a workspace root, whose configuration a program finds in its
// hidden entries (HOME=. and .gitconfig, CURL_HOME=. and .curlrc): those
// alone are read beneath it, not the project's own files.
type valueNamed struct {
	path string
	root bool
}

// hiddenBelow reports whether q, beneath dir, lies in or is an entry of
// dir whose name starts with a dot.
func hiddenBelow(dir, q string) bool {
	rel, err := filepath.Rel(dir, q)
	return err == nil && strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "..")
}

// isRoot reports whether p is one of the workspace roots.
func (in *reqInfo) isRoot(p string) bool {
	for _, r := range in.roots {
		if filepath.Clean(r) == p {
			return true
		}
	}
	return false
}

// add keeps the file p unless the agent may not write it (keptFrom).
func (w *valueWalk) add(p string) {
	if !w.kept(p) {
		w.files = append(w.files, p)
	}
}

// lineWritesOnValues denies a line that runs a program and may write the
// file a variable's value names, or a file beneath a directory it names
// (cp, mv, tee, a redirect, a name computed at run time): the file is not
// there, or holds other text, when the line is decided, and the program
// takes it as its configuration ("cp gc.txt cfg/.gitconfig && HOME=cfg git
// lg").
func (e *Engine) lineWritesOnValues(in *reqInfo, lines []*shellcmd.Analysis, cwd string) (verdict, bool) {
	l, _ := e.lookupFiles(in, lines)
	if len(l.valueNamed) == 0 || !anyRunsPrograms(lines) {
		return verdict{}, false
	}
	w, ok := e.lineWrites(in, lines, cwd, func(dir, name string) bool {
		p := joinRaw(dir, name)
		for _, n := range l.valueNamed {
			for _, f := range pathFormsOf(p) {
				if rel, ok := cutDir(n.path, f); ok && (!n.root || strings.HasPrefix(rel, ".")) {
					return true
				}
			}
		}
		return false
	})
	if !ok {
		return verdict{}, false
	}
	return selfWrittenVerdict(in, w, "a variable's value names, which a program may take as its configuration")
}
