package governance

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// patch writes the files its diff names ("+++ b/.claude/settings.json"),
// which no word of the line shows. patchUnpack reads where the diff comes
// from (-i, the second operand, or the command's input: a file or a
// here-document), and unpackVerdict decides each name, below -d's
// directory, as a write: every name -p's count of leading elements
// leaves, or, without -p, every name any count leaves. A diff whose
// names cannot be read (from a pipe, computed, made by another command of
// the line, a name leaving the directory, a link a git diff makes, no
// header naming a file, as in an ed script patch hands to ed) needs
// approval. Given the file to patch (its first operand), patch writes
// that file only, which is decided as a word of the line.

// patchShortValue are patch's short options that take a value.
const patchShortValue = "BdDFgiopruVxYz"

// patchUnpack is unpackOf for patch, whose input is in.
func patchUnpack(form []shellcmd.Word, in *shellcmd.Input) (unpack, bool) {
	u := unpack{prog: "patch", strip: -1}
	var input *shellcmd.Word
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		set := func(c byte, value *shellcmd.Word) {
			var v shellcmd.Word // an option at the end has an empty value
			if value != nil {
				v = *value
			}
			switch c {
			case 'i':
				input = &v
			case 'd':
				u.dir = v.Text
				if v.Kind == shellcmd.Dynamic {
					u.unknown = "the directory it works in is computed"
				}
			case 'p':
				n, err := strconv.Atoi(v.Text)
				if err != nil || n < 0 || v.Kind == shellcmd.Dynamic {
					u.unknown = "its -p is not a number"
				}
				u.strip = n
			case 'o':
				u.unknown = "" // written to -o's file alone, decided as a word
				u.prog = ""
			}
		}
		if n, v, eq, ok := longOption(t); ok {
			for _, l := range []struct {
				name string
				c    byte
			}{{"input", 'i'}, {"directory", 'd'}, {"strip", 'p'}, {"output", 'o'}} {
				if len(n) >= 2 && strings.HasPrefix(l.name, n) {
					set(l.c, o.value(v, eq))
				}
			}
			if len(n) >= 3 && strings.HasPrefix("dry-run", n) {
				return unpack{}, false
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(patchShortValue, t[j]) < 0 {
				continue
			}
			set(t[j], o.value(t[j+1:], j+1 < len(t)))
			break
		}
	}
	if u.prog == "" || len(o.ops) > 0 {
		return unpack{}, false // -o's file, or the file to patch: words of the line
	}
	if input != nil {
		u.archive = *input
	} else {
		u.diffFromInput(in)
	}
	u.checkStdinDiff()
	return u, true
}

// diffFromInput takes u's diff from the command's input, in, when no word
// of the line names it: a file, a here-document's text, or not known.
func (u *unpack) diffFromInput(in *shellcmd.Input) {
	switch {
	case in == nil:
		u.unknown = "it reads the diff from a pipe or the terminal"
	case in.File != nil:
		u.archive = *in.File
	case in.Known:
		u.text, u.textKnown = in.Text, true
	default:
		u.unknown = "its input is computed when the line runs"
	}
}

// checkStdinDiff marks u unknown when the diff it names is "-", read from
// a pipe or the terminal.
func (u *unpack) checkStdinDiff() {
	if u.archive.Text == "-" {
		u.unknown = "it reads the diff from a pipe or the terminal"
	}
}

// diffNames returns the file names a diff's headers give, or why they
// cannot be known.
func diffNames(r io.Reader) ([]string, string) {
	var names []string
	sc := bufio.NewScanner(io.LimitReader(r, maxUnpackBytes))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	add := func(n string) string {
		n = strings.TrimRight(n, " \r")
		if strings.HasPrefix(n, `"`) {
			u, err := strconv.Unquote(n)
			if err != nil {
				return "a quoted name (" + n + ") the bridge cannot read"
			}
			n = u
		}
		if n == "/dev/null" || n == "" {
			return ""
		}
		if len(names) >= maxOperands {
			return "it names too many files"
		}
		names = append(names, n)
		return ""
	}
	for sc.Scan() {
		line := sc.Text()
		var why string
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "*** "),
			strings.HasPrefix(line, "Index: "), strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "),
			strings.HasPrefix(line, "rename from "), strings.HasPrefix(line, "copy from "):
			_, rest, _ := strings.Cut(line, " ")
			if strings.HasPrefix(line, "rename ") || strings.HasPrefix(line, "copy ") {
				_, rest, _ = strings.Cut(rest, " ")
			}
			name, _, _ := strings.Cut(rest, "\t")
			why = add(name)
		case strings.HasPrefix(line, "diff --git "):
			for _, f := range strings.Fields(line)[2:] {
				if why = add(f); why != "" {
					break
				}
			}
		case strings.Contains(line, "120000") && (strings.HasPrefix(line, "new file mode") || strings.HasPrefix(line, "new mode") ||
			strings.HasPrefix(line, "index ") || strings.HasPrefix(line, "old mode") || strings.HasPrefix(line, "deleted file mode")):
			why = "it makes or changes a link"
		}
		if why != "" {
			return nil, why
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "it cannot be read (" + err.Error() + ")"
	}
	if len(names) == 0 {
		return nil, "no header names a file (patch would ask, or hand an ed script to ed)"
	}
	return names, ""
}

// diffFileNames is diffNames of the file at p; a file that is not there
// gives nothing to patch.
func diffFileNames(p string) ([]string, string) {
	f, why := openArchive(p, "the diff")
	if f == nil {
		return nil, why
	}
	defer f.Close()
	return diffNames(f)
}

// gitApplyUnpack is patchUnpack for "git apply" and "git am": the names
// of their diffs are relative to the top of the work tree (fromTop),
// after -p's count (1 by default) and below --directory. A git apply that
// only checks or reports (--check, --stat, --numstat, --summary without
// --apply), or applies to the index alone (--cached), writes no file.
// Options are read as git reads them (ReadGitArgs): "--dir=x" is
// --directory, "-Rp2" holds -p 2, "--check --app" applies.
func gitApplyUnpack(form []shellcmd.Word, in *shellcmd.Input) (unpack, bool) {
	var sub, base string
	var at int
	var ok bool
	for _, s := range []string{"apply", "am"} {
		if base, at, ok = gitSubcommand(form, s); ok {
			sub = s
			break
		}
	}
	if !ok {
		return unpack{}, false
	}
	u := unpack{prog: "git " + sub, strip: 1, fromTop: true}
	o := shellcmd.ReadGitArgs(sub, form[at+1:])
	if sub == "apply" && o.Surely("cached") {
		return unpack{}, false
	}
	report := sub == "apply" && (o.Surely("check") || o.Surely("stat") || o.Surely("numstat") || o.Surely("summary"))
	if report && !o.Has("apply") {
		return unpack{}, false
	}
	if d := o.Values("directory"); len(d) > 0 {
		u.dir = d[len(d)-1].Text
	}
	if p := o.Values("p"); len(p) > 0 {
		k, err := strconv.Atoi(p[len(p)-1].Text)
		if err != nil || k < 0 {
			u.unknown = "its -p is not a number"
		}
		u.strip = k
	}
	if o.Computed {
		u.unknown = "a word computed at run time may be one of its options"
	}
	ops := o.Operands
	switch {
	case len(ops) > 1:
		u.unknown = "it applies several diffs"
	case len(ops) == 1:
		u.archive = ops[0]
		if base != "" && !strings.HasPrefix(u.archive.Text, "/") && u.archive.Text != "-" {
			// git -C DIR opens the diff it is given in DIR.
			u.archive.Text = joinRaw(base, u.archive.Text)
		}
	default:
		u.diffFromInput(in)
	}
	u.checkStdinDiff()
	return u, true
}
