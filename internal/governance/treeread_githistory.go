package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git prints the files it tracks from its objects, by no name on the
// line: "git show", "git log -p", "git diff HEAD~3", "git grep x HEAD",
// "git format-patch -1 --stdout", "git fast-export --all" and "git
// archive HEAD" print a committed .env as "git show HEAD:.env" does. Such
// commands are decided as reading every file the index holds, each by
// its place in the work tree: a tracked file a rule denies reading
// refuses them as "cat" of that file would.

// gitHistoryReaders are the git subcommands that print the content of
// tracked files without naming them: whatever their options, but for
// the log family ("git log --oneline", logListsCommits).
var gitHistoryReaders = setOf("show", "log", "whatchanged", "reflog", "diff", "diff-tree", "diff-index",
	"diff-files", "format-patch", "fast-export", "archive", "bundle", "cat-file", "range-diff",
	"request-pull", "difftool", "grep", "blame", "annotate")

// gitPrint is a git command that prints tracked files: the directory its
// -C options name, and for "git clone" the local repository it copies
// (src, relative to that directory; computed when the line computes it).
type gitPrint struct {
	base, src string
	computed  bool
}

// gitHistoryRead reports whether form is a git command that prints
// tracked files from git's objects (gitHistoryReaders; "git stash show"
// and "git stash list", which print a stash's patch; "git worktree add",
// which checks out a commit's files elsewhere; "git clone" of a local
// repository, which checks them out from there).
func gitHistoryRead(form []shellcmd.Word) (gitPrint, bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "git" {
		return gitPrint{}, false
	}
	sub := gitSubcommandName(form)
	if sub == "" {
		return gitPrint{}, false
	}
	base, at, _ := gitSubcommand(form, sub)
	switch {
	case (sub == "log" || sub == "whatchanged" || sub == "reflog") && logListsCommits(sub, form[at+1:]):
		return gitPrint{}, false
	case gitHistoryReaders[sub]:
		return gitPrint{base: base}, true
	case sub == "clone":
		o := shellcmd.ReadGitArgs("clone", form[at+1:])
		if len(o.Operands) == 0 {
			return gitPrint{}, false
		}
		src := o.Operands[0]
		if src.Kind == shellcmd.Dynamic {
			return gitPrint{base: base, computed: true}, true
		}
		path, ok := localCloneSource(src.Text)
		return gitPrint{base: base, src: path}, ok
	case sub == "stash" || sub == "worktree":
		if at+1 >= len(form) {
			return gitPrint{}, false // "git stash" pushes; "git worktree" alone prints its usage
		}
		next := form[at+1].Text
		if form[at+1].Kind != shellcmd.Static {
			return gitPrint{base: base}, true
		}
		if sub == "stash" && (next == "push" || strings.HasPrefix(next, "-")) {
			args := form[at+1:]
			if next == "push" {
				args = form[at+2:]
			}
			return gitPrint{base: base}, shellcmd.ReadGitArgs("stash push", args).Has("patch")
		}
		return gitPrint{base: base}, sub == "stash" && (next == "show" || next == "list") || sub == "worktree" && next == "add"
	case sub == "add" || sub == "checkout" || sub == "reset" || sub == "restore":
		o := shellcmd.ReadGitArgs(sub, form[at+1:])
		return gitPrint{base: base}, o.Has("patch") || sub == "add" && (o.Has("interactive") || o.Has("edit"))
	case sub == "commit" || sub == "status":
		return gitPrint{base: base}, showsDiff(form[at+1:])
	case gitPrintsNoFile[sub]:
		return gitPrint{}, false
	}
	// An alias ("lg = log -p" in the person's configuration) or a
	// subcommand the bridge does not know may print them.
	return gitPrint{base: base}, true
}

// gitPrintsNoFile are the git subcommands that print no tracked file's
// content (those of them that may with an option are decided above).
var gitPrintsNoFile = setOf("am", "apply", "bisect", "branch", "check-attr", "check-ignore",
	"check-ref-format", "checkout-index", "cherry", "cherry-pick", "clean", "commit-tree", "config",
	"count-objects", "credential", "describe", "fetch", "for-each-ref", "fsck", "gc", "hash-object", "help",
	"init", "ls-files", "ls-remote", "ls-tree", "maintenance", "merge", "merge-base", "merge-tree", "mktree",
	"mv", "name-rev", "notes", "prune", "pull", "push", "read-tree", "rebase", "remote", "repack", "replace",
	"rerere", "revert", "rev-list", "rev-parse", "rm", "shortlog", "show-branch", "show-ref", "sparse-checkout",
	"submodule", "switch", "symbolic-ref", "tag", "update-index", "update-ref", "var", "verify-commit",
	"verify-tag", "version", "write-tree")

// showsDiff reports whether the words of "git commit" or "git status"
// (which git's option table of the bridge does not hold) may make it
// print a diff: -v or -p in a cluster of short options, a long option
// that may abbreviate --verbose, --patch or --interactive, or a word
// known only at run time.
func showsDiff(args []shellcmd.Word) bool {
	for _, w := range args {
		t := w.Text
		switch {
		case w.Kind == shellcmd.Dynamic:
			return true
		case t == "--":
			return false
		case strings.HasPrefix(t, "--"):
			name, _, _ := strings.Cut(t[2:], "=")
			for _, long := range []string{"verbose", "patch", "interactive"} {
				if name != "" && strings.HasPrefix(long, name) {
					return true
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			// A value-taking short option (-m, -F, -C, -c) ends the cluster.
			if i := strings.IndexAny(t[1:], "mFCcSt"); i >= 0 {
				t = t[:i+1]
			}
			if strings.ContainsAny(t[1:], "vp") {
				return true
			}
		}
	}
	return false
}

// localCloneSource returns the directory a clone source names on this
// machine: a path, or a file:// URL's; ok is false for a remote one
// ("https://...", "host:path").
func localCloneSource(s string) (string, bool) {
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		return rest, true
	}
	if strings.Contains(s, "://") {
		return "", false
	}
	if i := strings.IndexByte(s, ':'); i >= 0 && !strings.Contains(s[:i], "/") {
		return "", false // scp-like host:path
	}
	return s, true
}

// trackedReadVerdict decides a git command that prints tracked files
// (gitHistoryRead) run in one of bases: every path the index of the
// repository git finds there holds is decided as a file read, and the
// first a rule refuses decides the command. A repository whose index the
// bridge cannot read is asked about.
func (e *Engine) trackedReadVerdict(in *reqInfo, form []shellcmd.Word, bases []string, gp gitPrint, budget *int) (verdict, bool) {
	if gp.computed {
		return verdict{value: RequireApproval, ref: "unreadable-command",
			ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
			reason: fmt.Sprintf("%s copies the files git tracks in a repository the line computes, which the bridge cannot check against the policy", gitReader(form))}, true
	}
	var worst strictest
	for _, b := range bases {
		if gp.base != "" {
			b = joinRaw(b, gp.base)
		}
		if gp.src != "" {
			b = joinRaw(b, gp.src)
		}
		r, ok := findGitRepo(b)
		if !ok {
			continue // no repository git could print from
		}
		t, ok := loadGitTracked(b)
		if _, err := os.Lstat(filepath.Join(r.gitDir, "index")); !ok && errors.Is(err, fs.ErrNotExist) {
			continue // a new repository's index, empty until a file is added
		}
		if !ok {
			return verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("%s prints the files git tracks in %s, whose index the bridge cannot read to check them against the policy", gitReader(form), b)}, true
		}
		worst.keepIf(e.walkTracked(in, form, t, budget))
	}
	return worst.result()
}

// walkTracked decides each path the index t holds as a file read by form.
func (e *Engine) walkTracked(in *reqInfo, form []shellcmd.Word, t *gitTracked, budget *int) (verdict, bool) {
	sub := *in
	sub.read, sub.write, sub.command = true, false, false
	sub.defaultLast = true
	var scratch []string
	rels := make([]string, 0, len(t.paths))
	for rel := range t.paths {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	for _, rel := range rels {
		*budget--
		if *budget < 0 {
			return verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("%s prints the files git tracks in %s, too many to check (more than %d) for files the policy denies reading", gitReader(form), t.top, maxTreeEntries)}, true
		}
		p := filepath.Join(t.top, rel)
		v := e.decidePath(&sub, p, &scratch)
		if r, ok := e.ruledBeyondRoots(&sub, p, v); ok {
			v = r
		}
		if v.value == Allow || v.ref == "default" || v.ref == "workspace-roots" {
			continue
		}
		v.reason = fmt.Sprintf("%s prints the files git tracks in %s from its objects, %s among them: %s", gitReader(form), t.top, rel, v.reason)
		return v, true
	}
	return verdict{}, false
}

// gitReader names form's git subcommand for a reason: "git log".
func gitReader(form []shellcmd.Word) string {
	return "git " + gitSubcommandName(form)
}

// gitIndexDroppers are the git subcommands that may take a file out of
// the index ("git rm --cached .env", "git read-tree --empty", "git mv
// .env x", "git update-index --force-remove", "git reset" to a commit
// without it), after which the index no longer shows the history
// printers a committed secret their commits still hold.
var gitIndexDroppers = setOf("rm", "mv", "read-tree", "update-index", "reset")

// indexDropVerdict asks about a git command that may take files out of
// the index (gitIndexDroppers) while the index holds one a rule refuses
// reading: the person is told which.
func (e *Engine) indexDropVerdict(in *reqInfo, form []shellcmd.Word, bases []string, budget *int) (verdict, bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "git" {
		return verdict{}, false
	}
	sub := gitSubcommandName(form)
	if !gitIndexDroppers[sub] {
		return verdict{}, false
	}
	base, _, _ := gitSubcommand(form, sub)
	v, ok := e.trackedReadVerdict(in, form, bases, gitPrint{base: base}, budget)
	if !ok || v.value == Allow {
		return verdict{}, false
	}
	return verdict{value: RequireApproval, ref: "unreadable-command",
		ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: fmt.Sprintf("%s may take files out of git's index, which holds a file the policy refuses reading (%s); the commits that hold it stay, and git show or git log -p print them once the index no longer shows it", gitReader(form), v.reason)}, true
}

// logSafeOptions are the options of git log, whatchanged and reflog that
// choose, filter, order or describe commits without printing a file's
// content; the value-taking ones among them (logValueOptions) may give
// their value in the next word. A patch option (-p, -u, -U, --patch,
// --cc, -c, -m, --word-diff, -L, --ext-diff, ...) is not among them.
var logSafeOptions = setOf("--oneline", "--graph", "--decorate", "--no-decorate", "--all", "--branches", "--tags",
	"--remotes", "--stat", "--shortstat", "--numstat", "--dirstat", "--name-only", "--name-status", "--summary",
	"--raw", "--format", "--pretty", "--abbrev-commit", "--no-abbrev-commit", "--abbrev", "--date", "--relative-date",
	"--reverse", "--no-merges", "--merges", "--first-parent", "--topo-order", "--date-order", "--author-date-order",
	"--max-count", "--skip", "--since", "--after", "--until", "--before", "--author", "--committer", "--grep",
	"--all-match", "--invert-grep", "--regexp-ignore-case", "--left-right", "--boundary", "--cherry-pick",
	"--cherry-mark", "--no-walk", "--ancestry-path", "--simplify-by-decoration", "--source", "--color",
	"--no-color", "--log-size", "--follow", "--no-patch", "--no-renames", "--find-renames", "--mailmap",
	"--use-mailmap", "--show-signature", "--walk-reflogs", "--full-history", "--dense", "--sparse",
	"--simplify-merges", "--not", "--no-expand-tabs", "--expand-tabs", "--parents", "--children", "--clear-decorations")

// logValueOptions are the options among logSafeOptions, and the short
// ones, that take a value in the next word when none is attached.
var logValueOptions = setOf("-n", "--max-count", "--skip", "--since", "--after", "--until", "--before", "--author",
	"--committer", "--grep", "-S", "-G")

// logListsCommits reports whether git log, whatchanged or reflog (sub)
// with args prints commits without a file's content: every option word
// is a whole option of logSafeOptions (with its value attached or after
// it), a count (-5, -n5), a pickaxe filter (-S x, -G x, which print no
// patch without -p), or a cluster of -i, -z, -s, -g; every other word a
// revision or path. Anything else, or a word known only at run time,
// may print patches. whatchanged without options prints raw changes,
// reflog's "show" is git log -g.
func logListsCommits(sub string, args []shellcmd.Word) bool {
	if sub == "reflog" && len(args) > 0 && args[0].Kind == shellcmd.Static {
		switch args[0].Text {
		case "show":
			args = args[1:]
		case "expire", "delete", "exists", "list", "drop":
			return true
		}
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.Text
		switch {
		case w.Kind != shellcmd.Static:
			return false
		case t == "--":
			return true
		case !strings.HasPrefix(t, "-") || t == "-":
			continue // a revision or a path
		}
		name, _, attached := strings.Cut(t, "=")
		switch {
		case logSafeOptions[name]:
			if !attached && logValueOptions[name] {
				i++
			}
		case strings.Trim(t[1:], "0123456789") == "" && len(t) > 1: // -5
		case logValueOptions[t[:2]] && !strings.HasPrefix(t, "--"): // -n 5, -n5, -S x, -Sx
			if len(t) == 2 {
				i++
			}
		case !strings.HasPrefix(t, "--") && strings.Trim(t[1:], "izsg") == "":
		default:
			return false
		}
	}
	return true
}
