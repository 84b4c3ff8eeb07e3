package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// writesNothing are programs that write no file, whatever their words
// say: a line of them writes only the files it redirects to. Any other
// program (an interpreter, make, a wrapper running another, a tool with
// an output option) may write any file as far as a later line's script
// is concerned (lineWrites).
var writesNothing = setOf("echo", "printf", "true", "false", ":", "sleep", "pwd", "ls", "cat", "head", "tail",
	"wc", "grep", "egrep", "fgrep", "date", "whoami", "id", "uname", "test", "[", "which", "basename",
	"dirname", "stat", "du", "df", "seq", "expr", "printenv", "cmp", "md5sum", "sha1sum", "sha256sum",
	"sha512sum", "nl", "cut", "tr", "rev", "realpath", "readlink", "hostname", "nproc")

// devices a redirect writes without writing a file.
var redirectDevices = setOf("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty")

// lineWrites returns the files the command line of terminal request req
// may write (absolute, cleaned), as it is read every way the engine reads
// it (commandLines): the targets its redirects write, when every program
// it runs is one of writesNothing. anyFile says the line may write any
// file: it runs another program or one named at run time, redirects to a
// name computed at run time, changes directory before a relative
// redirect, runs where the request names no directory, sets a variable
// (PATH may find another program under the name, BASH_ENV runs a file
// first), or cannot be read.
func lineWrites(req Request) (writes []string, anyFile bool) {
	if len(req.Env) > 0 {
		return nil, true
	}
	for _, a := range commandLines(req) {
		if a == nil || len(a.Problems) > 0 || len(a.Assignments) > 0 {
			return nil, true
		}
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				if len(form) == 0 || form[0].Kind != shellcmd.Static || strings.Contains(form[0].Text, "/") || !writesNothing[form[0].Text] {
					return nil, true
				}
			}
		}
		for _, r := range a.Redirects {
			if !r.Write {
				continue
			}
			t := r.Target.Text
			switch {
			case r.Target.Kind != shellcmd.Static: // "~/x" too
				return nil, true
			case redirectDevices[t]:
				continue
			case !filepath.IsAbs(t) && (a.ChangesDir || req.NoCwd || req.Cwd == ""):
				return nil, true
			case !filepath.IsAbs(t):
				t = filepath.Join(req.Cwd, t)
			}
			writes = append(writes, filepath.Clean(t))
		}
	}
	return writes, false
}
