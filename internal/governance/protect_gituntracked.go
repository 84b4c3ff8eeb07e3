package governance

import (
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git takes away untracked files it is not given by name: "git clean -f"
// deletes every untracked file beneath the directory it runs in, and
// "git stash -u" (or -a) moves every untracked file of the work tree into
// the stash, deleting it from the tree. A governance policy or an audit
// log that was never committed is such a file. Each is decided as "rm" of
// its pathspecs, or of the directory it empties when it names none.

// gitUntrackedRemover returns the form of "git clean" or "git stash -u"
// from the subcommand on, with "." added when it names no pathspec, and
// the directory that "." is: cwd (or where git's -C options lead) for
// clean, the top of the work tree for stash, taken as the workspace root
// holding cwd (every directory up to it may be the top) or "/" when cwd
// lies beneath none. ok is false for any other git command, and for
// "git clean -n", which deletes nothing.
func gitUntrackedRemover(form []shellcmd.Word, cwd string, roots []string) ([]shellcmd.Word, string, bool) {
	if base, at, ok := gitSubcommand(form, "clean"); ok {
		if gitCleanDryRun(form[at+1:]) {
			return nil, "", false
		}
		return pathspecsOrAll(form[at:], "clean"), joinRaw(cwd, base), true
	}
	base, at, ok := gitSubcommand(form, "stash")
	if !ok {
		return nil, "", false
	}
	save, args, ok := gitStashUntrackedArgs(form[at:])
	if !ok {
		return nil, "", false
	}
	if save {
		args = nil // save's words are its message, and it stashes the whole tree
	}
	return pathspecsOrAll(append([]shellcmd.Word{form[at]}, args...), "stash push"), workTreeTop(joinRaw(cwd, base), roots), true
}

// pathspecsOrAll returns form (a git subcommand and its words, read with
// the options of sub) with "." added unless the words name a pathspec; a
// word known only at run time counts as one.
func pathspecsOrAll(form []shellcmd.Word, sub string) []shellcmd.Word {
	if len(shellcmd.ReadGitArgs(sub, form[1:]).Operands) > 0 {
		return form
	}
	return append(slices.Clip(form), shellcmd.Word{Kind: shellcmd.Static, Text: "."})
}

// gitCleanDryRun reports whether git clean's options hold -n or
// --dry-run (or a prefix git takes, "--dry"), and not -f after it: it
// then lists what it would delete and deletes nothing. A word known only
// at run time may be anything, so it is no dry run.
func gitCleanDryRun(args []shellcmd.Word) bool {
	return shellcmd.ReadGitArgs("clean", args).Surely("dry-run")
}

// gitStashUntrackedArgs reads "git stash" from the subcommand on: ok is
// true when it stashes untracked files (push, or save, with -u or -a),
// with the words after push or save, and save true for save.
func gitStashUntrackedArgs(form []shellcmd.Word) (save bool, args []shellcmd.Word, ok bool) {
	args = form[1:]
	sub := "push"
	if len(args) > 0 && args[0].Kind == shellcmd.Static && !strings.HasPrefix(args[0].Text, "-") {
		sub, args = args[0].Text, args[1:]
	}
	if sub != "push" && sub != "save" || !gitStashUntracked(args) {
		return false, nil, false
	}
	return sub == "save", args, true
}

// gitStashUntracked reports whether git stash push's options may hold
// -u, -a, --include-untracked or --all (in a cluster, "-qu", or by a
// prefix git takes, "--include-u"): untracked files go into the stash. A
// word known only at run time may be one of them.
func gitStashUntracked(args []shellcmd.Word) bool {
	o := shellcmd.ReadGitArgs("stash push", args)
	return o.Has("include-untracked") || o.Has("all")
}

// workTreeTop returns the directory the top of the work tree holding dir
// is decided as: the workspace root dir lies beneath (the deepest), which
// holds every directory the top may be, or "/" when it lies beneath none.
func workTreeTop(dir string, roots []string) string {
	tops, unknown := topCandidates(roots, []string{dir})
	if unknown || len(tops) == 0 {
		return "/"
	}
	return tops[len(tops)-1]
}
