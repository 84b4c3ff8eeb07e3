package main

import (
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

// ownProgram is the bridge's own program as protected files: the IDE
// starts it by the path or name the person configured as the agent
// command, so an agent that replaced it (a "go install" of a main package
// of its own named acp-bridge, which writes GOBIN/acp-bridge where the
// README installs the bridge) would have its program started in the
// bridge's place next time, with no policy at all. It is protected
// whatever the agent, not only where the Claude Code hook runs it: the
// program where links lead, the path it was started by, and every name on
// PATH that leads to it (a link from GOBIN or /usr/local/bin to a
// versioned install is replaced, not written through, by such an install).
// It is empty when the running program's path is not known.
func ownProgram() []governance.ProtectedPath {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	const what = "the bridge's program, which the IDE starts as the agent command"
	out := []governance.ProtectedPath{{Path: exe, What: what}}
	for _, p := range namesOfProgram(exe, os.Args[0], filepath.SplitList(os.Getenv("PATH"))) {
		out = append(out, governance.ProtectedPath{Path: p, What: what})
	}
	return out
}

// namesOfProgram returns the paths other than exe itself (a program's
// path with its links resolved) that start the same file: argv0 when it
// names a path, each entry of the search path dirs that is a link to it,
// whatever its name, and each there that is a hard link to it under its
// own name or the name it was started by.
func namesOfProgram(exe, argv0 string, dirs []string) []string {
	target, err := os.Stat(exe)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{exe: true}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, target) {
			out = append(out, p)
		}
	}
	names := map[string]bool{filepath.Base(argv0): true, filepath.Base(exe): true}
	if filepath.Base(argv0) != argv0 {
		if abs, err := filepath.Abs(argv0); err == nil {
			add(abs)
		}
	}
	for _, dir := range dirs {
		if !filepath.IsAbs(dir) {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			// A link under any name; a file under the program's own name (a
			// hard link): statting every file of /usr/bin would cost more.
			if e.Type() == os.ModeSymlink || e.Type().IsRegular() && names[e.Name()] {
				add(filepath.Join(dir, e.Name()))
			}
		}
	}
	return out
}
