package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Not every git command that puts work-tree entries in place may put a
// symlink there. "git checkout -b NAME", "git switch -c NAME" (and -B,
// -C, --orphan) with no start point leave the work tree as HEAD has it.
// "git checkout -- PATHS" and "git restore PATHS" (no --source, no
// --staged) take each entry from the index, which the bridge reads: only
// an entry of mode 120000 beneath the pathspecs becomes a link. The line
// needs approval for them (gitLinkWriteVerdict) only when the index holds
// one there, cannot be read, or may change before they run: another
// command of the line is a git command that may write the index (git
// add, git update-index), a program the bridge cannot read, or writes
// beneath the git directory (.git/index), or the line sets a GIT_
// variable (GIT_INDEX_FILE, GIT_DIR).

// gitStartsBranchAtHead reports whether a checkout or switch (sub, its
// words read as o) only makes a branch at HEAD (or an orphan branch) and
// moves to it: a branch option with no start point, and no option that
// rewrites the work tree's changed files (--force, --merge, --conflict,
// --discard-changes, --pathspec-from-file).
func gitStartsBranchAtHead(sub string, o shellcmd.GitArgs) bool {
	creates := []string{"b", "B", "orphan"}
	if sub == "switch" {
		creates = []string{"create", "force-create", "orphan"}
	}
	made := false
	for _, c := range creates {
		made = made || len(o.Values(c)) > 0
	}
	if !made || len(o.Operands) > 0 {
		return false
	}
	for _, x := range []string{"force", "merge", "conflict", "discard-changes", "pathspec-from-file", "patch"} {
		if o.Has(x) {
			return false
		}
	}
	return true
}

// gitPathspecsOnly reports whether a checkout's words args (read as o)
// name pathspecs alone: "--" comes first of the operands, so no tree-ish
// precedes it, and no pathspec comes from a file.
func gitPathspecsOnly(args []shellcmd.Word, o shellcmd.GitArgs) bool {
	if o.Computed || !o.DashDash || o.Has("pathspec-from-file") {
		return false
	}
	for k, w := range args {
		if w.Kind == shellcmd.Static && (w.Text == "--" || w.Text == "--end-of-options") {
			before := shellcmd.ReadGitArgs("checkout", args[:k])
			return !before.Computed && len(before.Operands) == 0 && len(o.Operands) == len(args)-k-1
		}
	}
	return false
}

// joinedDirs returns each of dirs joined with base (git's -C options), or
// dirs when base is empty.
func joinedDirs(dirs []string, base string) []string {
	if base == "" {
		return dirs
	}
	out := make([]string, len(dirs))
	for i, d := range dirs {
		out[i] = joinRaw(d, base)
	}
	return out
}

// indexPlacesLinks reports whether the index a git command taking entries
// from it (p.fromIndex) reads holds a symlink beneath its pathspecs in
// any of the directories it may run in, or cannot be read there.
func indexPlacesLinks(p gitPlaced) bool {
	o := shellcmd.ReadGitArgs(p.form[0].Text, p.form[1:])
	for _, d := range p.dirs {
		r, ok := findGitRepo(d)
		if !ok || strings.Contains(r.config, "objectformat") {
			return true
		}
		set, ok := indexSymlinks(p.form, o, d)
		if !ok || len(set.entries) > 0 {
			return true
		}
	}
	return len(p.dirs) == 0
}

// gitKeepsIndex are the git subcommands that leave the index as it is.
var gitKeepsIndex = setOf("blame", "branch", "cat-file", "describe", "diff", "fetch", "grep", "log", "ls-files",
	"ls-tree", "rev-parse", "show", "status", "tag")

// indexMayChange reports whether a command of the line a other than c may
// change the index c reads before c runs, or points git at another one:
// see the comment at the top of the file.
func (e *Engine) indexMayChange(in *reqInfo, a *shellcmd.Analysis, c *shellcmd.Command) bool {
	for _, as := range a.Assignments {
		if strings.HasPrefix(strings.ToUpper(as.Name), "GIT_") {
			return true
		}
	}
	for _, o := range a.Commands {
		for _, form := range o.Forms {
			for _, w := range form {
				if strings.Contains(strings.ToUpper(w.Text), "GIT_") {
					return true // env GIT_INDEX_FILE=..., export, declare
				}
			}
		}
	}
	gitDirs := map[string]bool{}
	for _, d := range e.dirsOrRoots(in, c.Dir) {
		if r, ok := findGitRepo(d); ok {
			gitDirs[r.gitDir] = true
			gitDirs[gitCommonDir(r.gitDir)] = true
		} else {
			return true
		}
	}
	var areas []string
	for g := range gitDirs {
		areas = append(areas, g)
		if rg, err := filepath.EvalSymlinks(g); err == nil {
			areas = append(areas, rg)
		}
	}
	for _, r := range a.Redirects {
		if !r.Write {
			continue
		}
		if r.Target.Kind == shellcmd.Dynamic {
			return true
		}
		for _, d := range e.dirsOrRoots(in, r.Dir) {
			if e.beneathAreas(in, e.operandPath(d, r.Target.Text), areas) {
				return true
			}
		}
	}
	for _, o := range a.Commands {
		if o == c {
			continue
		}
		if len(o.Notes) > 0 {
			return true
		}
		for _, form := range o.Forms {
			prog := form[0]
			if prog.Kind != shellcmd.Static || !systemProgram(prog.Text) {
				return true
			}
			if isGit(prog.Text) {
				g := shellcmd.GitOptions(form)
				if g.At >= len(form) || form[g.At].Kind != shellcmd.Static || !gitKeepsIndex[form[g.At].Text] {
					return true
				}
			}
		}
		for _, d := range e.dirsOrRoots(in, o.Dir) {
			for _, w := range commandArgs(o) {
				if !(w.write || w.mayWrite) || w.readOnly {
					continue
				}
				if w.word.Kind == shellcmd.Dynamic || e.beneathAreas(in, e.operandPath(d, w.text), areas) {
					return true
				}
			}
		}
	}
	return false
}
