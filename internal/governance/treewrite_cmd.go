package governance

import (
	"path/filepath"
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
}

// wholeActOf reads form, run in cwd, as the program it acts as: a git
// subcommand that deletes, moves or replaces the files its pathspecs name
// (gitRemover) or the untracked files beneath a directory
// (gitUntrackedRemover) as rm or mv, gio's removers as theirs, any other
// program as itself. ok is false for a form without a static program and
// for a git command that changes no file it is given.
func wholeActOf(form []shellcmd.Word, cwd string, roots []string) (wholeAct, bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return wholeAct{}, false
	}
	name := filepath.Base(form[0].Text)
	a := wholeAct{who: name, name: name, form: form, cwd: cwd}
	if name == "git" {
		if f, as, dir, ok := gitRemover(form, cwd); ok {
			a.form, a.name, a.cwd = f, as, dir
		} else if f, dir, ok := gitUntrackedRemover(form, cwd, roots); ok {
			a.form, a.name, a.cwd = f, "rm", dir
		} else {
			return wholeAct{}, false
		}
		a.who, a.git = "git "+a.form[0].Text, true
	}
	if as, ok := gioRemovers[wordText(form, 1)]; name == "gio" && ok {
		a.form, a.name = form[1:], as
	}
	return a, true
}

// actedOperands returns the operands of form, run as name, and the
// directory it copies into (operands), and acts says whether it deletes,
// moves or changes each operand with everything beneath it: a remover, a
// recursive modifier, a recursive compressor, find with an action, 7-Zip
// with -sdel, fd (the directories it searches) and rsync with --delete or
// --remove-source-files.
func actedOperands(name string, form []shellcmd.Word) (ops []string, dest string, acts bool) {
	ops, dest = operands(name, form[1:])
	acts = removers[name]
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
			ops, acts = dirs, true
		}
	case name == "rsync":
		// --delete empties the destination of what the source lacks;
		// --remove-source-files deletes the sources.
		for _, w := range form[1:] {
			acts = acts || w.Kind == shellcmd.Static && (strings.HasPrefix(w.Text, "--delete") || w.Text == "--remove-source-files")
		}
	}
	return ops, dest, acts
}

// copyTarget is where a copy, move or link command run in cwd puts one
// source: made, and whether what lies beneath the source goes beneath
// made (a recursive copy or a move of a directory).
type copyTarget struct {
	src, made string
	tree      bool
}

// copyTargets returns where form (a copier's or a link maker's, with its
// globs expanded) puts each source when its destination is a directory
// there now: dest/NAME for a source NAME, dest itself for a source whose
// content goes in ("src/." and rsync's "src/"). A destination that is not
// a directory is the file written, named by the command and decided as
// such; nil then.
func (e *Engine) copyTargets(name string, form []shellcmd.Word, cwd string) []copyTarget {
	link := makesLink(form)
	if !link && !copiers[name] {
		return nil
	}
	abs := func(w string) string { return e.operandPath(cwd, w) }
	ops, dest := operands("cp", form[1:]) // the last operand, or -t's value
	if link && len(ops) == 1 {
		dest = "." // "ln -s ../x" makes ./x
	}
	if dest == "" || !intoDir(form, abs(dest), link) {
		return nil
	}
	tree := name == "mv" || name == "ditto" || !link && copiesRecursively(form)
	var out []copyTarget
	for _, src := range ops {
		if src == dest && len(ops) > 1 {
			continue
		}
		made := abs(dest)
		if content := strings.HasSuffix(src, "/.") || name == "rsync" && strings.HasSuffix(src, "/"); !content {
			made += "/" + filepath.Base(filepath.Clean(src))
		}
		out = append(out, copyTarget{src: abs(src), made: made, tree: tree})
	}
	return out
}

// copiesRecursively reports whether a cp, rsync or install form copies a
// directory source with what lies beneath it: cp's -r, -R, -a and their
// long forms, rsync's -r and -a (in a cluster too).
func copiesRecursively(form []shellcmd.Word) bool {
	for _, w := range form[1:] {
		t := w.Text
		if w.Kind != shellcmd.Static || t == "--" {
			return false
		}
		switch {
		case t == "--recursive" || t == "--archive":
			return true
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "rRa"):
			return true
		}
	}
	return false
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
