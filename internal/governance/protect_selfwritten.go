package governance

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A line may write the file it then runs as code: "printf ': >
// GOVERN\101NCE.md' > s.sh; bash s.sh" names nothing protected, and s.sh
// is not there (or holds other text) when the line is decided. So a file
// the line runs as code that the line itself may write, by a redirect
// (to it, or to a name computed when the line runs) or by a word its
// commands write (cp's destination, sed -i's file, curl -o's file:
// commandArgs), is not read from the disk: the line is refused, as the
// bridge cannot read what will run.

// selfWrittenScripts denies a command line that may write a file it runs
// as code (eachScript) before it runs it; cwd is the line's directory.
// protectedCommand asks it last, so that a line naming a protected file
// is refused for that.
func (e *Engine) selfWrittenScripts(in *reqInfo, lines []*shellcmd.Analysis, cwd string) (verdict, bool) {
	v, ok := e.eachScript(in, lines, cwd, func(_ *shellcmd.Command, f, _, p string) (verdict, bool) {
		if w, ok := e.lineWritesScript(in, lines, p, cwd); ok {
			return selfWrittenVerdict(in, w, f)
		}
		return verdict{}, false
	})
	if ok {
		return v, true
	}
	if v, ok := e.lineWritesOnPath(in, lines, cwd); ok {
		return v, true
	}
	return e.lineWritesOnValues(in, lines, cwd)
}

// keepsText are programs that change what they name without giving a file
// new text: its mode, owner or times, an empty file made, a directory
// made, a file removed (chmod +x s.sh && ./s.sh runs what is there).
var keepsText = setOf("chmod", "chown", "chgrp", "touch", "mkdir", "rmdir", "rm", "unlink", "chattr", "setfacl")

// lineWritesScript returns the source of a command of lines that may
// write the file at p (as a program opens it, unclean) before it runs,
// and whether there is one. cwd is the line's directory.
func (e *Engine) lineWritesScript(in *reqInfo, lines []*shellcmd.Analysis, p, cwd string) (string, bool) {
	var forms []string // p's, once needed
	return e.lineWrites(in, lines, cwd, func(dir, name string) bool {
		if forms == nil {
			forms = pathFormsOf(p)
		}
		return shareForm(forms, pathFormsOf(joinRaw(dir, name)))
	})
}

// lineWrites returns the source of a command of lines that may write a
// file same accepts (name as written, relative to dir), or a file whose
// name is computed when the line runs, and whether there is one. cwd is
// the line's directory.
func (e *Engine) lineWrites(in *reqInfo, lines []*shellcmd.Analysis, cwd string, same func(dir, name string) bool) (string, bool) {
	for _, a := range lines {
		for _, r := range a.Redirects {
			if !r.Write || redirectDevices[r.Target.Text] {
				continue
			}
			if r.Target.Kind != shellcmd.Static {
				return "a redirect to " + r.Target.Text, true
			}
			dirs, unknown := e.commandDirs(in, r.Dir)
			if unknown {
				dirs = []string{cwd}
			}
			for _, d := range dirs {
				if same(d, r.Target.Text) {
					return "a redirect to " + r.Target.Text, true
				}
			}
		}
		for _, c := range a.Commands {
			if n := len(c.Forms); n > 0 && len(c.Forms[n-1]) > 0 && keepsText[filepath.Base(c.Forms[n-1][0].Text)] {
				continue
			}
			for _, w := range commandArgs(c) {
				if !w.write || w.word.Kind != shellcmd.Static {
					continue
				}
				for _, d := range e.runDirs(in, c, cwd) {
					if same(d, w.text) {
						return strings.TrimSpace(c.Source), true
					}
				}
			}
		}
	}
	return "", false
}

// selfWrittenVerdict denies running the request's line, which may write
// the file f it may run as code by writer before it runs it.
func selfWrittenVerdict(in *reqInfo, writer, f string) (verdict, bool) {
	src := strings.TrimSpace(in.req.Command)
	if len(in.req.Argv) > 0 {
		src = strings.Join(in.req.Argv, " ")
	}
	return verdict{value: Deny, ref: "self-protection",
		ruleTx: "deny commands running a script the same line may write (built-in self-protection)",
		reason: fmt.Sprintf("running %q: the line may write the file %s (%s), which it may run as code, so the bridge cannot read what will run; write the file first, then run it on a line of its own", src, f, writer)}, true
}
