package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A command can reach a protected file without naming it: through a name
// in the workspace that is a symlink or hard link to it ("truncate -s0
// notes.md" where notes.md leads to GOVERNANCE.md), through a directory
// that holds it when the command deletes, moves or changes everything
// beneath what it names ("find audit -delete", "chmod -R 777 ."), and
// through a copy that fills a directory holding it with a source's files
// of the same names ("cp -r evil/. ."). protectedCommand matches
// protected names in the line's text; protectedOperands finds these on
// the file system, as the command will, when the request is decided.

// maxOperands bounds the names of one command line looked up for links:
// a line naming more is refused rather than half checked.
const maxOperands = 1024

// operandSeparators split a command line's text into the tokens looked up
// as names, so a name inside code ("open('notes.md','w')") or an option
// value (of=notes.md, --file=notes.md) counts as well as a whole word.
const operandSeparators = " \t\n\r\v\f'\"`()[]{},;<>|&$=:\\"

// removers delete or move every operand they name, with what lies beneath.
// (mv moves its sources; what it moves them into is a copier's
// destination.)
// rename (util-linux's and Perl's, under its Debian names too) renames
// every file operand; its expression or from/to strings are taken for
// operands too, which hold nothing.
// mount and umount put another file system's files in place of (or take
// away) everything beneath their operands: "mount --bind evil policies"
// has the next run read the agent's policy, "mount --bind audit x" opens
// the log under a name no rule protects.
var removers = map[string]bool{"mv": true, "rm": true, "rmdir": true, "unlink": true, "shred": true,
	"trash": true, "trash-put": true, "rename": true, "prename": true, "file-rename": true, "perl-rename": true,
	"mount": true, "umount": true, "srm": true, "wipe": true}

// gioRemovers are gio's subcommands that delete or move what they name,
// and the program each is decided as ("gio trash audit" is "rm audit").
var gioRemovers = map[string]string{"trash": "rm", "remove": "rm", "move": "mv", "rename": "mv"}

// sevenZips are 7-Zip's programs, which delete the files they archive
// when given -sdel.
var sevenZips = map[string]bool{"7z": true, "7za": true, "7zr": true, "7zz": true}

// recursiveModifiers change every file beneath an operand when given
// -R or --recursive, and without it change who may reach what is beneath
// a directory operand: "chmod 000 .claude" hides Claude's settings (and
// their hooks and deny rules) from Claude, "chattr +i audit" stops the
// audit log's rotation. Either way a directory operand holding a
// protected location is refused.
var recursiveModifiers = map[string]bool{"chmod": true, "chown": true, "chgrp": true, "setfacl": true, "chattr": true}

// recursiveCompressors replace every file beneath an operand by its
// compressed (or decompressed) form when given -r or --recursive.
var recursiveCompressors = map[string]bool{"gzip": true, "gunzip": true, "zstd": true, "unzstd": true,
	"pigz": true, "unpigz": true, "lz4": true, "unlz4": true, "lzop": true}

// copiers write their sources into their last operand, a directory.
var copiers = map[string]bool{"cp": true, "rsync": true, "mv": true, "install": true, "ditto": true, "scp": true}

// findActions are the find expressions that act on every file found.
var findActions = map[string]bool{"-delete": true, "-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// protectedOperands returns a deny verdict for a command line that reaches
// a protected location of list through a link, a directory it deletes,
// moves or changes recursively, or a directory it copies into.
// names and ok are lineNames(in, line, lines, cwd).
func (e *Engine) protectedOperands(in *reqInfo, list []protected, line string, lines []*shellcmd.Analysis, cwd string, names []string, ok bool) (verdict, bool) {
	if !ok {
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: "deny commands naming protected locations (built-in self-protection)",
			reason: fmt.Sprintf("running %q: it names more than %d files, too many to check for links to the bridge's own files", strings.TrimSpace(line), maxOperands)}, true
	}
	for _, n := range names {
		if pr, res, ok := linkedProtected(in, n, list); ok {
			how := fmt.Sprintf("%s is a link to %s (%s)", n, pr.What, res)
			if namedAsWritten(in, n, pr) {
				how = fmt.Sprintf("it names %s (%s)", pr.What, res)
			}
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: fmt.Sprintf("deny commands naming %s (built-in self-protection)", pr.What),
				reason: fmt.Sprintf("running %q: %s, which is protected from the agent, whatever the policy says", strings.TrimSpace(line), how)}, true
		}
	}
	for _, a := range lines {
		for _, c := range a.Commands {
			// Where the command runs, after the line's cd commands;
			// every root when that is not known.
			dirs := e.runDirs(in, c, cwd)
			for _, form := range c.Forms {
				for _, dir := range dirs {
					if v, ok := e.formReaches(in, list, form, dir, c.Source); ok {
						return v, true
					}
					if v, ok := e.createsProtected(in, list, form, dir, c.Source, len(a.Commands) > 1); ok {
						return v, true
					}
					if v, ok := e.gitPlacesProtected(in, list, form, dir, c.Source); ok {
						return v, true
					}
					if v, ok := gitTemplateProtected(form, c.Source, templateVariable(in, a)); ok {
						return v, true
					}
					if v, ok := e.gitSeparatesGitDir(in, list, form, dir, c.Source, othersThanCd(a, c)); ok {
						return v, true
					}
					if v, ok := goBinaryReaches(in, list, form, dir, c.Source, a.Assignments); ok {
						return v, true
					}
				}
				if len(a.Commands) < 2 {
					continue
				}
				if v, ok := e.rsyncLinkDestReaches(in, list, form, dirs, line, c.Source); ok {
					return v, true
				}
				if !makesLink(form) {
					continue
				}
				if linkUnknown(form) {
					return verdict{value: Deny, ref: "self-protection",
						ruleTx: "deny commands naming protected locations (built-in self-protection)",
						reason: fmt.Sprintf("running %q: %q makes a link to a place known only when the line runs, and the line runs other commands that may use it; run the link on its own first", strings.TrimSpace(line), strings.TrimSpace(c.Source))}, true
				}
				for _, dir := range dirs {
					if pr, f, ok := e.linkReaches(in, list, form, dir); ok {
						return verdict{value: Deny, ref: "self-protection",
							ruleTx: fmt.Sprintf("deny commands naming %s (built-in self-protection)", pr.What),
							reason: fmt.Sprintf("running %q: %q makes a link to %s (%s), and the line runs other commands that may use it; %s is protected from the agent whatever the policy says", strings.TrimSpace(line), strings.TrimSpace(c.Source), f, pr.What, pr.What)}, true
					}
				}
			}
		}
	}
	return verdict{}, false
}

// lineNames returns the absolute names a command line may open: every
// token of its text (split at operandSeparators) and every static word and
// redirection target the shell parser computes, relative ones joined to
// cwd and to each directory a cd of the line leads to, and the names a
// glob word matches now and where the links in kept lead (keptGlobNames:
// after "ln -s . kk", "foo kk/GOV*" names the policy). ok is false past
// maxOperands, or where a glob matches more names than globNames expands.
func (e *Engine) lineNames(in *reqInfo, line string, lines []*shellcmd.Analysis, cwd string) ([]string, bool) {
	seen := map[string]bool{}
	var out []string
	tooMany := false
	bases := []string{cwd}
	if cwd != "" && cwd != "." {
		bases = movedDirs(bases, cwd, lines)
	}
	add := func(t string) {
		if t == "" || t == "-" || t == "--" {
			return
		}
		if strings.HasPrefix(t, "~/") && e.home != "" {
			t = e.home + t[1:]
		}
		if strings.HasPrefix(t, "/") {
			if checkPathText(t) == nil && !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
			return
		}
		if cwd == "" || cwd == "." {
			return
		}
		for _, b := range bases {
			n := b + "/" + t
			if checkPathText(n) != nil || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, t := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(operandSeparators, r) }) {
		add(t)
	}
	word := func(w shellcmd.Word) {
		switch w.Kind {
		case shellcmd.Static:
			add(w.Text)
		case shellcmd.Glob:
			p := w.Text
			if !strings.HasPrefix(p, "/") {
				p = cwd + "/" + p
			}
			ms, ok := in.keptGlobNames(p, maxOperands)
			if !ok {
				tooMany = true
			}
			for _, m := range ms {
				add(m)
			}
		}
	}
	eachWord(lines, word)
	return out, !tooMany && len(out) <= maxOperands
}

// linkedProtected reports whether the absolute name n leads to a protected
// location of list, or into one, other than by its text: through a
// symlink (res is where it leads), or as a hard link to a protected file.
func linkedProtected(in *reqInfo, n string, list []protected) (protected, string, bool) {
	var res, lres string
	var linked os.FileInfo
	if f := in.facts(n); f.refusal == nil {
		// The path's last form is where it leads, resolved already.
		last := len(f.forms) - 1
		res, lres, linked = f.forms[last], f.lowerForms()[last], f.links()[last]
	} else {
		// pathForms refuses more than resolvePath does.
		var r *pathRefusal
		if res, r = resolvePath(n, in.roots...); r != nil {
			return protected{}, "", false
		}
		if fi, err := os.Lstat(res); err == nil && fi.Mode().IsRegular() && hasLinks(fi) {
			linked = fi
		}
		lres = strings.ToLower(res)
	}
	starts := elementStarts(lres)
	for k := 0; k < len(list); k++ {
		pr := &list[k]
		if linked == nil && pr.run.passes(starts) {
			k += pr.run.n - 1 // no location of the run is reached (protect_runs.go)
			continue
		}
		// Not beneath pr (see protected.tail).
		far := pr.tail && !starts.has(pr.lrel[0])
		for _, pf := range pr.lower {
			if !far && beneath(pf, lres) || pr.Rotated && rotatedSiblingLower(pf, lres) {
				return *pr, res, true
			}
		}
		if linked != nil && sameFile(linked, *pr) {
			return *pr, res, true
		}
	}
	return protected{}, "", false
}

// namedAsWritten reports whether the name n, as written (cleaned, before
// any link is followed), is pr or lies beneath it: a command naming a
// protected location outright, not through a link.
func namedAsWritten(in *reqInfo, n string, pr protected) bool {
	f := in.facts(n)
	if f.refusal != nil || len(f.forms) == 0 {
		return false
	}
	lit := f.lowerForms()[0]
	for _, pf := range pr.lower {
		if beneath(pf, lit) {
			return true
		}
	}
	return false
}

// formReaches denies one form of a simple command that deletes, moves or
// recursively changes a directory holding a protected location, or copies
// into one a source holding a file of a protected location's name there.
func (e *Engine) formReaches(in *reqInfo, list []protected, form []shellcmd.Word, cwd, source string) (verdict, bool) {
	act, ok := wholeActOf(form, cwd, in.roots)
	if !ok {
		return verdict{}, false
	}
	if act.git {
		if v, ok := gitPathspecReaches(act.form, act.cwd, source, list); ok {
			return v, true
		}
	}
	name, who := act.name, act.who
	cwd = act.cwd
	form, ok = in.globOperands(act.form, cwd, list)
	if !ok {
		return verdict{value: Deny, ref: "self-protection",
			ruleTx: "deny commands naming protected locations (built-in self-protection)",
			reason: fmt.Sprintf("running %q: a pattern of it matches more than %d files, too many to check for the bridge's own files", strings.TrimSpace(source), maxOperands)}, true
	}
	ops, dest, acted := actedOperands(name, form)
	abs := func(w string) string { return e.operandPath(cwd, w) }
	if who == "git checkout-index" {
		if paths, prefixed, ok := checkoutIndexWrites(form, cwd); prefixed && ok {
			// The files go beneath its prefix, not in place; when the
			// bridge cannot tell which, its operands are decided as
			// written in place, and the policy's walk asks.
			return prefixedWritesReach(in, list, paths, source)
		}
	}
	for _, op := range acted {
		if name == "mv" && op == dest {
			continue
		}
		if pr, f, ok := in.pathMatch(abs(op), list, holds); ok {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: fmt.Sprintf("deny commands that delete, move or change %s (built-in self-protection)", pr.What),
				reason: fmt.Sprintf("running %q: %s acts on everything in %s, which holds %s (%s), protected from the agent whatever the policy says", strings.TrimSpace(source), who, op, pr.What, f)}, true
		}
	}
	if !copiers[name] || dest == "" {
		return verdict{}, false
	}
	dforms, r := in.pathForms(abs(dest))
	if r != nil {
		return verdict{}, false
	}
	for _, src := range ops {
		if src == dest {
			continue
		}
		for _, d := range dforms {
			for _, pr := range list {
				for j, pf := range pr.forms {
					for _, rel := range relsBelow(d, pr, j) {
						if copiesOnto(abs(src), rel) {
							return verdict{value: Deny, ref: "self-protection",
								ruleTx: fmt.Sprintf("deny changes to %s (built-in self-protection)", pr.What),
								reason: fmt.Sprintf("running %q: it copies %s into %s, and %s holds %s, which would replace %s (%s), protected from the agent whatever the policy says", strings.TrimSpace(source), src, dest, src, rel, pr.What, pf)}, true
						}
					}
				}
			}
		}
	}
	return verdict{}, false
}

// wordText returns the text of form[i] when it is a static word, else "".
func wordText(form []shellcmd.Word, i int) string {
	if i >= len(form) || form[i].Kind != shellcmd.Static {
		return ""
	}
	return form[i].Text
}

// findStarts returns the starting points of find's words: the operands
// after its own options (GNU's -H, -L, -P, -D debugopts, -Olevel; BSD's
// -E, -X, -d, -s, -x, and -f path, a starting point) up to the first word
// of the expression (one starting with "-", "(" or "!"); "." when there is
// none, as find starts there then ("find -delete" empties the directory).
// A word computed at run time is left to the rules on such words.
func findStarts(words []shellcmd.Word) []string {
	var ops []string
	i := 0
	for ; i < len(words); i++ {
		w := words[i]
		t := w.Text
		if w.Kind != shellcmd.Static || len(t) < 2 || t[0] != '-' {
			break
		}
		if t == "--" {
			i++
			break
		}
		if (t == "-D" || t == "-f") && i+1 < len(words) {
			if t == "-f" {
				ops = append(ops, words[i+1].Text)
			}
			i++
			continue
		}
		if strings.Trim(t[1:], "HLPEXdsx") != "" && !strings.HasPrefix(t, "-O") && !strings.HasPrefix(t, "-D") {
			break // the expression
		}
	}
	computed := false // a starting point known only when the line runs
	for ; i < len(words); i++ {
		w := words[i]
		if w.Kind != shellcmd.Static {
			computed = true
			continue
		}
		if t := w.Text; strings.HasPrefix(t, "-") || t == "(" || t == "!" {
			break
		}
		ops = append(ops, w.Text)
	}
	if len(ops) == 0 && !computed {
		ops = []string{"."}
	}
	return ops
}

// holds returns the protected location one of forms is, or holds beneath
// it.
func holds(forms []string, list []protected) (protected, string, bool) {
	for _, f := range forms {
		lf := strings.ToLower(f)
		for _, pr := range list {
			for j, pf := range pr.lower {
				if beneath(lf, pf) || beneath(pf, lf) {
					return pr, pr.forms[j], true
				}
			}
		}
	}
	return protected{}, "", false
}

// movedDirs appends to dirs every known directory other than cwd a command
// of lines runs in after a cd of the line (shellcmd.Dir), joined to cwd.
func movedDirs(dirs []string, cwd string, lines []*shellcmd.Analysis) []string {
	add := func(d shellcmd.Dir) {
		if !d.Moved() || d.Unknown {
			return
		}
		for _, p := range d.Paths {
			q := joinRaw(cwd, p)
			for {
				if (p != "" || d.AtTop) && !slices.Contains(dirs, q) {
					dirs = append(dirs, q)
				}
				if !d.AtTop || q == filepath.Dir(q) {
					break
				}
				q = filepath.Dir(q) // the top of the work tree may be any directory above
			}
		}
	}
	for _, a := range lines {
		for _, c := range a.Commands {
			add(c.Dir)
		}
		for _, r := range a.Redirects {
			add(r.Dir)
		}
	}
	return dirs
}
