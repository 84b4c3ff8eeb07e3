package governance

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// After a cd the bridge cannot follow (cd "$(printf sub)"), a relative
// word of the line names a file in a directory known only when the line
// runs: "../.git/confi?" or "audit-log.json?" may be the repository's
// configuration or the audit log wherever they lie, though neither
// expands to them where the request runs. Such a word is compared with the
// last elements of each protected location, and with those of the
// directory holding it (which a mv or rm of the word would take away), so
// that self-protection holds wherever the line turns out to run.

// looseBrackets are the bracket expressions of a pattern, a POSIX class,
// equivalence class or collating symbol inside included.
var looseBrackets = regexp.MustCompile(`\[(\[[:=.][^\]]*[:=.]\]|[^\]])*\]`)

// tailWord is a relative word of a command whose directory is unknown, in
// lower case, split into its elements, without the leading "." and ".."
// ones.
type tailWord struct {
	elems []string
	glob  bool
}

// unknownDirWords returns the static and glob words, not absolute, of the
// commands of lines that run in a directory known only when the line
// runs, and of the redirections that do.
func unknownDirWords(lines []*shellcmd.Analysis) []tailWord {
	var out []tailWord
	addText := func(text string, glob bool) {
		if strings.HasPrefix(text, "/") || strings.HasPrefix(text, "-") {
			return
		}
		var elems []string
		for _, e := range strings.Split(strings.ToLower(text), "/") {
			// A "**" element (globstar, zsh) reaches any depth: the
			// elements around it are matched where they stand.
			if e == "" || e == "." || e == "**" || e == ".." && len(elems) == 0 {
				continue
			}
			elems = append(elems, e)
		}
		if len(elems) > 0 {
			out = append(out, tailWord{elems: elems, glob: glob})
		}
	}
	add := func(w shellcmd.Word) {
		text, glob := w.Text, w.Kind == shellcmd.Glob
		switch {
		case w.Kind == shellcmd.Dynamic && !strings.ContainsAny(text, "$`"):
			// A pattern the shells expand in ways no one pattern
			// covers ("[[=i=]]", "**/"): read loosely, each bracket
			// expression as any one character.
			text, glob = looseBrackets.ReplaceAllString(text, "?"), true
		case w.Kind != shellcmd.Static && w.Kind != shellcmd.Glob:
			return
		}
		addText(text, glob)
		// A file given as an option's value ("of=F", "--output=F").
		if _, v, ok := strings.Cut(text, "="); ok && v != "" {
			addText(v, glob)
		}
	}
	for _, a := range lines {
		for _, c := range a.Commands {
			if !c.Dir.Unknown {
				continue
			}
			for _, form := range c.Forms {
				for _, w := range form[1:] {
					add(w)
				}
			}
		}
		for _, r := range a.Redirects {
			if r.Dir.Unknown {
				add(r.Target)
			}
		}
	}
	return out
}

// names reports whether w, run in some directory, may name the location
// whose lower-case absolute form is lower, or, for a directory (dir), a
// file beneath it. rel is the location's path below a root for the
// agents' configuration (".gemini/.env"), which w must spell whole: ".env"
// alone is any project's file. A location the engine was given (the
// policy, the audit log) is named by its name alone, and so is the
// directory holding it, which a mv or rm of the word takes away.
func (w tailWord) names(lower string, dir bool, rel string) bool {
	elems := strings.Split(strings.Trim(lower, "/"), "/")
	least := 1
	if rel != "" {
		least = strings.Count(strings.Trim(rel, "/"), "/") + 1
	}
	n := len(w.elems)
	if n >= least && n <= len(elems) && elemsMatch(w.elems, elems[len(elems)-n:], w.glob) {
		return true
	}
	if rel == "" && n < len(elems) && elemsMatch(w.elems, elems[len(elems)-1-n:len(elems)-1], w.glob) {
		return true
	}
	// A word going on beneath a protected directory: its first m
	// elements are the directory's last m.
	if dir {
		for m := least; m < n && m <= len(elems); m++ {
			if elemsMatch(w.elems[:m], elems[len(elems)-m:], w.glob) {
				return true
			}
		}
	}
	return false
}

// elemsMatch reports whether the word's elements ws match the path's
// elements ps one for one, as patterns when glob.
func elemsMatch(ws, ps []string, glob bool) bool {
	for i, e := range ws {
		if e == ps[i] {
			continue
		}
		if !glob {
			return false
		}
		if ok, _ := filepath.Match(e, ps[i]); !ok {
			return false
		}
	}
	return true
}

// tailNames reports whether a word of tails may name the location lower.
func tailNames(tails []tailWord, lower string, dir bool, rel string) bool {
	for _, w := range tails {
		if w.names(lower, dir, rel) {
			return true
		}
	}
	return false
}
