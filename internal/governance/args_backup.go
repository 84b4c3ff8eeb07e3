package governance

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// cp, mv, install, ln, rsync and patch back up the file they replace
// when asked to (-b, --backup, or a suffix given with -S, -z or
// --suffix): the file there is renamed to its name followed by the
// suffix, "~" (patch: ".orig") unless one is given.
// That name is written, though no word of the line holds it: "cp -b -S
// .md evil GOVERNANCE" renames the agent's GOVERNANCE over the policy
// GOVERNANCE.md. backupWrites gives each such name as a file written.
// SIMPLE_BACKUP_SUFFIX, which sets the suffix too, is an environment
// variable that needs approval (shellcmd's envChangesCommands).

// backuper describes the backup options of one program.
type backuper struct {
	// valued are its short options that take a value.
	valued string
	// suffix is its short option giving the suffix, if any (cp's S,
	// patch's z); --suffix is the long one.
	suffix byte
	// elsewhere are long options that put backups under names the
	// suffix does not give (rsync's --backup-dir, patch's --prefix and
	// --basename-prefix), and short is their short forms (patch's B, Y).
	elsewhere []string
	short     string
	// first: the file replaced is the first operand (patch), not the
	// last or -t's directory.
	first bool
}

// backupers are the programs that back up what they replace.
var backupers = map[string]backuper{
	"cp":      {valued: "tS", suffix: 'S'},
	"mv":      {valued: "tS", suffix: 'S'},
	"ln":      {valued: "tS", suffix: 'S'},
	"install": {valued: "tSmogZ", suffix: 'S'},
	"rsync":   {valued: "eBfTM", elsewhere: []string{"backup-dir"}},
	"patch":   {valued: "pdDiorzBYVFgx", suffix: 'z', elsewhere: []string{"prefix", "basename-prefix"}, short: "BY", first: true},
}

// backupWrites returns the backup names a cp, mv, install, ln, rsync or
// patch form may write; a name only known when the line runs (a computed
// suffix, rsync's --backup-dir, patch's -B and -Y, patch's backups of the
// files its diff names) as such.
func backupWrites(form []shellcmd.Word) []argWord {
	name := filepath.Base(form[0].Text)
	switch name {
	case "sed":
		return sedBackupWrites(form)
	case "perl", "ruby":
		return perlBackupWrites(form)
	}
	bo, ok := readBackupOptions(name, form)
	if !ok || !bo.on {
		return nil
	}
	suffix, elsewhere, dir, ops := bo.suffix, bo.elsewhere, bo.dir, bo.ops
	unknown := func(what string) []argWord {
		return []argWord{{word: shellcmd.Word{Kind: shellcmd.Dynamic, Text: what, Why: "computed by " + name}, text: what, write: true}}
	}
	if elsewhere != "" {
		return unknown("the backups " + name + " " + elsewhere + " names")
	}
	if suffix != nil && suffix.Kind == shellcmd.Dynamic {
		return []argWord{{word: *suffix, text: suffix.Text, write: true}}
	}
	var dests []string
	switch {
	case backupers[name].first && len(ops) == 0:
		return unknown("the backups of the files " + name + "'s diff names")
	case backupers[name].first:
		dests = append(dests, ops[0].Text)
	case dir != "":
		for _, o := range ops {
			dests = append(dests, strings.TrimSuffix(dir, "/")+"/"+path.Base(o.Text))
		}
	case len(ops) > 1:
		last := ops[len(ops)-1].Text
		dests = append(dests, last)
		for _, o := range ops[:len(ops)-1] {
			dests = append(dests, strings.TrimSuffix(last, "/")+"/"+path.Base(o.Text))
		}
	}
	sfx := "~"
	if suffix != nil {
		sfx = suffix.Text
	} else if name == "patch" {
		sfx = ".orig"
	}
	var out []argWord
	for _, d := range dests {
		n := d + sfx
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
		if suffix == nil {
			// SIMPLE_BACKUP_SUFFIX, set on the line, exported before
			// it or in the request's env, gives another suffix:
			// "SIMPLE_BACKUP_SUFFIX=.md cp -b evil GOVERNANCE".
			what := "the backup of " + d + " under the suffix SIMPLE_BACKUP_SUFFIX may give"
			out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Dynamic, Text: what, Why: "computed by " + name}, text: what, write: true,
				backupOf: d, protectOnly: true})
		}
	}
	return out
}

// sedBackupWrites returns the backups a sed -i with a suffix writes
// (-i.bak, -ni.bak, --in-place=.bak): each file it edits, FILE, is first
// copied to FILE followed by the suffix, or, when the suffix holds "*",
// to the suffix with each "*" made FILE's base name, which may name
// another directory ("--in-place='bak/*'"), read from the file's
// directory and from the command's. A computed suffix is a name known
// only when the line runs.
func sedBackupWrites(form []shellcmd.Word) []argWord {
	var suffix *shellcmd.Word
	for _, w := range form[1:] {
		t := w.Text
		if w.Kind == shellcmd.Static && t == "--" {
			break
		}
		if n, v, ok := strings.Cut(strings.TrimPrefix(t, "--"), "="); ok && strings.HasPrefix(t, "--") && len(n) >= 2 && longPrefix(n, "in-place") {
			suffix = &shellcmd.Word{Kind: w.Kind, Text: v} // --in-place=, --in=
			continue
		}
		if len(t) < 3 || t[0] != '-' || t[1] == '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte("efl", t[j]) >= 0 {
				break // the rest is that option's value
			}
			if t[j] == 'i' {
				if j+1 < len(t) {
					suffix = &shellcmd.Word{Kind: w.Kind, Text: t[j+1:]}
				}
				break
			}
		}
	}
	if suffix == nil || suffix.Text == "" {
		return nil
	}
	if suffix.Kind == shellcmd.Dynamic {
		return []argWord{{word: *suffix, text: suffix.Text, write: true}}
	}
	var out []argWord
	add := func(n string) {
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
	}
	for i := range writtenWords(form) {
		f := form[i].Text
		if !strings.Contains(suffix.Text, "*") {
			add(f + suffix.Text)
			continue
		}
		b := strings.ReplaceAll(suffix.Text, "*", path.Base(f))
		add(b)
		if d := path.Dir(f); d != "." && !strings.HasPrefix(b, "/") {
			add(d + "/" + b)
		}
	}
	return out
}

// backupOptions is what a backuper's options say of its backups.
type backupOptions struct {
	on        bool           // it backs up what it replaces (-b, --backup, a suffix)
	suffix    *shellcmd.Word // the suffix given, nil for the default
	elsewhere string         // the option putting backups under other names, if any
	dir       string         // -t's directory
	ops       []shellcmd.Word
}

// readBackupOptions reads the backup options of a form of one of
// backupers (name); ok is false for any other program.
func readBackupOptions(name string, form []shellcmd.Word) (backupOptions, bool) {
	b, ok := backupers[name]
	if !ok {
		return backupOptions{}, false
	}
	backup, elsewhere := false, ""
	var suffix *shellcmd.Word
	var dir string
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if n, v, eq, ok := longOption(t); ok {
			switch {
			case len(n) < 2:
			case n == "backup" || longPrefix(n, "backup") && !longPrefix(n, "backup-dir"):
				// --backup whole is itself, not a prefix of --backup-dir
				backup = true
			case longPrefix(n, "suffix"):
				backup, suffix = true, o.value(v, eq)
			case longPrefix(n, "target-directory") && name != "patch":
				if s := o.value(v, eq); s != nil {
					dir = s.Text
				}
			case anyLong(n, b.elsewhere):
				backup, elsewhere = true, t
				o.value(v, eq)
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c == 'b' {
				backup = true
			}
			if strings.IndexByte(b.short, c) >= 0 {
				backup, elsewhere = true, t
			}
			if strings.IndexByte(b.valued, c) < 0 {
				continue
			}
			v := o.value(t[j+1:], j+1 < len(t))
			switch {
			case c == b.suffix:
				backup, suffix = true, v
			case c == 't' && name != "patch" && v != nil:
				dir = v.Text
			}
			break
		}
	}
	return backupOptions{on: backup, suffix: suffix, elsewhere: elsewhere, dir: dir, ops: o.ops}, true
}
