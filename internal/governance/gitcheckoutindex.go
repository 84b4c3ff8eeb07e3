package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git checkout-index --prefix=P writes each file it checks out at P
// followed by the file's path from the top of the work tree, that path
// read from the top however the command names it: "cd src &&
// git checkout-index --prefix=G ../OVERNANCE.md" writes GOVERNANCE.md at
// the top, "--prefix=.gi t/hooks/pre-commit" writes .git/hooks/pre-commit.
// The prefix is joined as a string, not as a directory; with -a the
// files are every one the index holds beneath the directory git runs in.

// maxCheckoutIndexWrites bounds the files one checkout-index with a
// prefix is decided as writing; past it the command is asked about.
const maxCheckoutIndexWrites = 20000

// checkoutIndexWrites returns the files git checkout-index writes when
// given a --prefix: form is the command from the subcommand on (its globs
// expanded), run in cwd. prefixed is false without a prefix (the files
// are then its operands, written in place). ok is false when the bridge
// cannot tell which files: a prefix or an operand known only when the
// line runs, an index it cannot read, or more than
// maxCheckoutIndexWrites of them; the caller asks the person.
func checkoutIndexWrites(form []shellcmd.Word, cwd string) (paths []string, prefixed, ok bool) {
	if len(form) == 0 {
		return nil, false, true
	}
	o := shellcmd.ReadGitArgs("checkout-index", form[1:])
	v := o.Values("prefix")
	if o.Computed {
		return nil, true, false // "--prefix=$P", or a word that may be one
	}
	if len(v) == 0 || v[len(v)-1].Kind == shellcmd.Static && v[len(v)-1].Text == "" {
		return nil, false, true
	}
	prefix := v[len(v)-1]
	if prefix.Kind != shellcmd.Static {
		return nil, true, false
	}
	top, rel := checkoutIndexTop(cwd)
	// Not cleaned: "L/.." is where the link L leads, then up, as the
	// kernel walks it; the decision resolves it so.
	put := func(p string) { paths = append(paths, joinRaw(top, prefix.Text+p)) }
	if o.Has("all") {
		t, ok := loadGitTracked(cwd)
		if !ok {
			// A repository with no index yet tracks nothing.
			if r, found := findGitRepo(cwd); found {
				if _, err := os.Lstat(filepath.Join(r.gitDir, "index")); os.IsNotExist(err) {
					return nil, true, true
				}
			}
			return nil, true, false
		}
		for p := range t.paths {
			if rel == "." || strings.HasPrefix(p, rel+"/") {
				if len(paths) == maxCheckoutIndexWrites {
					return nil, true, false
				}
				put(p)
			}
		}
		return paths, true, true
	}
	for _, w := range o.Operands {
		if w.Kind != shellcmd.Static {
			return nil, true, false
		}
		p := filepath.Clean(rel + "/" + w.Text)
		if filepath.IsAbs(w.Text) {
			if r, err := filepath.Rel(top, filepath.Clean(w.Text)); err == nil {
				p = r
			}
		}
		put(p)
	}
	return paths, true, true
}

// checkoutIndexTop returns the top of the work tree git finds from cwd,
// spelt as cwd is when cwd lies beneath it ("/ws" for "/ws/src"), and
// cwd's path from there ("src", "." at the top). Without a repository
// (git then fails) the top is cwd itself.
func checkoutIndexTop(cwd string) (top, rel string) {
	cwd = filepath.Clean(cwd)
	r, ok := findGitRepo(cwd)
	if !ok {
		return cwd, "."
	}
	rel, err := filepath.Rel(r.top, resolvedDir(cwd))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return cwd, "."
	}
	if rel == "." {
		return cwd, "."
	}
	if t, cut := strings.CutSuffix(cwd, "/"+rel); cut {
		return t, rel
	}
	return r.top, rel
}

// prefixedWritesReach denies git checkout-index with a --prefix when a
// file it writes (checkoutIndexWrites) is or lies beneath a protected
// location: "--prefix=.gi t/hooks/pre-commit" writes a hook git runs.
func prefixedWritesReach(in *reqInfo, list []protected, paths []string, source string) (verdict, bool) {
	for _, p := range paths {
		if pr, f, ok := in.pathMatch(p, list, holds); ok {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: fmt.Sprintf("deny commands that delete, move or change %s (built-in self-protection)", pr.What),
				reason: fmt.Sprintf("running %q: git checkout-index writes %s, which is %s (%s), protected from the agent whatever the policy says", strings.TrimSpace(source), p, pr.What, f)}, true
		}
	}
	return verdict{}, false
}
