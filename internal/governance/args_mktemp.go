package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// mktemp creates a file (a directory with -d) whose name is its template
// with the last run of X's made random: "mktemp -p secrets --suffix=.key"
// creates secrets/tmp.XXXXXXXXXX.key, X's aside. The name is put together
// from every option that makes it (-p/--tmpdir[=DIR], -t, --suffix, the
// template, with or without a directory, the default tmp.XXXXXXXXXX) and
// decided as a write of that name, its X's as they stand, so the rules
// are matched against the pattern of the name it creates. -u (a dry run)
// creates nothing. A name in the temporary directory of the person's
// environment (no directory on the line) is not decided; one in the
// TMPDIR the line sets is.

// mktempName is what one mktemp command creates: name in the directories
// dirs ("" for where it runs), and whether it is in the TMPDIR of the
// environment (inTMPDIR).
type mktempName struct {
	name     string
	dirs     []string
	inTMPDIR bool
}

// mktempOpts are mktemp's options that take a value: -p DIR and
// --suffix SUFF; --tmpdir takes one only attached (--tmpdir=DIR).
var mktempOpts = optSet{shortValue: "p", longValue: map[string]bool{"suffix": true}}

// readMktemp reads form as a mktemp command; ok is false for another
// program or a dry run. Its options are read as every writer's are
// (optionWords, mktempOpts): clusters (-dp DIR, -psecrets), long options
// by any prefix getopt_long takes (--tmp=DIR, --suf .key), "--" before
// the template. A word computed at run time makes the whole name one
// (name "").
func readMktemp(form []shellcmd.Word) (m mktempName, ok bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || form[0].Name() != "mktemp" {
		return mktempName{}, false
	}
	computed := false
	for _, w := range form[1:] {
		computed = computed || w.Kind != shellcmd.Static
	}
	var opts, dirs []string
	suffix, tmpdirOpt := "", false
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		opts = append(opts, t)
		if long, value, attached := strings.Cut(strings.TrimPrefix(t, "--"), "="); strings.HasPrefix(t, "--") {
			switch {
			case longPrefix(long, "dry-run") && len(long) >= 2: // --d is --directory's too
				return mktempName{}, false
			case longPrefix(long, "suffix"):
				if !attached {
					value = optionText(o.value("", false))
				}
				suffix = value
			case longPrefix(long, "tmpdir"):
				tmpdirOpt = true
				if value != "" {
					dirs = append(dirs, value)
				}
			}
			continue
		}
		if !shortHas([]string{t}, mktempOpts, 'p') {
			continue
		}
		tmpdirOpt = true
		d := t[strings.IndexByte(t, 'p')+1:]
		if d == "" {
			d = optionText(o.value("", false))
		}
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if shortHas(opts, mktempOpts, 'u') {
		return mktempName{}, false
	}
	if computed {
		return mktempName{}, true
	}
	template, tmpdirDefault := "tmp.XXXXXXXXXX", true
	if len(o.ops) > 0 {
		template, tmpdirDefault = o.ops[len(o.ops)-1].Text, false
	}
	m.name = template + suffix
	switch {
	case shortHas(opts, mktempOpts, 't'):
		// $TMPDIR if set, else -p's directory, else /tmp: each may be.
		m.dirs, m.inTMPDIR = dirs, true
	case (tmpdirOpt || tmpdirDefault) && len(dirs) > 0:
		m.dirs = dirs
	case tmpdirOpt || tmpdirDefault:
		m.inTMPDIR = true
	default:
		m.dirs = []string{""}
	}
	return m, true
}

// optionText is the text of an option's value, "" when there is none.
func optionText(w *shellcmd.Word) string {
	if w == nil {
		return ""
	}
	return w.Text
}

// mktempWrites returns the names a mktemp command creates in the
// directories its words name (or where it runs), as words written.
func mktempWrites(form []shellcmd.Word) []argWord {
	m, ok := readMktemp(form)
	if !ok {
		return nil
	}
	if m.name == "" {
		return []argWord{mktempWord(shellcmd.Word{Kind: shellcmd.Dynamic, Text: "mktemp's name"})}
	}
	var out []argWord
	for _, d := range m.dirs {
		out = append(out, mktempWord(shellcmd.Word{Kind: shellcmd.Static, Text: joinDir(d, m.name)}))
	}
	return out
}

// mktempLineTMPDIR returns the names a mktemp command of c creates in a
// TMPDIR the line sets (assignments), as words written; a TMPDIR computed
// at run time makes a name not known until then.
func mktempLineTMPDIR(c *shellcmd.Command, assignments []shellcmd.Assignment) []argWord {
	var out []argWord
	for _, form := range c.Forms {
		m, ok := readMktemp(form)
		if !ok || !m.inTMPDIR || m.name == "" {
			continue
		}
		for _, as := range assignments {
			if as.Name != "TMPDIR" {
				continue
			}
			if !as.Static || as.Append {
				out = append(out, mktempWord(shellcmd.Word{Kind: shellcmd.Dynamic, Text: "$TMPDIR/" + m.name}))
				continue
			}
			if as.Value != "" {
				out = append(out, mktempWord(shellcmd.Word{Kind: shellcmd.Static, Text: joinDir(as.Value, m.name)}))
			}
		}
	}
	return out
}

// joinDir is name in the directory dir ("" for where the command runs),
// not cleaned: the name leads where the program's open leads.
func joinDir(dir, name string) string {
	if dir == "" || filepath.IsAbs(name) {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// mktempWord is the name w as a word mktemp creates.
func mktempWord(w shellcmd.Word) argWord {
	return argWord{word: w, text: w.Text, write: true, namedBy: "the name mktemp creates, its X's made random"}
}
