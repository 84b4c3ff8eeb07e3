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
// version of a file changed since). A commit the agent made with git's
// plumbing, or one from elsewhere, may hold another governance policy,
// Claude settings with hooks, or a truncated audit log: which files change
// is in the repository, not on the line. Such a command needs the
// person's approval whenever the work tree (taken as the workspace root it
// runs beneath) holds a protected location, whatever rule allows it.

// gitRewriteApproval is the built-in rule such a command is decided by.
const gitRewriteApproval = "require-approval for git commands that rewrite a work tree holding the bridge's own files (built-in self-protection)"

// gitRewritesProtected returns a require-approval verdict for a command
// line with a git command that rewrites a work tree holding a location of
// the protected list.
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
				for _, top := range workTreeTops(dirs, in.roots, base) {
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
// subcommand is known only when the line runs may be one.
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
	opts, operands := gitArgs(args)
	what := "git " + sub
	switch sub {
	case "merge", "pull", "rebase", "cherry-pick", "revert", "am", "sparse-checkout", "filter-branch":
		return what, true
	case "reset":
		return what, slices.ContainsFunc(opts, func(o string) bool { return o == "--hard" || o == "--merge" || o == "--keep" })
	case "read-tree":
		return what, slices.ContainsFunc(opts, func(o string) bool { return o == "-u" || o == "--reset" && slices.Contains(opts, "-u") })
	case "stash":
		if slices.Contains(args, shellcmd.Word{Kind: shellcmd.Static, Text: "--"}) {
			return "", false // "git stash push -- paths": decided by what they name
		}
		first := ""
		if len(operands) > 0 {
			first = operands[0]
		}
		switch first {
		case "list", "show", "drop", "clear", "create", "store":
			return "", false
		}
		return what, true
	case "bisect":
		if len(operands) > 0 && (operands[0] == "log" || operands[0] == "view" || operands[0] == "visualize" || operands[0] == "terms") {
			return "", false
		}
		return what, true
	case "checkout", "switch":
		if slices.Contains(args, shellcmd.Word{Kind: shellcmd.Static, Text: "--"}) {
			return "", false // paths: decided by what they name (gitRemover)
		}
		created := slices.ContainsFunc(opts, func(o string) bool {
			return o == "-b" || o == "-B" || o == "-c" || o == "-C" || o == "--create" || o == "--force-create"
		})
		// "git checkout -b new" makes a branch where HEAD is and leaves
		// the files alone; with a start point it checks that out.
		if created && len(operands) <= 1 {
			return "", false
		}
		// -f puts every tracked file back as HEAD has it.
		force := slices.ContainsFunc(opts, func(o string) bool {
			return o == "--force" || !strings.HasPrefix(o, "--") && strings.ContainsRune(o, 'f')
		})
		return what, len(operands) > 0 || force || slices.Contains(opts, "--orphan") || slices.Contains(opts, "--detach")
	}
	return "", false
}

// gitArgs splits a git subcommand's words, before "--", into options and
// operands, taking the word after -b, -B, -c, -C, --orphan, --create and
// --force-create (which name a branch) as an operand: the branch is the
// first operand, a start point the second. A word known only when the
// line runs counts as an operand.
func gitArgs(args []shellcmd.Word) (opts, operands []string) {
	for _, w := range args {
		if w.Kind == shellcmd.Static && w.Text == "--" {
			break
		}
		if w.Kind == shellcmd.Static && strings.HasPrefix(w.Text, "-") && len(w.Text) > 1 {
			opts = append(opts, w.Text)
			continue
		}
		operands = append(operands, w.Text)
	}
	return opts, operands
}

// isGit reports whether a command word runs git.
func isGit(word string) bool {
	i := strings.LastIndexByte(word, '/')
	return word[i+1:] == "git"
}
