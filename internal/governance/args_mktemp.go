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

// readMktemp reads form as a mktemp command; ok is false for another
// program or a dry run. A word computed at run time makes the whole name
// one (name "").
func readMktemp(form []shellcmd.Word) (m mktempName, ok bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || form[0].Name() != "mktemp" {
		return mktempName{}, false
	}
	var template, suffix string
	var dirs []string
	hasTemplate, tmpdirOpt, tOpt, computed := false, false, false, false
	args := form[1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Kind != shellcmd.Static {
			computed = true
			continue
		}
		t := w.Text
		next := func() string {
			if i+1 < len(args) {
				i++
				computed = computed || args[i].Kind != shellcmd.Static
				return args[i].Text
			}
			return ""
		}
		switch long, value, hasValue := strings.Cut(strings.TrimPrefix(t, "--"), "="); {
		case t == "--":
			if i+1 < len(args) {
				template, hasTemplate = next(), true
			}
			i = len(args)
		case strings.HasPrefix(t, "--"):
			switch {
			case long == "":
			case strings.HasPrefix("dry-run", long) && len(long) >= 2:
				return mktempName{}, false
			case strings.HasPrefix("suffix", long):
				if !hasValue {
					value = next()
				}
				suffix = value
			case strings.HasPrefix("tmpdir", long):
				tmpdirOpt = true
				if value != "" {
					dirs = append(dirs, value)
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'u':
					return mktempName{}, false
				case 't':
					tOpt = true
				case 'p':
					tmpdirOpt = true
					d := t[j+1:]
					if d == "" {
						d = next()
					}
					if d != "" {
						dirs = append(dirs, d)
					}
					j = len(t)
				}
			}
		default:
			template, hasTemplate = t, true
		}
	}
	if computed {
		return mktempName{}, true
	}
	if !hasTemplate {
		template, tmpdirOpt = "tmp.XXXXXXXXXX", true
	}
	m.name = template + suffix
	switch {
	case tOpt:
		// $TMPDIR if set, else -p's directory, else /tmp: each may be.
		m.dirs, m.inTMPDIR = dirs, true
	case tmpdirOpt && len(dirs) > 0:
		m.dirs = dirs
	case tmpdirOpt:
		m.inTMPDIR = true
	default:
		m.dirs = []string{""}
	}
	return m, true
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
