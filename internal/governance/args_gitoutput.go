package governance

import (
	"cmp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitDiffWriters are git's subcommands that take the diff options, whose
// --output=FILE writes what the command prints to FILE: "git diff
// --output=keys/a.key" replaces keys/a.key with a diff.
var gitDiffWriters = map[string]bool{"diff": true, "log": true, "show": true, "whatchanged": true,
	"diff-files": true, "diff-index": true, "diff-tree": true, "format-patch": true, "range-diff": true}

// gitOutputWrites returns the files a git command writes by an option or
// an operand: the diff options' --output of gitDiffWriters (as
// --output=FILE or --output FILE; git takes no shorter spelling,
// --output-indicator-* also beginning so); format-patch's -o DIR, -oDIR
// and --output-directory (or a prefix of it past "--output-"), the
// directory its patches are written into; archive's -o and --output;
// the file "bundle create" makes; fast-export's and fast-import's
// --export-marks; the file merge-file merges into (its first operand);
// and init's and clone's --separate-git-dir. Each is decided as a write,
// relative to the directory git's -C options lead to.
func gitOutputWrites(form []shellcmd.Word) []argWord {
	g := shellcmd.GitOptions(form)
	if g.At >= len(form) || form[g.At].Kind != shellcmd.Static {
		return nil
	}
	sub := form[g.At].Text
	switch sub {
	case "archive", "bundle", "fast-export", "fast-import", "merge-file", "init", "clone":
		return gitOtherWrites(form, g, sub)
	case "apply":
		return gitApplyWrites(form, g)
	}
	if !gitDiffWriters[sub] {
		return nil
	}
	base := ""
	for _, d := range g.Dirs {
		base = joinRaw(base, d.Text)
	}
	patches := form[g.At].Text == "format-patch"
	var out []argWord
	add := func(w shellcmd.Word, v string) {
		if w.Kind == shellcmd.Dynamic || v == "" {
			out = append(out, argWord{word: w, text: w.Text, write: true})
			return
		}
		out = append(out, argWord{word: w, text: joinRaw(base, v), write: true})
	}
	args := form[g.At+1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.Text
		if w.Kind == shellcmd.Static && t == "--" {
			break
		}
		next := func() {
			if i+1 < len(args) {
				i++
				add(args[i], args[i].Text)
			}
		}
		name, value, eq := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		switch {
		case !strings.HasPrefix(t, "--") && patches && strings.HasPrefix(t, "-") && strings.Contains(t, "o"):
			// -o in a cluster ("-ko DIR", "-kqoDIR"); the diff options
			// format-patch also takes are not all known, so any "o"
			// of a cluster is taken for -o.
			if j := strings.IndexByte(t, 'o'); j == len(t)-1 {
				next()
			} else {
				add(w, t[j+1:])
			}
		case !strings.HasPrefix(t, "--"):
		case name == "output" || patches && len(name) > len("output-") && strings.HasPrefix("output-directory", name):
			if eq {
				add(w, value)
			} else {
				next()
			}
		}
	}
	if patches {
		// git -c format.outputDirectory=DIR is -o DIR (its key in any
		// case, as git reads keys).
		for _, c := range g.Configs {
			key, value, ok := strings.Cut(c.Text, "=")
			if c.Kind == shellcmd.Dynamic {
				out = append(out, argWord{word: c, text: c.Text, write: true})
			} else if ok && strings.EqualFold(strings.TrimSpace(key), "format.outputDirectory") {
				add(c, value)
			}
		}
		out = append(out, patchFilesNamed(args, base, out)...)
	}
	return out
}

// patchFilesNamed returns, for git format-patch with --suffix (args its
// words after the subcommand), one patch file in each directory it writes
// them in (dirs, or base), named as the patches are: "NNNN-subject" and
// the suffix, which a rule may refuse ("--suffix=.key" in a directory
// Edit(./keys/*.key) protects).
func patchFilesNamed(args []shellcmd.Word, base string, dirs []argWord) []argWord {
	suffix := ""
words:
	for i, w := range args {
		switch t := w.Text; {
		case w.Kind == shellcmd.Static && t == "--":
			break words
		case strings.HasPrefix(t, "--suffix="):
			suffix = strings.TrimPrefix(t, "--suffix=")
		case t == "--suffix" && i+1 < len(args):
			suffix = args[i+1].Text
		}
	}
	if suffix == "" {
		return nil
	}
	if len(dirs) == 0 {
		dirs = []argWord{{text: cmp.Or(base, ".")}}
	}
	var out []argWord
	for _, d := range dirs {
		name := joinRaw(d.text, "0001-patch"+suffix)
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: name}, text: name, write: true})
	}
	return out
}

// gitOtherWrites is gitOutputWrites for git's subcommands other than the
// diff commands.
func gitOtherWrites(form []shellcmd.Word, g shellcmd.GitGlobals, sub string) []argWord {
	base := ""
	for _, d := range g.Dirs {
		base = joinRaw(base, d.Text)
	}
	var out []argWord
	add := func(w shellcmd.Word, v string) {
		if w.Kind == shellcmd.Dynamic {
			out = append(out, argWord{word: w, text: w.Text, write: true})
			return
		}
		out = append(out, argWord{word: w, text: joinRaw(base, v), write: true})
	}
	args := form[g.At+1:]
	if sub != "fast-export" && sub != "fast-import" && sub != "bundle" {
		gitReadWrites(form[g.At+1:], sub, base, add)
		return out
	}
	operand := 0 // operands seen so far
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.Text
		if w.Kind == shellcmd.Static && t == "--" {
			break
		}
		name, value, eq := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		long := strings.HasPrefix(t, "--")
		var takes bool // the option names a file written
		switch {
		case (sub == "fast-export" || sub == "fast-import") && long && name == "export-marks":
			takes = true
		case strings.HasPrefix(t, "-") && w.Kind == shellcmd.Static:
			continue
		default:
			operand++
			if sub == "bundle" && operand == 2 && wordText(args, 0) == "create" {
				add(w, t)
			}
			continue
		}
		if !takes {
			continue
		}
		switch {
		case eq:
			add(w, value)
		case i+1 < len(args):
			i++
			add(args[i], args[i].Text)
		}
	}
	return out
}

// gitReadWrites is gitOtherWrites for archive, merge-file, init and
// clone, whose options are read as git reads them (ReadGitArgs: "-vo F"
// and "--out F" are archive's -o F, "--sep D" is --separate-git-dir D,
// "-qp" is merge-file's --stdout) in args, the words after the
// subcommand; add takes each file written, base is where git's -C
// options lead. A word known only at run time that begins as an option
// may be any of them.
func gitReadWrites(args []shellcmd.Word, sub, base string, add func(w shellcmd.Word, v string)) {
	o := shellcmd.ReadGitArgs(sub, args)
	if sub == "merge-file" && o.Surely("stdout") {
		return // printed, not merged into the file
	}
	for _, name := range []string{"output", "separate-git-dir"} {
		if name == "output" && sub != "archive" || name == "separate-git-dir" && sub != "init" && sub != "clone" {
			continue
		}
		for _, v := range o.Values(name) {
			add(v, v.Text)
		}
	}
	for i, w := range o.Operands {
		switch {
		case w.Kind == shellcmd.Dynamic && strings.HasPrefix(w.Text, "-"):
			add(w, w.Text)
		case i == 0 && (sub == "merge-file" || sub == "init"):
			// merge-file's first operand is the file it merges into;
			// init's the directory it makes a repository in, whose
			// .git (or, --bare, whose files) it creates: decided as
			// that directory, since its .git is new.
			add(w, w.Text)
		}
	}
	if sub == "init" && len(o.Operands) == 0 && base != "" {
		// Where -C has it run: "git -C keys init".
		add(shellcmd.Word{Kind: shellcmd.Static, Text: "."}, ".")
	}
}

// gitApplyWrites returns the index file git apply's
// --build-fake-ancestor=F (or a prefix of it, "--bu") writes.
func gitApplyWrites(form []shellcmd.Word, g shellcmd.GitGlobals) []argWord {
	base := ""
	for _, d := range g.Dirs {
		base = joinRaw(base, d.Text)
	}
	var out []argWord
	args := form[g.At+1:]
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if args[i].Kind == shellcmd.Static && t == "--" {
			break
		}
		name, value, eq := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		if !strings.HasPrefix(t, "--") || len(name) < len("bu") || !strings.HasPrefix("build-fake-ancestor", name) {
			continue
		}
		w := args[i]
		if !eq {
			if i+1 >= len(args) {
				break
			}
			i++
			w, value = args[i], args[i].Text
		}
		if w.Kind == shellcmd.Dynamic {
			out = append(out, argWord{word: w, text: w.Text, write: true})
			continue
		}
		out = append(out, argWord{word: w, text: joinRaw(base, value), write: true})
	}
	return out
}
