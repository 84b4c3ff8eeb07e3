package governance

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Where a command of a line runs: the request's cwd, moved by the cd
// commands before it in the same list (shellcmd.Dir). "cd /etc && touch x"
// creates /etc/x, so a relative name is decided in each directory the
// command may run in, as the command will open it; where that is not
// known (a cd to a computed directory, "cd -", a cd in a loop) a name is
// decided by the rules that could match it anywhere, and asked about.

// commandDirs returns the absolute directories a command (or redirection)
// that runs in d may run in; unknown is true when they are not known: the
// line changes directory in a way the analysis does not follow, a cd it
// follows may be looked up in the request's CDPATH, or the request names
// no cwd.
func (e *Engine) commandDirs(in *reqInfo, d shellcmd.Dir) (dirs []string, unknown bool) {
	if in.req.Cwd == "" || d.Unknown || d.Searched && setsCDPATH(in.req) {
		return nil, true
	}
	if !d.Moved() {
		return []string{in.req.Cwd}, false
	}
	paths := d.Paths
	if paths == nil {
		paths = []string{""}
	}
	for _, p := range paths {
		switch {
		case p == "":
			dirs = append(dirs, in.req.Cwd)
		case filepath.IsAbs(p):
			dirs = append(dirs, p)
		default:
			// Not cleaned: "cd link/.." is decided both ways (the
			// shell's logical cd, and the kernel's through the link).
			dirs = append(dirs, joinRaw(in.req.Cwd, p))
		}
	}
	if d.AtTop {
		return topCandidates(in.roots, dirs)
	}
	return dirs, false
}

// dirsOrRoots returns the directories a command that runs in d may run
// in (commandDirs), or every workspace root when those are not known.
func (e *Engine) dirsOrRoots(in *reqInfo, d shellcmd.Dir) []string {
	dirs, unknown := e.commandDirs(in, d)
	if unknown {
		return in.roots
	}
	return dirs
}

// runDirs returns the directories command c of a line run in cwd runs in:
// cwd, or after the line's cd commands dirsOrRoots of c's directory.
func (e *Engine) runDirs(in *reqInfo, c *shellcmd.Command, cwd string) []string {
	if c.Dir.Moved() {
		return e.dirsOrRoots(in, c.Dir)
	}
	return []string{cwd}
}

// topCandidates returns every directory the top of a git work tree
// holding one of dirs may be, up to the workspace root it lies beneath;
// unknown is true when one of dirs lies beneath no root, where the top
// could be anywhere above it.
func topCandidates(roots, dirs []string) (tops []string, unknown bool) {
	for _, d := range dirs {
		d = filepath.Clean(d)
		root := ""
		for _, r := range roots {
			if r = filepath.Clean(r); (d == r || strings.HasPrefix(d, strings.TrimSuffix(r, "/")+"/")) && len(r) > len(root) {
				root = r
			}
		}
		if root == "" {
			return nil, true
		}
		for p := d; ; p = filepath.Dir(p) {
			if !slices.Contains(tops, p) {
				tops = append(tops, p)
			}
			if p == root || p == filepath.Dir(p) {
				break
			}
		}
	}
	return tops, false
}

// setsCDPATH reports whether the request's env sets CDPATH, where cd
// looks a relative directory up first.
func setsCDPATH(req Request) bool {
	for _, v := range req.Env {
		if v.Name == "CDPATH" {
			return true
		}
	}
	return false
}

// unknownWhere describes for a person where a command that runs in d,
// which commandDirs could not follow, runs.
func unknownWhere(d shellcmd.Dir) string {
	if d.Unknown {
		return d.String()
	}
	return d.String() + ", looked up in the request's CDPATH"
}
