package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git puts work-tree entries in place from what the repository holds, and
// an entry of mode 120000 is a symlink whose target is a blob's text:
// "git checkout-index l", "git clone r d", "git mv t/y l", "git checkout
// BRANCH" may make l or d/l a link to the policy, the audit log or a git
// directory's config, and no word of the line says so. A later command of
// the same line that writes by that name writes where the link leads,
// which the file system does not show when the line is decided. So a git
// command that may put entries in place, on a line whose other commands
// write or redirect into where git puts them (the clone's or new work
// tree's directory, the work tree, taken as the workspace root it lies
// beneath) or run a program the bridge cannot read, needs approval, as a
// link to a place known only when the line runs does (linkWriteVerdict).
// A git mv of sources that are plain files places no link.

// gitLeavesWorkTree are the git subcommands that put no entry in the work
// tree from the repository. A subcommand on no list (an alias, a newer
// command) is taken as one that may.
var gitLeavesWorkTree = setOf("add", "annotate", "archive", "blame", "branch", "bundle", "cat-file",
	"check-attr", "check-ignore", "check-ref-format", "cherry", "clean", "commit", "commit-tree", "config",
	"count-objects", "credential", "describe", "diff", "diff-files", "diff-index", "diff-tree", "fetch",
	"for-each-ref", "format-patch", "fsck", "gc", "grep", "hash-object", "help", "init", "log", "ls-files",
	"ls-remote", "ls-tree", "maintenance", "merge-base", "mktree", "name-rev", "notes", "prune", "push",
	"range-diff", "reflog", "remote", "repack", "rev-list", "rev-parse", "rm", "shortlog", "show",
	"show-branch", "show-ref", "status", "symbolic-ref", "tag", "update-index", "update-ref", "var",
	"verify-commit", "verify-tag", "version", "whatchanged", "write-tree")

// gitPlaced is where a git command may put work-tree entries: what it is
// ("git clone") and the directories it puts them beneath.
type gitPlaced struct {
	what  string
	areas []string
	named []string // the operands it names, as written
}

// gitPlaces reads form, run in one of dirs, as a git command that may put
// work-tree entries in place; ok is false for any other form.
func (e *Engine) gitPlaces(in *reqInfo, form []shellcmd.Word, dirs []string) (gitPlaced, bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || !isGit(form[0].Text) {
		return gitPlaced{}, false
	}
	g := shellcmd.GitOptions(form)
	if g.At >= len(form) {
		return gitPlaced{}, false
	}
	base := ""
	for _, d := range g.Dirs {
		base = joinRaw(base, d.Text)
	}
	p := gitPlaced{what: "git", areas: workTreeTops(dirs, in.roots, base)}
	if g.Moved {
		p.areas = []string{"/"} // --work-tree or --git-dir: anywhere
	}
	sub := form[g.At]
	if sub.Kind != shellcmd.Static {
		return p, true
	}
	p.what = "git " + sub.Text
	args := form[g.At+1:]
	o := shellcmd.ReadGitArgs(sub.Text, args)
	for _, w := range o.Operands {
		p.named = append(p.named, w.Text)
	}
	first := ""
	if len(o.Operands) > 0 && o.Operands[0].Kind == shellcmd.Static {
		first = o.Operands[0].Text
	}
	// dirArea makes the areas the directory the operand word names,
	// where git puts the new work tree.
	dirArea := func(w shellcmd.Word) {
		if w.Kind != shellcmd.Static || o.Computed || g.Moved {
			return // not known: the work tree's
		}
		p.areas = nil
		for _, d := range dirs {
			if base != "" {
				d = joinRaw(d, base)
			}
			p.areas = append(p.areas, e.operandPath(strings.TrimSuffix(d, "/"), w.Text))
		}
	}
	switch sub.Text {
	case "clone":
		if o.Has("bare") || o.Has("mirror") || o.Has("no-checkout") {
			return gitPlaced{}, false
		}
		switch {
		case len(o.Operands) >= 2:
			dirArea(o.Operands[1])
		case len(o.Operands) == 1 && o.Operands[0].Kind == shellcmd.Static:
			// The repository's last element, without ".git".
			n := strings.TrimSuffix(strings.TrimRight(o.Operands[0].Text, "/"), "/.git")
			n = strings.TrimSuffix(n[strings.LastIndexAny(n, "/:")+1:], ".git")
			if n != "" {
				dirArea(shellcmd.Word{Kind: shellcmd.Static, Text: n})
			}
		}
		return p, true
	case "worktree":
		switch first {
		case "list", "lock", "unlock", "prune", "remove", "repair":
			return gitPlaced{}, false
		case "add":
			// Its options ("-b NAME") are not in the table: with
			// any, the work tree's area stands.
			rest := o.Operands[1:]
			if len(rest) > 0 && !slices.ContainsFunc(rest, func(w shellcmd.Word) bool { return strings.HasPrefix(w.Text, "-") }) {
				dirArea(rest[0])
			}
		}
		return p, true
	case "mv":
		if f, _, dir, ok := gitRemover(form, "."); ok && gitMovesNoLink(f, dirs, dir) {
			return gitPlaced{}, false
		}
		return p, true
	case "reset":
		return p, o.Computed || o.Has("hard") || o.Has("merge") || o.Has("keep")
	case "read-tree":
		return p, o.Computed || o.Has("u")
	case "checkout", "switch":
		if !o.Computed && gitStartsBranchAtHead(sub.Text, o) {
			return gitPlaced{}, false
		}
		return p, true
	case "restore":
		if !(o.Computed || !o.Surely("staged") || o.Has("worktree")) {
			return gitPlaced{}, false
		}
		return p, true
	case "apply":
		return p, o.Computed || !(o.Has("cached") || o.Has("check") || o.Has("stat") || o.Has("numstat") || o.Has("summary"))
	case "stash":
		switch first {
		case "list", "show", "drop", "clear", "create", "store":
			return gitPlaced{}, false
		}
		return p, true
	case "submodule":
		switch first {
		case "status", "summary", "init", "sync", "set-url", "set-branch":
			return gitPlaced{}, false
		}
		return p, true
	case "bisect":
		switch first {
		case "log", "view", "visualize", "terms":
			return gitPlaced{}, false
		}
		return p, true
	}
	return p, !gitLeavesWorkTree[sub.Text]
}

// gitMovesNoLink reports whether a git mv form f (from "mv" on, its
// relative operands in rel, joined to each of dirs) moves only plain
// files there now: no symlink, and no directory that may hold one.
func gitMovesNoLink(f []shellcmd.Word, dirs []string, rel string) bool {
	o := shellcmd.ReadGitArgs("mv", f[1:])
	if o.Computed || len(o.Operands) < 2 {
		return false
	}
	for _, w := range o.Operands[:len(o.Operands)-1] {
		if w.Kind != shellcmd.Static {
			return false
		}
		for _, d := range dirs {
			fi, err := os.Lstat(joinRaw(joinRaw(d, rel), w.Text))
			if err != nil || !fi.Mode().IsRegular() {
				return false
			}
		}
	}
	return true
}

// gitLinkWriteVerdict decides a git command c of the line a that may put
// work-tree entries in place (gitPlaces) while another command of the
// line writes or redirects into where it puts them, or runs a program the
// bridge cannot read: that needs approval, since an entry git puts there
// may be a link to anywhere.
func (e *Engine) gitLinkWriteVerdict(in *reqInfo, a *shellcmd.Analysis, c *shellcmd.Command) (verdict, bool) {
	if len(a.Commands) < 2 {
		return verdict{}, false
	}
	dirs := e.dirsOrRoots(in, c.Dir)
	for _, form := range c.Forms {
		p, ok := e.gitPlaces(in, form, dirs)
		if !ok {
			continue
		}
		if why, hit := e.writesBeneath(in, a, c, p); hit {
			return verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %q: %s may put symlinks in %s, leading to places known only when it runs, and %s, which may write through them; run %s on its own first", strings.TrimSpace(c.Source), p.what, cleanedList(p.areas), why, p.what)}, true
		}
	}
	return verdict{}, false
}

// writesBeneath returns what the line a's commands other than c, and its
// redirections, write beneath p's areas or run that the bridge cannot
// read, in words for the reason.
func (e *Engine) writesBeneath(in *reqInfo, a *shellcmd.Analysis, c *shellcmd.Command, p gitPlaced) (string, bool) {
	for _, r := range a.Redirects {
		if !r.Write {
			continue
		}
		if r.Target.Kind == shellcmd.Dynamic {
			return fmt.Sprintf("the line redirects into %s, a name known only when it runs", r.Target.Text), true
		}
		for _, d := range e.dirsOrRoots(in, r.Dir) {
			if e.beneathAreas(in, e.operandPath(d, r.Target.Text), p.areas) {
				return fmt.Sprintf("the line redirects into %s", r.Target.Text), true
			}
		}
	}
	for _, o := range a.Commands {
		if o == c {
			continue
		}
		dirs := e.dirsOrRoots(in, o.Dir)
		for _, form := range o.Forms {
			prog := form[0]
			if prog.Kind == shellcmd.Dynamic {
				return fmt.Sprintf("the line runs %s, a program known only when it runs", prog.Text), true
			}
			if prog.Kind == shellcmd.Static && !systemProgram(prog.Text) {
				for _, d := range dirs {
					if e.beneathAreas(in, e.operandPath(d, prog.Text), p.areas) {
						return fmt.Sprintf("the line runs %s from there", prog.Text), true
					}
				}
			}
		}
		for _, w := range commandArgs(o) {
			counts := w.write || w.mayWrite && (strings.Contains(w.text, "/") || containsText(p.named, w.text))
			if !counts || w.readOnly || w.notCreated {
				continue
			}
			if w.word.Kind == shellcmd.Dynamic {
				return fmt.Sprintf("%q writes %s, a name known only when it runs", strings.TrimSpace(o.Source), w.text), true
			}
			for _, d := range dirs {
				if e.beneathAreas(in, e.operandPath(d, w.text), p.areas) {
					return fmt.Sprintf("%q writes %s", strings.TrimSpace(o.Source), w.text), true
				}
			}
		}
	}
	return "", false
}

// containsText reports whether list holds s.
func containsText(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// beneathAreas reports whether the path p, as written, cleaned or as the
// file system resolves it now, is or lies beneath one of areas (also as
// resolved). A path the bridge cannot resolve counts.
func (e *Engine) beneathAreas(in *reqInfo, p string, areas []string) bool {
	forms, r := in.pathForms(p)
	if r != nil {
		return true
	}
	forms = append([]string{p, filepath.Clean(p)}, forms...)
	for _, area := range areas {
		as, r := in.pathForms(area)
		if r != nil {
			as = nil
		}
		as = append(as, filepath.Clean(area))
		for _, a := range as {
			for _, f := range forms {
				if a == "/" || f == a || strings.HasPrefix(f, strings.TrimSuffix(a, "/")+"/") {
					return true
				}
			}
		}
	}
	return false
}

// cleanedList returns the paths cleaned, joined for a reason.
func cleanedList(paths []string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Clean(p)
	}
	return strings.Join(out, ", ")
}
