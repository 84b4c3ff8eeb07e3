package governance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A command changes files it does not name: "rm -rf keys", "find keys
// -delete", "git checkout -- keys", "chmod -R 0 keys" and "mv keys old"
// act on everything beneath keys, and "cp a.key keys" writes keys/a.key.
// wholeAct reads what one command form acts on that way, for the bridge's
// own files (formReaches) and for the policy's rules (treeWriteVerdict).

// wholeAct is one command form as the program it acts as.
type wholeAct struct {
	who  string          // the program the reason names: "rm", "git checkout"
	name string          // the program it is decided as: "git checkout -- x" as "rm"
	form []shellcmd.Word // the form from that program on
	cwd  string          // the directory its relative operands are in
	git  bool            // a git subcommand, whose pathspecs git expands itself
	// tracked says it changes only the files git's index holds beneath
	// its pathspecs (checkout, restore, checkout-index, rm, mv, stash).
	tracked bool
}

// wholeActOf reads form, run in cwd, as the program it acts as: a git
// subcommand that deletes, moves or replaces the files its pathspecs name
// (gitRemover, a stash of pathspecs) or the untracked files beneath a
// directory (gitUntrackedRemover) as rm or mv, gio's removers as theirs,
// any other program as itself. ok is false for a form without a static
// program and for a git command that changes no file it is given.
func wholeActOf(form []shellcmd.Word, cwd string, roots []string) (wholeAct, bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return wholeAct{}, false
	}
	name := filepath.Base(form[0].Text)
	a := wholeAct{who: name, name: name, form: form, cwd: cwd}
	if name == "git" {
		if f, as, dir, ok := gitRemover(form, cwd); ok {
			a.form, a.name, a.cwd, a.tracked = f, as, dir, true
		} else if f, dir, ok := gitUntrackedRemover(form, cwd, roots); ok {
			a.form, a.name, a.cwd = f, "rm", dir
		} else if f, dir, ok := gitStashedPaths(form, cwd); ok {
			a.form, a.name, a.cwd, a.tracked = f, "rm", dir, true
		} else if f, dir, tracked, ok := gitPagedFiles(form, cwd); ok {
			a.form, a.name, a.cwd, a.tracked = f, "rm", dir, tracked
		} else {
			return wholeAct{}, false
		}
		a.who, a.git = "git "+a.form[0].Text, true
	}
	if as, ok := gioRemovers[wordText(form, 1)]; name == "gio" && ok {
		a.form, a.name = form[1:], as
	}
	if name == "rg" && slices.ContainsFunc(rgPreprocessors(form), rgPreMayChange) {
		// --pre runs a program on each file it searches, given its
		// name: every file beneath its paths, and where it runs.
		a.form, a.name = append([]shellcmd.Word{form[0], {Kind: shellcmd.Static, Text: "."}}, form[1:]...), "rm"
		a.who = "rg --pre"
	}
	return a, true
}

// gitStashedPaths returns the form of "git stash [push] ... -- PATHS"
// from the subcommand on, and the directory its pathspecs are relative
// to: stashing them puts the committed files back in their place. ok is
// false for a stash naming no pathspec (the whole tree: gitRewrites asks
// about it) and for stash's other subcommands.
func gitStashedPaths(form []shellcmd.Word, cwd string) ([]shellcmd.Word, string, bool) {
	base, at, ok := gitSubcommand(form, "stash")
	if !ok {
		return nil, "", false
	}
	rest := form[at+1:]
	if len(rest) > 0 && rest[0].Kind == shellcmd.Static && !strings.HasPrefix(rest[0].Text, "-") {
		if rest[0].Text != "push" {
			return nil, "", false // list, show, pop, apply, save MESSAGE, ...
		}
		rest = rest[1:]
	}
	o := shellcmd.ReadGitArgs("stash push", rest)
	out := append([]shellcmd.Word{form[at]}, o.Operands...)
	paths := len(o.Operands) > 0
	if !paths {
		return nil, "", false
	}
	return out, joinRaw(cwd, base), true
}

// rgPreprocessors returns the programs rg's --pre (or --pre=) and
// --hostname-bin name, which rg runs with the name of each file it
// searches (the last --pre) or on its own; every one is returned, the
// caller judging each.
func rgPreprocessors(form []shellcmd.Word) []shellcmd.Word {
	var out []shellcmd.Word
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind == shellcmd.Static && w.Text == "--" {
			break
		}
		// A word computed when the line runs counts when its static
		// start names the option ("--pre=$P").
		name, value, eq := strings.Cut(w.Text, "=")
		if name != "--pre" && name != "--hostname-bin" {
			continue
		}
		switch {
		case eq:
			out = append(out, shellcmd.Word{Kind: w.Kind, Text: value})
		case i+1 < len(form):
			out = append(out, form[i+1])
		}
	}
	return out
}

// rgPreMayChange reports whether rg's preprocessor pre may change the
// files rg gives it: a program that writes or may change its operand.
func rgPreMayChange(pre shellcmd.Word) bool {
	_, ok := runMayChangeGiven([]shellcmd.Word{pre, {Kind: shellcmd.Static, Text: findExecPlaceholder}})
	return ok
}

// gitPagedFiles returns, for git grep with -O or --open-files-in-pager
// (whose pager is given the files that match), a form from the subcommand
// on whose operands are every file it may give the pager: "." and each of
// its words that is not an option (the pattern too, which may be a
// pathspec when -e gives it), relative to dir. tracked says it searches
// only what git's index holds (not --untracked, --no-index).
func gitPagedFiles(form []shellcmd.Word, cwd string) (_ []shellcmd.Word, dir string, tracked, ok bool) {
	base, at, ok := gitSubcommand(form, "grep")
	if !ok || !gitGrepPages(form[at+1:]) {
		return nil, "", false, false
	}
	out := []shellcmd.Word{form[at], {Kind: shellcmd.Static, Text: "."}}
	o := shellcmd.ReadGitArgs("grep", form[at+1:])
	tracked = !o.Has("untracked") && !o.Has("no-index")
	for _, w := range form[at+1:] {
		if w.Kind != shellcmd.Static || !strings.HasPrefix(w.Text, "-") {
			out = append(out, w)
		}
	}
	return out, joinRaw(cwd, base), tracked, true
}

// gitGrepPages reports whether git grep's words args open the files that
// match in a pager: -O (alone or with its command attached, also in a
// cluster, "-iO") or a prefix of --open-files-in-pager, as git reads
// them (ReadGitArgs).
func gitGrepPages(args []shellcmd.Word) bool {
	o := shellcmd.ReadGitArgs("grep", args)
	return !o.Computed && o.Has("open-files-in-pager")
}

// actedOperands returns the operands of form, run as name, and the
// directory it copies into (operands), and acted: the operands it
// deletes, moves or changes with everything beneath them. Those are a
// remover's and a recursive modifier's operands, a recursive compressor's,
// find's starting points with an action, 7-Zip's with -sdel, the
// directories fd searches, rsync's destination with --delete (or --del)
// and its sources with --remove-source-files.
func actedOperands(name string, form []shellcmd.Word) (ops []string, dest string, acted []string) {
	ops, dest = operands(name, form[1:])
	acts := removers[name]
	switch {
	case recursiveModifiers[name]:
		acts = true
	case recursiveCompressors[name]:
		acts = compressorRecursive(form)
	case name == "find":
		for _, w := range form[1:] {
			acts = acts || w.Kind == shellcmd.Static && findActions[w.Text]
		}
	case sevenZips[name]:
		for _, w := range form[1:] {
			acts = acts || w.Kind == shellcmd.Static && w.Text == "-sdel"
		}
	case name == "fd" || name == "fdfind":
		if dirs, ok := fdSearched(form); ok {
			return ops, dest, dirs
		}
	case name == "rsync":
		for _, w := range form[1:] {
			if w.Kind != shellcmd.Static {
				continue
			}
			if w.Text == "--remove-source-files" || w.Text == "--remove-sent-files" {
				for _, op := range ops {
					if op != dest {
						acted = append(acted, op)
					}
				}
			}
			// --delete empties the destination of what the source lacks.
			if (strings.HasPrefix(w.Text, "--delete") || w.Text == "--del") && dest != "" {
				acted = append(acted, dest)
			}
		}
		return ops, dest, acted
	}
	if acts {
		acted = ops
	}
	return ops, dest, acted
}

// copyTarget is where a copy, move or link command run in cwd puts one
// source: made, and whether what lies beneath the source goes beneath
// made (a recursive copy or a move of a directory), following the
// symlinks there or not.
type copyTarget struct {
	src, made string
	tree      bool
	followTop bool   // a source that is a symlink is followed
	follow    bool   // symlinks beneath the source are followed
	backup    string // the suffix of the backup of a file replaced, "" for none
}

// copyFlags is what a copier's or link maker's options say of where its
// sources land.
type copyFlags struct {
	noTarget  bool // -T, --no-target-directory: the destination is made (merged into), not entered
	parents   bool // cp --parents, rsync -R/--relative: the source's path is kept below the destination
	recursive bool // -r, -R (cp), -a, --recursive, --archive
	followTop bool // -H, -L, --dereference: a symlink given as a source is followed
	follow    bool // -L, --dereference, rsync's --copy-links, -k: symlinks beneath are followed
}

// readCopyFlags reads copyFlags from a form of name (operandOptions says
// which options take a value).
func readCopyFlags(name string, form []shellcmd.Word) copyFlags {
	s := operandOptions[name]
	var f copyFlags
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if n, v, eq, ok := longOption(t); ok {
			if programLongValue(name, s, n) != "" {
				o.value(v, eq)
				continue
			}
			if full := linkerLong(name, n); full != "" {
				n = full // cp's and ln's prefixes, as getopt_long reads them
			}
			prefix := func(full string, least int) bool { return len(n) >= least && strings.HasPrefix(full, n) }
			switch {
			case prefix("no-target-directory", 4):
				f.noTarget = true
			case prefix("parents", 3) || name == "rsync" && prefix("relative", 3):
				f.parents = true
			case prefix("recursive", 3) || prefix("archive", 2):
				f.recursive = true
			case name == "cp" && prefix("dereference", 3) || name == "rsync" && (n == "copy-links" || n == "copy-dirlinks" || n == "copy-unsafe-links"):
				f.followTop, f.follow = true, true
			}
			continue
		}
		o.shortCluster(s.shortValue, func(c byte) {
			switch {
			case c == 'T' && name != "scp":
				f.noTarget = true
			case c == 'R' && name == "rsync":
				f.parents = true
			case c == 'r' || c == 'R' || c == 'a':
				f.recursive = true
			case c == 'L' || c == 'k' && name == "rsync":
				f.followTop, f.follow = true, true
			case c == 'H' && name == "cp":
				f.followTop = true
			}
		})
	}
	return f
}

// copyTargets returns where form (a copier's or a link maker's, with its
// globs expanded) puts each source: DEST/NAME for a source NAME when the
// destination is a directory there now; DEST itself for a source whose
// content goes in ("src/.", "src/./", rsync's "src/", ditto's sources, and
// a directory copied or moved where no directory is, or with -T, whose
// content then fills DEST); DEST/PATH with cp's --parents and rsync's -R
// (the source's path as written, for rsync from a "/./" in it). A file
// copied where no directory is makes DEST, a name the command gives and
// decided as such: nil then. A cp source ending in "/" is placed both as
// GNU cp places it (DEST/NAME) and as BSD cp does (its content in DEST).
func (e *Engine) copyTargets(name string, form []shellcmd.Word, cwd string) []copyTarget {
	if !copiers[name] && !makesLink(form) {
		return nil
	}
	// A copier in a link mode (cp -l, -s, --link, --symbolic-link) is
	// placed as its copies are: "cp -rlf src dest" puts a link at each
	// file beneath src's place in dest, replacing what is there, and is
	// decided as a tree copy; only ln and its kin place one link a source.
	link := !copiers[name]
	abs := func(w string) string { return e.operandPath(cwd, w) }
	ops, dest := operands(name, form[1:]) // the last operand, or -t's value
	if link && len(ops) == 1 && dest == "" {
		dest = "." // "ln -s ../x" makes ./x
	}
	if dest == "" {
		return nil
	}
	f := readCopyFlags(name, form)
	into := !f.noTarget && intoDir(form, abs(dest), link)
	tree := name == "mv" || name == "ditto" || !link && f.recursive
	backup := "" // the suffix of the backup of a file a tree copy replaces
	if bo, ok := readBackupOptions(name, form); ok && bo.on && bo.elsewhere == "" {
		backup = "~"
		if bo.suffix != nil {
			backup = bo.suffix.Text
		}
	}
	var out []copyTarget
	add := func(src, made string) {
		out = append(out, copyTarget{src: abs(src), made: made, tree: tree, followTop: f.followTop, follow: f.follow, backup: backup})
	}
	for i, src := range ops {
		if src == dest && i == len(ops)-1 && len(ops) > 1 {
			continue
		}
		trimmed := strings.TrimRight(src, "/")
		content := name == "ditto" || trimmed == "." || trimmed == ".." || strings.HasSuffix(trimmed, "/.") || strings.HasSuffix(trimmed, "/..") ||
			name == "rsync" && strings.HasSuffix(src, "/") && trimmed != ""
		switch {
		case f.parents:
			rel := src
			if k := strings.Index(src, "/./"); name == "rsync" && k >= 0 {
				rel = src[k+3:]
			}
			add(src, abs(dest)+"/"+strings.TrimLeft(rel, "/"))
		case !into:
			if fi, err := os.Stat(abs(src)); link || err != nil || !fi.IsDir() {
				continue // a file made at dest, or a link there: named by the command
			}
			add(src, abs(dest))
		case content:
			add(src, abs(dest))
		default:
			add(src, abs(dest)+"/"+filepath.Base(filepath.Clean(src)))
			if name == "cp" && strings.HasSuffix(src, "/") {
				add(src, abs(dest))
			}
		}
	}
	return out
}

// archivedAway returns the operands an archiver deletes once it has
// archived them, and the directory they are relative to ("" for the
// command's): tar's creating an archive with --remove-files (or a prefix
// getopt_long takes for it), zip's with -m or --move. ok is false for any
// other form.
func archivedAway(name string, form []shellcmd.Word) (ops []string, base string, ok bool) {
	switch name {
	case "tar", "bsdtar", "gtar":
		removes := false
		for _, w := range form[1:] {
			if w.Kind != shellcmd.Static || w.Text == "--" {
				break
			}
			removes = removes || len(w.Text) > 4 && strings.HasPrefix("--remove-files", w.Text)
		}
		tr, ok := tarRead(name, form)
		if !removes || !ok {
			return nil, "", false
		}
		return tr.dirs, tr.base, true
	case "zip":
		s := optSet{shortValue: "bnt"}
		opts, operands, _ := splitWords(form[1:], s.takesValue)
		if !shortHas(opts, s, 'm') && !longHas(opts, "move") || len(operands) < 2 {
			return nil, "", false
		}
		return operands[1:], "", true // the first is the archive
	}
	return nil, "", false
}
