package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git looks for its repository from the directory it works in upwards,
// and at each directory takes a .git there or, failing that, the
// directory itself when it looks like a repository (a HEAD file, objects/
// and refs/: a bare repository). A bare repository's config file holds
// aliases, hooks and pagers git runs, and the agent may write all of it
// with edits the policy allows (only .git and its contents are
// protected), so "git -C r st" ran r/config's alias "st = !cat .env"
// under Bash(git:*). gitBareVerdict asks about a git command that would
// take such a directory, in the workspace, for its repository.

// gitBareVerdict decides the git forms of c that work in or below a
// directory git takes for a bare repository: approval, whatever rule
// names git.
func (e *Engine) gitBareVerdict(in *reqInfo, c *shellcmd.Command) (verdict, bool) {
	for _, form := range c.Forms {
		if len(form) == 0 || form[0].Kind != shellcmd.Static || form[0].Name() != "git" {
			continue
		}
		g := shellcmd.GitOptions(form)
		if slices.ContainsFunc(form[1:g.At], func(w shellcmd.Word) bool {
			return w.Text == "--git-dir" || strings.HasPrefix(w.Text, "--git-dir=")
		}) {
			continue // git is told its repository (noted as such)
		}
		bases, unknown := e.commandDirs(in, c.Dir)
		if unknown {
			continue // its names are asked about where they lead
		}
		for _, base := range bases {
			dir := base
			for _, d := range g.Dirs {
				if d.Kind != shellcmd.Static {
					dir = ""
					break
				}
				dir = e.operandPath(dir, d.Text)
			}
			if dir == "" {
				continue
			}
			if bare, ok := bareRepositoryAbove(in.roots, filepath.Clean(dir)); ok {
				return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
					reason: fmt.Sprintf("running %q: git takes %s for a bare repository, whose config (aliases, hooks, pagers it runs) the line does not show", strings.TrimSpace(c.Source), bare)}, true
			}
		}
	}
	return verdict{}, false
}

// bareRepositoryAbove returns the first directory from dir up to the
// workspace root holding it that git takes for a bare repository, before
// any that holds a .git; none when dir is in no root.
func bareRepositoryAbove(roots []string, dir string) (string, bool) {
	tops, unknown := topCandidates(roots, []string{dir})
	if unknown {
		return "", false
	}
	for _, d := range tops {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return "", false
		}
		if looksLikeGitDir(d) {
			return d, true
		}
	}
	return "", false
}

// looksLikeGitDir reports whether git takes d for a repository's own
// directory: a HEAD file, and objects and refs directories.
func looksLikeGitDir(d string) bool {
	head, err := os.Stat(filepath.Join(d, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}
