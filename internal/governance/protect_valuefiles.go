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
func (e *Engine) valueFiles(in *reqInfo, lines []*shellcmd.Analysis) (files []string, why string) {
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
		return w.files, fmt.Sprintf("the value of a variable it sets names a directory holding more than %d entries, where a program may find its configuration", maxTreeEntries)
	}
	return w.files, ""
}

// valueWalk gathers the files of variables' values (valueFiles).
type valueWalk struct {
	in     *reqInfo
	kept   func(p string) bool // a protected file: not the agent's code
	budget int                 // entries left to read
	seen   map[string]bool
	files  []string
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
	if err != nil || !w.in.insideRoots(resolved) || w.seen[resolved] {
		return
	}
	w.seen[resolved] = true
	fi, err := os.Stat(resolved)
	switch {
	case err != nil:
	case fi.Mode().IsRegular():
		w.add(p)
	case fi.IsDir():
		filepath.WalkDir(resolved, func(q string, d fs.DirEntry, err error) error {
			if w.budget--; w.budget < 0 {
				return filepath.SkipAll
			}
			if err == nil && !d.IsDir() {
				w.add(q)
			}
			return nil
		})
	}
}

// add keeps the file p unless the agent may not write it (keptFrom).
func (w *valueWalk) add(p string) {
	if !w.kept(p) {
		w.files = append(w.files, p)
	}
}
