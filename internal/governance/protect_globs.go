package governance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A glob operand reaches what it matches when the line runs: "mv aud* old"
// moves the directory holding the audit log as "mv audit old" does, and
// "find polic* -delete" deletes the policy's files. formReaches decides
// the static operands it sees; globOperands gives it, in place of each
// glob operand, the names that glob reaches.

// globOperands returns form with every glob operand (a word the shell
// expands against the file system, not an option) replaced by the names it
// reaches: every name it matches now, and each protected location of list,
// or directory holding one, whose path the pattern matches element by
// element. A pattern of fewer elements than a protected location that
// matches its leading elements names a directory holding it; one of more
// elements whose leading elements match the whole location names something
// beneath it. Either stands for that location's path cut to the pattern's
// length. Matching ignores case and lets * match a leading dot (as bash's
// dotglob does), so it may find more than the shell would, never less; a
// location that does not exist is not matched. form is returned as it was
// when it holds no glob operand; ok is false when a glob matches more than
// maxOperands names, or its expansion reads more than globBudget directory
// entries: too many to look up.
func (in *reqInfo) globOperands(form []shellcmd.Word, cwd string, list []protected) ([]shellcmd.Word, bool) {
	at := slices.IndexFunc(form[1:], func(w shellcmd.Word) bool { return w.Kind == shellcmd.Glob })
	if at < 0 {
		return form, true
	}
	out := append([]shellcmd.Word(nil), form[:at+1]...)
	for _, w := range form[at+1:] {
		if w.Kind != shellcmd.Glob || strings.HasPrefix(w.Text, "-") {
			out = append(out, w)
			continue
		}
		pat := w.Text
		if !strings.HasPrefix(pat, "/") {
			pat = cwd + "/" + pat
		}
		// Every name it matches, leading dots too (as bash's dotglob
		// does): past maxOperands names, or globBudget directory entries
		// read, the line is refused, not half checked.
		names, ok := in.keptGlobNames(pat, maxOperands)
		if !ok {
			return nil, false
		}
		for _, p := range in.globPatternForms(pat) {
			names = append(names, protectedMatches(p, list)...)
		}
		if len(names) == 0 {
			out = append(out, w)
			continue
		}
		slices.Sort(names)
		for _, n := range slices.Compact(names) {
			out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: n})
		}
	}
	return out, true
}

// globPatternForms returns pattern pat (absolute) with its leading
// elements that hold no glob character in each of their forms (cleaned,
// and with links resolved), so a pattern below a link is compared where
// the link leads.
func (in *reqInfo) globPatternForms(pat string) []string {
	segs := strings.Split(pat, "/")
	i := slices.IndexFunc(segs, func(s string) bool { return strings.ContainsAny(s, `*?[\`) })
	if i <= 1 {
		return []string{pat}
	}
	prefix, rest := strings.Join(segs[:i], "/"), strings.Join(segs[i:], "/")
	forms, r := in.pathForms(prefix)
	if r != nil || len(forms) == 0 {
		return []string{pat}
	}
	out := make([]string, 0, len(forms))
	for _, f := range forms {
		out = append(out, strings.TrimSuffix(f, "/")+"/"+rest)
	}
	return out
}

// protectedMatches returns, for each protected location of list that the
// absolute pattern pat reaches (see globOperands), the location's path cut
// to the pattern's number of elements.
func protectedMatches(pat string, list []protected) []string {
	psegs := strings.Split(strings.ToLower(filepath.Clean(pat)), "/")
	var out []string
	for _, pr := range list {
		for j, lf := range pr.lower {
			fsegs := strings.Split(lf, "/")
			n := min(len(psegs), len(fsegs))
			hit := true
			for k := 1; k < n && hit; k++ {
				ok, err := filepath.Match(psegs[k], fsegs[k])
				hit = err == nil && ok || psegs[k] == fsegs[k]
			}
			if !hit {
				continue
			}
			// A glob matches only names that exist.
			if cut := strings.Join(strings.Split(pr.forms[j], "/")[:n], "/"); exists(cut) {
				out = append(out, cut)
			}
		}
	}
	return out
}

// exists reports whether a name exists (a dangling link does).
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// globBudget bounds the directory entries the expansion of one glob
// operand reads: "rm -r /*/*/*/*/*" would otherwise list most of the file
// system (and /proc) before the decision is made.
const globBudget = 20000

// boundedGlob is filepath.Glob of an absolute pattern that reads at most
// *budget directory entries in all; ok is false past it. A malformed
// pattern matches nothing (the shell passes such a word as it is). Unlike
// filepath.Glob it cleans nothing: "link/../k*" is expanded in the
// directory the kernel reaches through the link, as the shell expands it,
// not beside the link, and each name keeps the pattern's path to it. Each
// element holding a pattern is matched as a shell with any glob options
// could match it (shellPattern): a leading dot too, case ignored.
func boundedGlob(pattern string, budget *int) ([]string, bool) {
	if !hasGlobMeta(pattern) {
		if exists(pattern) {
			return []string{pattern}, true
		}
		return nil, true
	}
	dir, file := filepath.Split(pattern)
	if len(dir) > 1 {
		dir = dir[:len(dir)-1]
	}
	dirs := []string{dir}
	if hasGlobMeta(dir) {
		var ok bool
		if dirs, ok = boundedGlob(dir, budget); !ok {
			return nil, false
		}
	}
	var out []string
	pat := newShellPattern(file)
	for _, d := range dirs {
		f, err := openDir(d)
		if err != nil {
			continue
		}
		names, _ := f.Readdirnames(*budget + 1)
		f.Close()
		if *budget -= len(names); *budget < 0 {
			return nil, false
		}
		slices.Sort(names)
		for _, n := range names {
			if pat.match(n) {
				out = append(out, joinRaw(d, n))
			}
		}
	}
	return out, true
}

// shellPattern is a pattern element as some shell that could run the
// line matches it: bash with dotglob (which "shopt -s dotglob",
// "bash -O dotglob", GLOBIGNORE or the ~/.bashrc that an IDE's "bash -i"
// reads may set) and zsh with GLOB_DOTS let * and ? match a leading dot,
// which filepath.Match does too; bash's nocaseglob and zsh's NO_CASE_GLOB
// ignore case, so ".EN?" matches .env. Case is ignored by matching the
// pattern and the name both lowered and both raised as well as as
// written.
type shellPattern struct{ pat, lower, upper string }

// newShellPattern prepares the pattern element pat for shellPattern.match.
func newShellPattern(pat string) shellPattern {
	return shellPattern{pat, strings.ToLower(pat), strings.ToUpper(pat)}
}

// match reports whether p matches the name n; a malformed pattern
// matches nothing.
func (p shellPattern) match(n string) bool {
	if ok, err := filepath.Match(p.pat, n); err == nil && ok {
		return true
	}
	if ok, err := filepath.Match(p.lower, strings.ToLower(n)); err == nil && ok {
		return true
	}
	ok, err := filepath.Match(p.upper, strings.ToUpper(n))
	return err == nil && ok
}

// hasGlobMeta reports whether p holds a character filepath.Match reads
// as a pattern.
func hasGlobMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }
