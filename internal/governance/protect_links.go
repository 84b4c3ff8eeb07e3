package governance

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The links a command line makes or moves into place: a copy that fills
// a protected name with a source's file or link, a link met on the way to
// a protected path, and the links ln, cp -s and a copy or move of a link
// put at a name (protectedOperands).

// copiesOnto reports whether copying src into a directory may write the
// file rel below it: src holds rel (its contents are copied, as
// "cp -r src/. dir" and "rsync src/ dir" do), or src's own name is rel's
// first element and src holds the rest ("cp -r src dir" makes dir/src),
// or src's own name is rel ("cp evil/settings.json .claude" makes
// .claude/settings.json).
//
// A link src holds on the way to rel counts as holding rel: copied or
// moved as a link ("cp -a", "rsync -a", "mv"), it decides what rel says
// at its new place, where a relative target leads somewhere else
// ("evil/.claude -> x" copied into the root makes .claude lead to ./x).
func copiesOnto(src, rel string) bool {
	if _, err := os.Lstat(filepath.Join(src, rel)); err == nil || linkOnTheWay(src, rel) {
		return true
	}
	first, rest, ok := strings.Cut(rel, "/")
	if !strings.EqualFold(first, filepath.Base(filepath.Clean(src))) {
		return false
	}
	if !ok || isLink(src) {
		// src itself becomes rel ("cp evil/settings.json .claude/"),
		// or a link at rel's first element.
		_, err := os.Lstat(src)
		return err == nil
	}
	_, err := os.Lstat(filepath.Join(src, rest))
	return err == nil || linkOnTheWay(src, rest)
}

// linkOnTheWay reports whether one of the paths below dir that lead to
// dir/rel (dir/a, dir/a/b for rel "a/b/c") is a symlink.
func linkOnTheWay(dir, rel string) bool {
	p := dir
	for _, el := range strings.Split(rel, "/") {
		p = filepath.Join(p, el)
		fi, err := os.Lstat(p)
		if err != nil {
			return false
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// isLink reports whether p (cleaned: "a/." is a) is a symlink.
func isLink(p string) bool {
	fi, err := os.Lstat(filepath.Clean(p))
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// makesLink reports whether one form of a command makes a symlink or hard
// link: ln, link, symlink, cp -s/-l (or --link, --symbolic-link, or a
// prefix getopt_long takes for one: readLinkOptions). What a later command
// of the same line opens by the link's name is where the link leads,
// which the file system does not show when the line is decided. A link
// made by a line of its own is judged where a later line names it
// (linkedProtected).
func makesLink(form []shellcmd.Word) bool {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return false
	}
	switch filepath.Base(form[0].Text) {
	case "ln", "link", "symlink":
		return true
	case "cp":
		f := readLinkOptions(form)
		return f.hard || f.symbolic
	}
	return false
}

// linkUnknown reports whether a link-making form has an operand computed
// at run time.
func linkUnknown(form []shellcmd.Word) bool {
	for _, w := range form[1:] {
		if w.Kind == shellcmd.Dynamic {
			return true
		}
	}
	return false
}

// linkReaches returns the protected location a link-making form's target
// is, lies beneath or holds (linkTargets).
func (e *Engine) linkReaches(in *reqInfo, list []protected, form []shellcmd.Word, cwd string) (protected, string, bool) {
	for _, t := range linkTargets(form, cwd) {
		for _, p := range [...]string{t.fromCwd, t.fromLink} {
			if pr, f, ok := in.pathMatch(p, list, holds); ok {
				return pr, f, true
			}
		}
	}
	return protected{}, "", false
}

// linkTarget is one target operand of a link-making form, read relative
// to the command's directory (where a hard link's target is) and to the
// directory the link is made in (where a symlink's relative target
// leads); an absolute target is both.
type linkTarget struct{ fromCwd, fromLink string }

// linkTargets returns where a link-making form's links may lead: each
// operand but the link's name (linkTarget).
func linkTargets(form []shellcmd.Word, cwd string) []linkTarget {
	ops, dest := operands(filepath.Base(form[0].Text), form[1:])
	linkDir := cwd
	if dest != "" {
		d := dest
		if !strings.HasPrefix(d, "/") {
			d = cwd + "/" + d
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() || strings.HasSuffix(dest, "/") {
			linkDir = d
		} else {
			linkDir = filepath.Dir(d)
		}
	}
	var out []linkTarget
	for i, op := range ops {
		if op == dest && i == len(ops)-1 && len(ops) > 1 {
			continue
		}
		t := linkTarget{fromCwd: op, fromLink: op}
		if !strings.HasPrefix(op, "/") {
			t = linkTarget{fromCwd: cwd + "/" + op, fromLink: linkDir + "/" + op}
		}
		out = append(out, t)
	}
	return out
}

// makesSymlink reports whether a link-making form makes symbolic links
// (ln -s or --symbolic, symlink, cp -s or --symbolic-link, or a prefix
// getopt_long takes for one) rather than hard ones.
func makesSymlink(form []shellcmd.Word) bool {
	if filepath.Base(form[0].Text) == "symlink" {
		return true
	}
	return readLinkOptions(form).symbolic
}

// lnRelative reports whether a form is ln -r (or --relative, or a prefix
// getopt_long takes for it), which stores a symlink's target relative to
// the link, computed from the target as the command names it: from its
// directory.
func lnRelative(form []shellcmd.Word) bool {
	return filepath.Base(form[0].Text) == "ln" && readLinkOptions(form).relative
}
