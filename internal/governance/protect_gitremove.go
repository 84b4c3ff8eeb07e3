package governance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitRemovers are the git subcommands that delete, move or replace the
// work-tree files their pathspecs name, and the program each is decided
// as: "git mv audit old" moves the audit log as "mv audit old" does, and
// "git checkout -- audit" or "git restore audit" puts the index's (or
// another commit's) files in place of everything beneath audit, as
// "git checkout-index -f -a" does for every file the index holds.
var gitRemovers = [...]struct{ sub, as string }{{"mv", "mv"}, {"rm", "rm"}, {"checkout", "rm"}, {"restore", "rm"}, {"checkout-index", "rm"}}

// gitRemover returns the form of a git subcommand of gitRemovers from the
// subcommand on, the program it is decided as, and the directory its
// pathspecs are relative to (cwd, or where git's -C options lead); ok is
// false for any other git command. "git rm --cached" and "git restore
// --staged" without --worktree, given before "--", leave the work tree
// alone. Their options are read as git reads them (ReadGitArgs: "--ca"
// is --cached, "-af" holds -a). Every operand of checkout is taken for
// a path, a branch's name too.
func gitRemover(form []shellcmd.Word, cwd string) ([]shellcmd.Word, string, string, bool) {
	for _, g := range gitRemovers {
		base, at, ok := gitSubcommand(form, g.sub)
		if !ok {
			continue
		}
		o := shellcmd.ReadGitArgs(g.sub, form[at+1:])
		if g.sub == "rm" && o.Surely("cached") {
			return nil, "", "", false
		}
		if g.sub == "restore" && o.Surely("staged") && !o.Has("worktree") {
			return nil, "", "", false
		}
		all := g.sub == "checkout-index" && o.Has("all")
		if base != "" {
			cwd = joinRaw(cwd, base)
		}
		if all {
			// Every file of the index below the directory git runs
			// in (git limits -a to it).
			return append(slices.Clip(form[at:]), shellcmd.Word{Kind: shellcmd.Static, Text: "."}), g.as, cwd, true
		}
		return form[at:], g.as, cwd, true
	}
	return nil, "", "", false
}

// gitPathspecReaches denies a git mv or rm whose pathspec git expands
// itself (a wildcard, which matches across directories, or ":" magic such
// as ":(icase)" or ":/") while a protected location lies beneath the
// directory it runs in: which files the pattern picks is git's reading,
// not the shell's, and the bridge does not compute it.
func gitPathspecReaches(form []shellcmd.Word, cwd, source string, list []protected) (verdict, bool) {
	var spec string
	for _, w := range form[1:] {
		if w.Kind == shellcmd.Static && !strings.HasPrefix(w.Text, "-") && (strings.ContainsAny(w.Text, "*?[") || strings.HasPrefix(w.Text, ":")) {
			spec = w.Text
			break
		}
	}
	if spec == "" {
		return verdict{}, false
	}
	top := []string{cwd}
	if strings.HasPrefix(spec, ":") {
		top = []string{"/"} // ":/" names the repository's top, wherever that is
	}
	if pr, f, ok := holds(top, list); ok {
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: fmt.Sprintf("deny commands that delete, move or change %s (built-in self-protection)", pr.What),
			reason: fmt.Sprintf("running %q: git %s expands the pathspec %s itself, and %s holds %s (%s), protected from the agent whatever the policy says; name the files instead", strings.TrimSpace(source), form[0].Text, spec, cwd, pr.What, f)}, true
	}
	return verdict{}, false
}
