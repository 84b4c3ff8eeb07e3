package governance

import (
	"fmt"
	"os"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitPlacers are the git subcommands that write a repository's files into
// a directory the line names: "git clone REPO [DIR]" (DIR defaults to
// REPO's own name), "git worktree add PATH" and "git submodule add REPO
// [PATH]". What those files are is decided by the repository, which the
// agent may have prepared: "git clone evil .claude" makes Claude's
// settings the repository's settings.json.
var gitPlacers = [...]string{"clone", "worktree", "submodule"}

// gitPlacesProtected denies a git subcommand of gitPlacers when one of its
// operands, or the name git would give a clone of it, is, holds or lies
// beneath a protected location: that is where git may put files. An
// operand that is an existing file or a directory with entries is not a
// place git writes into (it refuses both), but a source.
func (e *Engine) gitPlacesProtected(in *reqInfo, list []protected, form []shellcmd.Word, cwd, source string) (verdict, bool) {
	var base string
	at, ok := 0, false
	for _, sub := range gitPlacers {
		if base, at, ok = gitSubcommand(form, sub); ok {
			break
		}
	}
	if !ok {
		return verdict{}, false
	}
	if base != "" {
		cwd = joinRaw(cwd, base)
	}
	for _, w := range form[at+1:] {
		if w.Kind != shellcmd.Static || w.Text == "" || strings.HasPrefix(w.Text, "-") {
			continue
		}
		for _, name := range []string{w.Text, cloneName(w.Text)} {
			if name == "" {
				continue
			}
			made := joinRaw(cwd, name)
			if filled(made) {
				continue
			}
			if pr, f, ok := in.pathMatch(made, list, placedAt); ok {
				return verdict{value: Deny, ref: "self-protection",
					ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
					reason: fmt.Sprintf("running %q: git may put a repository's files at %s, where %s (%s) is or lies beneath, and what they are is the repository's to say; %s is protected from the agent whatever the policy says", strings.TrimSpace(source), made, f, pr.What, pr.What)}, true
			}
		}
	}
	return verdict{}, false
}

// cloneName is the directory "git clone" makes for repo when the line
// names none: its last element without a "/.git" or ".git" at the end.
func cloneName(repo string) string {
	r := strings.TrimRight(repo, "/")
	r = strings.TrimSuffix(r, "/.git")
	r = strings.TrimSuffix(r, ".git")
	r = strings.TrimRight(r, "/")
	if i := strings.LastIndexAny(r, "/:"); i >= 0 {
		r = r[i+1:]
	}
	if r == "." || r == ".." {
		return ""
	}
	return r
}

// filled reports whether p is a file, or a directory with an entry.
func filled(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if !fi.IsDir() {
		return true
	}
	f, err := openDir(p)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) > 0
}
