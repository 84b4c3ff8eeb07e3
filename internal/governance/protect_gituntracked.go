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
		return pathspecsOrAll(form[at:], gitCleanValue), joinRaw(cwd, base), true
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
	return pathspecsOrAll(append([]shellcmd.Word{form[at]}, args...), gitStashValue), workTreeTop(joinRaw(cwd, base), roots), true
}

// pathspecsOrAll returns form with "." added unless one of its words past
// the options (value reports an option that takes the next word) is a
// pathspec; a word known only at run time counts as one.
func pathspecsOrAll(form []shellcmd.Word, value func(opt string) bool) []shellcmd.Word {
	for i := 1; i < len(form); i++ {
		w := form[i]
		switch {
		case w.Kind != shellcmd.Static:
			return form
		case w.Text == "--":
			if i+1 < len(form) {
				return form
			}
		case strings.HasPrefix(w.Text, "-") && len(w.Text) > 1:
			if value(w.Text) {
				i++
			}
		default:
			return form
		}
	}
	return append(slices.Clip(form), shellcmd.Word{Kind: shellcmd.Static, Text: "."})
}

// gitCleanValue reports a git clean option word whose value is the next
// word: -e and --exclude, alone or ending a cluster of letters.
func gitCleanValue(opt string) bool {
	if opt == "--exclude" {
		return true
	}
	if strings.HasPrefix(opt, "--") {
		return false
	}
	i := strings.IndexByte(opt, 'e')
	return i == len(opt)-1
}

// gitStashValue reports a git stash push option word whose value is the
// next word: -m and --message, alone or ending a cluster.
func gitStashValue(opt string) bool {
	if opt == "--message" || opt == "--pathspec-from-file" {
		return true
	}
	if strings.HasPrefix(opt, "--") {
		return false
	}
	i := strings.IndexByte(opt, 'm')
	return i == len(opt)-1
}

// gitCleanDryRun reports whether git clean's options hold -n or
// --dry-run: it then lists what it would delete and deletes nothing. A
// word known only at run time may be anything, so it is no dry run.
func gitCleanDryRun(args []shellcmd.Word) bool {
	o := readGitOptions(args, gitCleanValue, 'e')
	return !o.computed && (slices.Contains(o.longs, "dry-run") || strings.ContainsRune(o.letters, 'n'))
}

// gitOptionSet is what a git subcommand's option words before "--" say:
// the long options' names (without "--" and any "=value") and the short
// options' letters, a cluster's letters after the one that takes a value
// being that value, not options; computed is true when a word is known
// only when the line runs.
type gitOptionSet struct {
	longs    []string
	letters  string
	computed bool
}

// readGitOptions reads args, the words after a git subcommand; value
// reports an option word whose value is the next word, and valueLetter is
// the short option whose value is the rest of its cluster.
func readGitOptions(args []shellcmd.Word, value func(opt string) bool, valueLetter byte) gitOptionSet {
	var o gitOptionSet
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Kind != shellcmd.Static {
			o.computed = true
			continue
		}
		t := w.Text
		switch {
		case t == "--":
			return o
		case strings.HasPrefix(t, "--"):
			name, _, hasValue := strings.Cut(t[2:], "=")
			o.longs = append(o.longs, name)
			if !hasValue && value(t) {
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			letters, _, _ := strings.Cut(t[1:], string(valueLetter))
			o.letters += letters
			if value(t) {
				i++
			}
		}
	}
	return o
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

// gitStashUntracked reports whether git stash push's options hold -u,
// -a, --include-untracked or --all (or a prefix of them git takes, such
// as --include-u): untracked files go into the stash. A word known only at
// run time may be one of them.
func gitStashUntracked(args []shellcmd.Word) bool {
	o := readGitOptions(args, gitStashValue, 'm')
	if o.computed || strings.ContainsAny(o.letters, "ua") {
		return true
	}
	return slices.ContainsFunc(o.longs, func(name string) bool {
		return name != "" && (strings.HasPrefix("include-untracked", name) || strings.HasPrefix("all", name))
	})
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
