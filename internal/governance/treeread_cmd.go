package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A command that reads everything beneath a directory it names ("grep -r
// SECRET .", "rg SECRET", "tar cf - .", "cp -r . /tmp/x") reads a file the
// policy denies reading without naming it. treeRead says which directories
// a simple command reads whole and whether it follows the symlinks it
// meets there; treeReadVerdict (treeread.go) looks beneath them.

// treeRead is what one command form reads whole.
type treeRead struct {
	reader string   // the program, for the reason
	dirs   []string // the operands read whole (relative to base when relative)
	base   string   // "" for the command's cwd, else a directory (tar -C, git -C) as the command wrote it
	follow bool     // symlinks beneath an operand are followed
	cwd    bool     // the command reads its working directory too (it names no path, or may not)
	top    bool     // dirs are relative to the top of the git work tree, not to the command's cwd
	picks  []string // when set, the reader reads only the files whose names one of these matches (picked)
	names  bool     // the reader lists names only: the directories beneath are decided, not the files in them
}

// optSet lists the options of a program that take a value in the next word
// (short letters and long names without their leading dashes), and those
// that mean something the walk needs.
type optSet struct {
	shortValue string
	longValue  map[string]bool
	longNames  []string // every long option, for a program that takes their prefixes (getopt_long); nil for none
}

var grepOpts = optSet{shortValue: "efmABCdD", longValue: map[string]bool{"regexp": true, "file": true,
	"max-count": true, "after-context": true, "before-context": true, "context": true, "directories": true,
	"devices": true, "include": true, "exclude": true, "exclude-dir": true, "exclude-from": true, "label": true,
	"binary-files": true, "group-separator": true}, longNames: grepLongNames}

var rgOpts = optSet{shortValue: "ABCEMTdefgjmrt", longValue: map[string]bool{"regexp": true, "file": true,
	"after-context": true, "before-context": true, "context": true, "encoding": true, "max-columns": true,
	"type-not": true, "max-depth": true, "glob": true, "iglob": true, "threads": true, "max-count": true,
	"replace": true, "type": true, "type-add": true, "type-clear": true, "ignore-file": true, "pre": true,
	"pre-glob": true, "max-filesize": true, "path-separator": true, "colors": true, "color": true,
	"context-separator": true, "field-context-separator": true, "field-match-separator": true, "sort": true,
	"sortr": true, "dfa-size-limit": true, "regex-size-limit": true, "engine": true, "hostname-bin": true,
	"hyperlink-format": true, "generate": true, "sort-files": true}}

var agOpts = optSet{shortValue: "ABCGgmp", longValue: map[string]bool{"after": true, "before": true, "context": true,
	"file-search-regex": true, "ignore": true, "ignore-dir": true, "max-count": true, "depth": true, "pager": true,
	"path-to-ignore": true, "workers": true, "color-line-number": true, "color-match": true, "color-path": true}}

var ackOpts = optSet{shortValue: "ABCgm", longValue: map[string]bool{"after-context": true, "before-context": true,
	"context": true, "max-count": true, "ignore-dir": true, "ignore-file": true, "type": true, "output": true,
	"match": true, "pager": true, "files-from": true}}

var gitGrepOpts = optSet{shortValue: "efmABCO", longValue: map[string]bool{"max-depth": true, "threads": true,
	"open-files-in-pager": true, "context": true, "after-context": true, "before-context": true, "max-count": true}}

// splitWords splits a form's argument words into options and operands; value
// reports whether an option word consumes the next word. unknown is true
// when a word's meaning could not be read (a run-time word).
func splitWords(form []shellcmd.Word, value func(opt string) bool) (opts, operands []string, unknown bool) {
	for i := 0; i < len(form); i++ {
		w := form[i]
		if w.Kind == shellcmd.Glob {
			operands = append(operands, w.Text) // expanded against the file system when walked
			continue
		}
		if w.Kind != shellcmd.Static {
			unknown = true
			continue
		}
		t := w.Text
		if t == "--" {
			for _, r := range form[i+1:] {
				if r.Kind != shellcmd.Static && r.Kind != shellcmd.Glob {
					unknown = true
					continue
				}
				operands = append(operands, r.Text)
			}
			break
		}
		if len(t) > 1 && t[0] == '-' {
			opts = append(opts, t)
			if value(t) && i+1 < len(form) {
				opts = append(opts, form[i+1].Text)
				i++
			}
			continue
		}
		operands = append(operands, t)
	}
	return opts, operands, unknown
}

// takesValue reports whether option word t (from a program with options
// s) leaves its value to the next word.
func (s optSet) takesValue(t string) bool {
	if strings.HasPrefix(t, "--") {
		return !strings.Contains(t, "=") && s.longValue[s.longName(t[2:])]
	}
	for j := 1; j < len(t); j++ {
		if strings.IndexByte(s.shortValue, t[j]) >= 0 {
			return j == len(t)-1 // the rest of the cluster is the value otherwise
		}
	}
	return false
}

// shortHas reports whether a short cluster among opts holds letter c
// before any letter of s that takes a value.
func shortHas(opts []string, s optSet, c byte) bool {
	for _, t := range opts {
		if len(t) < 2 || t[0] != '-' || t[1] == '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if t[j] == c {
				return true
			}
			if strings.IndexByte(s.shortValue, t[j]) >= 0 {
				break
			}
		}
	}
	return false
}

// longHas reports whether opts hold one of the long options names.
func longHas(opts []string, names ...string) bool {
	for _, t := range opts {
		for _, n := range names {
			if t == "--"+n {
				return true
			}
		}
	}
	return false
}

// patternGiven reports whether -e/-f (or --regexp/--file) give the pattern,
// so the first operand is a path.
func patternGiven(opts []string, s optSet) bool {
	if shortHas(opts, s, 'e') || shortHas(opts, s, 'f') {
		return true
	}
	for _, t := range opts {
		if t == "--regexp" || t == "--file" || strings.HasPrefix(t, "--regexp=") || strings.HasPrefix(t, "--file=") {
			return true
		}
	}
	return false
}

// searchRead is a search program's reading: pattern, then paths, cwd when
// none.
func searchRead(name string, form []shellcmd.Word, s optSet, follow bool) (treeRead, bool) {
	opts, operands, unknown := splitWords(form[1:], s.takesValue)
	opts = s.expandLong(opts)
	if unknown {
		// A word known only when the line runs may be the pattern or
		// a path: every static word may be a path, and so may the cwd.
		return treeRead{reader: name, dirs: operands, follow: follow, cwd: true}, true
	}
	if !patternGiven(opts, s) && len(operands) > 0 {
		operands = operands[1:]
	}
	return treeRead{reader: name, dirs: operands, follow: follow, cwd: len(operands) == 0}, true
}

// treeReadOf returns what the command form reads whole, if it is such a
// reader.
func treeReadOf(form []shellcmd.Word) (treeRead, bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return treeRead{}, false
	}
	name := filepath.Base(form[0].Text)
	switch name {
	case "grep", "egrep", "fgrep", "zgrep":
		opts, _, _ := splitWords(form[1:], grepOpts.takesValue)
		opts = grepOpts.expandLong(opts)
		if !grepRecurses(opts) {
			return treeRead{}, false
		}
		deref := shortHas(opts, grepOpts, 'R') || longHas(opts, "dereference-recursive")
		return searchRead(name, form, grepOpts, deref)
	case "rg":
		opts, _, _ := splitWords(form[1:], rgOpts.takesValue)
		return searchRead(name, form, rgOpts, shortHas(opts, rgOpts, 'L') || longHas(opts, "follow"))
	case "ag":
		opts, _, _ := splitWords(form[1:], agOpts.takesValue)
		return searchRead(name, form, agOpts, shortHas(opts, agOpts, 'f') || longHas(opts, "follow"))
	case "ack", "ack-grep":
		opts, _, _ := splitWords(form[1:], ackOpts.takesValue)
		return searchRead(name, form, ackOpts, longHas(opts, "follow"))
	case "git":
		if r, ok := gitDiffNoIndexRead(form); ok {
			return r, true
		}
		return gitTreeRead(form)
	case "diff", "colordiff":
		return diffRead(name, form)
	case "tar", "bsdtar", "gtar":
		return tarRead(name, form)
	case "zip":
		opts, operands, _ := splitWords(form[1:], optSet{shortValue: "bnt"}.takesValue)
		s := optSet{shortValue: "bnt"}
		if !shortHas(opts, s, 'r') && !shortHas(opts, s, 'R') && !longHas(opts, "recurse-paths", "recurse-patterns") {
			return treeRead{}, false
		}
		if len(operands) > 0 {
			operands = operands[1:] // the archive
		}
		return treeRead{reader: name, dirs: operands, follow: !shortHas(opts, s, 'y') && !longHas(opts, "symlinks")}, true
	case "cp", "rsync":
		return copyRead(name, form)
	}
	return moreTreeReadOf(name, form)
}

// gitSubcommand finds git's subcommand sub in form, "git [options] sub
// ...", past git's own options as shellcmd.GitOptions reads them: it
// returns where sub is and the directory the -C options name (joined, ""
// for none); ok is false when the subcommand is not sub or is not known
// before the line runs.
func gitSubcommand(form []shellcmd.Word, sub string) (base string, at int, ok bool) {
	g := shellcmd.GitOptions(form)
	if g.At >= len(form) || form[g.At].Kind != shellcmd.Static || form[g.At].Text != sub {
		return "", 0, false
	}
	for _, d := range g.Dirs {
		base = joinRaw(base, d.Text)
	}
	return base, g.At, true
}

// tarRead reads a tar that creates an archive ("tar cf - .", "tar -czf x
// dir", "tar --create ..."): its operands are archived whole.
func tarRead(name string, form []shellcmd.Word) (treeRead, bool) {
	const shortValue = "fCbTXgKNVL"
	create, follow := false, false
	base := ""
	var operands []string
	pending := 0 // values the old-style first word still owes
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		switch {
		case pending > 0:
			pending--
		case i == 1 && !strings.HasPrefix(t, "-"):
			// Old style: "cf" is -c -f, each value letter taking the
			// next words in order.
			for j := 0; j < len(t); j++ {
				create = create || t[j] == 'c'
				follow = follow || t[j] == 'h'
				if strings.IndexByte(shortValue, t[j]) >= 0 {
					pending++
				}
			}
		case t == "--":
			for _, r := range form[i+1:] {
				operands = append(operands, r.Text)
			}
			i = len(form)
		case strings.HasPrefix(t, "--"):
			create = create || t == "--create"
			follow = follow || t == "--dereference"
			if strings.HasPrefix(t, "--directory=") {
				base = joinRaw(base, strings.TrimPrefix(t, "--directory="))
			}
			if (t == "--file" || t == "--directory" || t == "--files-from" || t == "--exclude-from") && i+1 < len(form) {
				if t == "--directory" {
					base = joinRaw(base, form[i+1].Text)
				}
				i++
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				create = create || t[j] == 'c'
				follow = follow || t[j] == 'h'
				if strings.IndexByte(shortValue, t[j]) >= 0 {
					v := t[j+1:]
					if v == "" && i+1 < len(form) {
						i++
						v = form[i].Text
					}
					if t[j] == 'C' {
						base = joinRaw(base, v)
					}
					break
				}
			}
		default:
			operands = append(operands, t)
		}
	}
	if !create {
		return treeRead{}, false
	}
	return treeRead{reader: name, dirs: operands, base: base, follow: follow}, true
}

// copyRead reads "cp -r/-R/-a" and "rsync -r/-a": every source is copied
// whole to where it can be read; so are the directories of rsync's
// --link-dest and --copy-dest (rsyncBasisDirs), whose files it links or
// copies into the destination.
func copyRead(name string, form []shellcmd.Word) (treeRead, bool) {
	s := optSet{shortValue: "tSeBfT"}
	if name == "cp" {
		s = optSet{shortValue: "tS"}
	}
	opts, operands, _ := splitWords(form[1:], s.takesValue)
	rec := shortHas(opts, s, 'r') || shortHas(opts, s, 'R') || shortHas(opts, s, 'a') ||
		longHas(opts, "recursive", "archive")
	basis := rsyncBasisDirs(form)
	if !rec && len(basis) == 0 {
		return treeRead{}, false
	}
	target := shortHas(opts, s, 't') || longHas(opts, "target-directory")
	for _, t := range opts {
		target = target || strings.HasPrefix(t, "--target-directory=")
	}
	if !target && len(operands) > 0 {
		operands = operands[:len(operands)-1] // the destination
	}
	if !rec {
		operands = nil
	}
	follow := shortHas(opts, s, 'L') || longHas(opts, "dereference", "copy-links", "copy-unsafe-links", "copy-dirlinks")
	return treeRead{reader: name, dirs: append(operands, basis...), follow: follow}, true
}

// joinRaw joins name to dir as the kernel resolves it, without cleaning:
// "link/.." is the parent of the link's target, not ".". An absolute name
// stands alone.
func joinRaw(dir, name string) string {
	if dir == "" || strings.HasPrefix(name, "/") {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
