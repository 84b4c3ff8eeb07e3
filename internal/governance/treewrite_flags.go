package governance

import (
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The readings of a form's options that the tree-write walk needs: which
// of git's forms take their files from a commit, whether find, chmod and
// the like follow links or recurse, checkout-index's prefix and the names
// util-linux rename gives.

// gitFromCommit reports whether a git form of wholeActOf (from its
// subcommand on) takes its files from a commit rather than from the index:
// checkout given a tree-ish before its pathspecs, or without "--" (its
// first word may name a branch), and restore with -s or --source.
func gitFromCommit(form []shellcmd.Word) bool {
	switch wordText(form, 0) {
	case "checkout":
		for _, w := range form[1:] {
			switch {
			case w.Kind != shellcmd.Static:
				return true
			case w.Text == "--":
				return false
			case !strings.HasPrefix(w.Text, "-"):
				return true // a tree-ish, or a pathspec read as one
			}
		}
		return true
	case "restore":
		return shortFlag(form, 's') || longFlag(form, "source", 2) || slices.ContainsFunc(form[1:], func(w shellcmd.Word) bool {
			return strings.HasPrefix(w.Text, "--source=")
		})
	}
	return false
}

// findFollows reports whether a find form follows the symlinks it is
// given as starting points (-H or -L before them) and every symlink
// beneath (-L).
func findFollows(act wholeAct) (top, all bool) {
	if act.name != "find" {
		return false, false
	}
	for _, w := range act.form[1:] {
		if w.Kind != shellcmd.Static || !strings.HasPrefix(w.Text, "-") || w.Text == "--" {
			break
		}
		top = top || w.Text == "-H" || w.Text == "-L"
		all = all || w.Text == "-L"
	}
	return top, all
}

// modifierRecursive reports whether a chmod, chown, chgrp, setfacl or
// chattr form changes what is beneath its operands: -R or --recursive.
func modifierRecursive(form []shellcmd.Word) bool {
	return shortFlag(form, 'R') || longFlag(form, "recursive", 3)
}

// longFlag reports whether a word of form, before "--", is the long
// option --full or a prefix of it of at least least letters, as
// getopt_long takes one ("--recur").
func longFlag(form []shellcmd.Word, full string, least int) bool {
	for _, w := range form[1:] {
		t := w.Text
		if w.Kind != shellcmd.Static || t == "--" {
			return false
		}
		if n, ok := strings.CutPrefix(t, "--"); ok && len(n) >= least && strings.HasPrefix(full, n) {
			return true
		}
	}
	return false
}

// shortFlag reports whether a short option cluster of form, before "--",
// holds the letter c.
func shortFlag(form []shellcmd.Word, c byte) bool { return shortLetters(form, string(c)) }

// hasWord reports whether a static word of form, after its program, is t.
func hasWord(form []shellcmd.Word, t string) bool {
	for _, w := range form[1:] {
		if w.Kind == shellcmd.Static && w.Text == t {
			return true
		}
	}
	return false
}

// renamedTo returns the names util-linux rename (rename FROM TO FILE...,
// also as rename.ul) gives its files: each FILE with its first FROM
// replaced by TO, read from the command's directory. Perl's rename, whose
// first operand is an expression (s/a/b/, y/a/b/), names nothing here.
func renamedTo(name string, ops []string) []string {
	if name != "rename" && name != "rename.ul" || len(ops) < 3 {
		return nil
	}
	from, to := ops[0], ops[1]
	if from == "" || len(from) > 2 && (from[0] == 's' || from[0] == 'y') && !strings.ContainsAny(from[1:2], "abcdefghijklmnopqrstuvwxyz0123456789._-") {
		return nil
	}
	var out []string
	for _, f := range ops[2:] {
		if strings.Contains(f, from) {
			out = append(out, strings.Replace(f, from, to, 1))
		}
	}
	return out
}
