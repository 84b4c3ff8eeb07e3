package governance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git rewrites the files of the work tree from other commits without
// naming them: "git checkout BRANCH", "git reset --hard REV", "git merge",
// "git stash pop" (and a plain "git stash", which puts back the committed
// version of a file changed since), "git restore -p -s REV" with no
// pathspec, "git submodule update" (each submodule's path, from the commit
// the index names). A commit the agent made with git's
// plumbing, or one from elsewhere, may hold another governance policy,
// Claude settings with hooks, or a truncated audit log: which files change
// is in the repository, not on the line. Such a command is refused,
// whatever the person approves, when the work tree (taken as the
// workspace root it runs beneath) holds one of the bridge's own files (the
// policy and what it extends, the manifest, the audit log, the cache): the
// person is shown the git line, never what the commit holds, and a "git
// reset --hard evil" approved as such rewrites the policy. One whose tree
// holds only the agents' configuration protected beneath every root
// (.claude/settings.json, .git/config) needs the person's approval, as
// nearly every tree holds some.

// gitRewriteApproval is the built-in rule a command rewriting a tree that
// holds agent configuration is decided by.
const gitRewriteApproval = "require-approval for git commands that rewrite a work tree holding protected configuration (built-in self-protection)"

// gitRewriteDenial is the built-in rule a command rewriting a tree that
// holds the bridge's own files is decided by.
const gitRewriteDenial = "deny git commands that rewrite a work tree holding the bridge's own files (built-in self-protection)"

// gitRewritesProtected returns a verdict for a command line with a git
// command that rewrites a work tree holding a location of the protected
// list: deny when the location is one of the bridge's own files,
// require-approval otherwise.
func (e *Engine) gitRewritesProtected(in *reqInfo) (verdict, bool) {
	list := e.protectedFor(in)
	if len(list) == 0 {
		return verdict{}, false
	}
	for _, a := range e.scriptLines(in) {
		for _, c := range a.Commands {
			for _, form := range c.Forms {
				what, ok := gitRewrite(form)
				if !ok {
					continue
				}
				dirs := e.dirsOrRoots(in, c.Dir)
				base := ""
				for _, d := range shellcmd.GitOptions(form).Dirs {
					base = joinRaw(base, d.Text)
				}
				tops := workTreeTops(dirs, in.roots, base)
				for _, top := range tops {
					if pr, f, ok := holds([]string{top}, bridgeOwn(list)); ok {
						return verdict{value: Deny, ref: "self-protection", ruleTx: gitRewriteDenial,
							reason: fmt.Sprintf("running %q: %s changes files of the work tree (%s) that the line does not name, to what a commit holds, and the tree holds %s (%s), which is protected from the agent whatever the policy says; run it yourself", strings.TrimSpace(c.Source), what, top, pr.What, f)}, true
					}
				}
				for _, top := range tops {
					if pr, f, ok := holds([]string{top}, list); ok {
						return verdict{value: RequireApproval, ref: "git-rewrites-tree", ruleTx: gitRewriteApproval,
							reason: fmt.Sprintf("running %q: %s changes files of the work tree (%s) that the line does not name, to what a commit holds, and the tree holds %s (%s); the person decides", strings.TrimSpace(c.Source), what, top, pr.What, f)}, true
					}
				}
			}
		}
	}
	return verdict{}, false
}

// gitRewrite reports whether form is a git command that rewrites work-tree
// files it does not name, and names it ("git merge"). One whose
// subcommand is known only when the line runs may be one. Options are
// read as git reads them (ReadGitArgs): "git reset --ha" is --hard,
// "git read-tree -mu" holds -u.
func gitRewrite(form []shellcmd.Word) (string, bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || !isGit(form[0].Text) {
		return "", false
	}
	g := shellcmd.GitOptions(form)
	if g.At >= len(form) {
		return "", false
	}
	if form[g.At].Kind != shellcmd.Static {
		return "git", true
	}
	sub, args := form[g.At].Text, form[g.At+1:]
	what := "git " + sub
	switch sub {
	case "merge", "pull", "rebase", "cherry-pick", "revert", "am", "sparse-checkout", "filter-branch":
		return what, true
	case "reset":
		o := shellcmd.ReadGitArgs(sub, args)
		return what, o.Has("hard") || o.Has("merge") || o.Has("keep")
	case "read-tree":
		o := shellcmd.ReadGitArgs(sub, args)
		return what, o.Has("u")
	case "stash":
		o := shellcmd.ReadGitArgs("stash push", args)
		if o.DashDash {
			return "", false // "git stash push -- paths": decided by what they name
		}
		first := ""
		if len(o.Operands) > 0 && o.Operands[0].Kind == shellcmd.Static {
			first = o.Operands[0].Text
		}
		switch first {
		case "list", "show", "drop", "clear", "create", "store":
			return "", false
		}
		return what, true
	case "submodule":
		// "git submodule update" checks out, at each submodule's path, the
		// commit the index names, cloned from the URL .gitmodules gives:
		// a gitlink the agent put in the index (git read-tree of a commit
		// of its own) at a missing .claude, or at a missing policy the
		// policy extends, fills it with a repository of the agent's.
		for _, a := range args {
			if a.Kind != shellcmd.Static {
				return what, true
			}
			if !strings.HasPrefix(a.Text, "-") {
				return what, a.Text == "update"
			}
		}
		return "", false
	case "bisect":
		if len(args) > 0 && args[0].Kind == shellcmd.Static {
			switch args[0].Text {
			case "log", "view", "visualize", "terms":
				return "", false
			}
		}
		return what, true
	case "restore":
		// With no pathspec only --patch runs, and it offers every file
		// of the work tree, which "yes |" answers: the work tree unless
		// it surely restores the index alone.
		o := shellcmd.ReadGitArgs(sub, args)
		if o.DashDash || len(o.Operands) > 0 || o.Has("pathspec-from-file") {
			return "", false // paths: decided by what they name (gitRemover)
		}
		return what, o.Computed || !o.Surely("staged") || o.Has("worktree")
	case "checkout", "switch":
		o := shellcmd.ReadGitArgs(sub, args)
		if o.DashDash {
			return "", false // paths: decided by what they name (gitRemover)
		}
		created := slices.ContainsFunc([]string{"b", "B", "create", "force-create", "orphan"}, func(n string) bool {
			return len(o.Values(n)) > 0
		})
		// "git checkout -b new" makes a branch where HEAD is and leaves
		// the files alone; with a start point it checks that out.
		// -f puts every tracked file back as HEAD has it.
		force := o.Has("force") || o.Has("orphan") || o.Has("detach") || o.Has("discard-changes")
		if created && len(o.Operands) == 0 && !force {
			return "", false
		}
		return what, len(o.Operands) > 0 || force
	}
	return "", false
}

// isGit reports whether a command word runs git.
func isGit(word string) bool {
	i := strings.LastIndexByte(word, '/')
	return word[i+1:] == "git"
}

// bridgeOwn returns the locations of list that are the bridge's own files
// (protected.own), not configuration found in a workspace.
func bridgeOwn(list []protected) []protected {
	var out []protected
	for _, pr := range list {
		if pr.own {
			out = append(out, pr)
		}
	}
	return out
}
