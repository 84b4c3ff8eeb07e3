package governance

import (
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git reads files by pathspecs, which git matches itself: "*" matches
// across directories and dot files ("git grep SECRET -- '*'" reads
// .env), "[.]env" and ":(icase).ENV" name .env, ":/" is the top of the
// work tree and ":!x" everything but x. And git adds files to its object
// store by a directory, or by no name at all ("git add -A"), from where
// "git diff --cached" or "git show" print them without naming them. Such
// commands are decided as reading every file beneath the directories
// their pathspecs reach.

// gitTreeRead returns what a git command reads whole: "git grep" every
// file beneath its pathspecs (tracked or not, whatever --no-index says:
// a tracked secret is read as surely as an untracked one); "git add" and
// "git stash -u" every file they may put into the object store.
func gitTreeRead(form []shellcmd.Word) (treeRead, bool) {
	if base, i, ok := gitSubcommand(form, "grep"); ok {
		r, _ := searchRead("git grep", form[i:], gitGrepOpts, false)
		r.base = base
		r.dirs, r.top = gitPathspecDirs(r.dirs)
		return r, true
	}
	for _, sub := range []string{"add", "stage"} {
		if base, i, ok := gitSubcommand(form, sub); ok {
			return gitAddRead(form[i:], base)
		}
	}
	if base, i, ok := gitSubcommand(form, "stash"); ok {
		return gitStashRead(form[i:], base)
	}
	return treeRead{}, false
}

// gitAddRead reads "git add": the files beneath its pathspecs, or the
// whole work tree for -A (--all, --no-ignore-removal) with none. -u
// (--update) adds only files git already tracks, which it reads from the
// work tree whatever else it names, so it is no new reading of a file the
// object store did not hold. -N (--intent-to-add) reads nothing, but makes
// "git diff" print the whole file: it counts as adding.
func gitAddRead(form []shellcmd.Word, base string) (treeRead, bool) {
	o := shellcmd.ReadGitArgs("add", form[1:])
	all := o.Has("all") || o.HasNo("ignore-removal")
	update := o.Surely("update") || o.Surely("renormalize")
	var specs []string
	unknown := o.Computed
	for _, w := range o.Operands {
		specs = append(specs, w.Text)
		unknown = unknown || w.Kind != shellcmd.Static && w.Kind != shellcmd.Glob
	}
	if update && !all {
		return treeRead{}, false
	}
	r := treeRead{reader: "git " + form[0].Text, base: base}
	if unknown {
		r.dirs, r.top = []string{"."}, true
		return r, true
	}
	if len(specs) == 0 {
		if !all {
			return treeRead{}, false // "Nothing specified, nothing added."
		}
		specs = []string{":/"}
	}
	r.dirs, r.top = gitPathspecDirs(specs)
	return r, true
}

// gitStashRead reads "git stash push -u" (or -a, or "save"): every
// untracked file of the work tree, or beneath its pathspecs, goes into
// the stash, where "git stash show -p --include-untracked" prints it.
func gitStashRead(form []shellcmd.Word, base string) (treeRead, bool) {
	save, args, ok := gitStashUntrackedArgs(form)
	if !ok {
		return treeRead{}, false
	}
	var specs []string
	for _, w := range shellcmd.ReadGitArgs("stash push", args).Operands {
		specs = append(specs, w.Text)
	}
	if save || len(specs) == 0 {
		specs = []string{":/"} // save's words are its message
	}
	r := treeRead{reader: "git stash", base: base}
	r.dirs, r.top = gitPathspecDirs(specs)
	return r, true
}

// gitPathspecDirs returns the names git's pathspecs specs reach, for a
// walk: a plain name as it is (a file, or a directory git reads beneath);
// a name with a wildcard or a backslash, which git matches itself, as the
// directory before its first wildcard ("src/*.env" reads all of src, "*"
// all of the cwd); one with ":" magic as the cwd, or as the top of the
// work tree (top true) when its magic is ":/" or ":(top)", which then
// holds every other name too.
func gitPathspecDirs(specs []string) (dirs []string, top bool) {
	for _, s := range specs {
		if !strings.HasPrefix(s, ":") {
			continue
		}
		magic := s[1:]
		if strings.HasPrefix(magic, "(") {
			words, _, _ := strings.Cut(magic[1:], ")")
			for _, m := range strings.Split(words, ",") {
				top = top || strings.TrimSpace(m) == "top"
			}
			continue
		}
		for _, c := range magic {
			if c == '/' {
				top = true
			}
			if !strings.ContainsRune("/!^", c) {
				break
			}
		}
	}
	if top {
		return []string{"."}, true
	}
	for _, s := range specs {
		switch i := strings.IndexAny(s, "*?[\\"); {
		case strings.HasPrefix(s, ":"):
			dirs = append(dirs, ".")
		case i >= 0:
			dir := "."
			if j := strings.LastIndexByte(s[:i], '/'); j > 0 {
				dir = s[:j]
			}
			dirs = append(dirs, dir)
		default:
			dirs = append(dirs, s)
		}
	}
	return dirs, false
}

// workTreeTops returns the directories the top of the work tree may be
// for a git command run in one of bases (after its -C directories base):
// the workspace root each lies beneath, which holds every directory from
// it up to that root, or "/" for one beneath no root.
func workTreeTops(bases, roots []string, base string) []string {
	var tops []string
	for _, b := range bases {
		if base != "" {
			b = joinRaw(b, base)
		}
		if t := workTreeTop(b, roots); !slices.Contains(tops, t) {
			tops = append(tops, t)
		}
	}
	return tops
}
