package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A git directory need not be named .git: git init --bare, git clone
// --bare or --mirror and --separate-git-dir make one under any name, and
// git run in a work tree whose .git file names it, or with GIT_DIR or
// --git-dir, obeys its config (core.fsmonitor, aliases) and runs its
// hooks. So a change to the config or a hook of a directory that is a git
// directory (it holds HEAD, objects and refs, as git's own test asks) is
// refused whatever its name, as the repository's .git is.

// gitDirFile returns the git directory p is the configuration or a hook of,
// or "" when it is neither or the directory is no git directory.
func gitDirFile(p string) string {
	dir, name := filepath.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case name == "config" || name == "config.worktree" || name == "hooks":
	case filepath.Base(dir) == "hooks":
		dir = filepath.Dir(dir)
	default:
		return ""
	}
	if dir == "" || !isGitDir(dir) {
		return ""
	}
	return dir
}

// isGitDir reports whether d holds what git looks for in a git directory:
// a HEAD file, an objects and a refs directory.
func isGitDir(d string) bool {
	if fi, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// gitDirVerdict refuses a change to the configuration or a hook of a git
// directory named otherwise than .git, by any of the path's forms.
func (e *Engine) gitDirVerdict(in *reqInfo, forms []string) (verdict, bool) {
	if !in.mutates() || in.req.Action == ActionSessionNew {
		return verdict{}, false
	}
	for _, f := range forms {
		if d := gitDirFile(f); d != "" {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: "deny changes to a git directory's configuration and hooks, which git runs commands from (built-in self-protection)",
				reason: fmt.Sprintf("%s %s: %s is a git directory, whose configuration and hooks git runs commands from, protected from the agent whatever the policy says", e.describeAction(in), f, d)}, true
		}
	}
	return verdict{}, false
}
