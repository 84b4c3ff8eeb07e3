package governance

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// cp, mv, install and ln back up the file they replace when asked to
// (-b, --backup, or a suffix given with -S or --suffix): the file there
// is renamed to its name followed by the suffix, "~" unless one is given.
// That name is written, though no word of the line holds it: "cp -b -S
// .md evil GOVERNANCE" renames the agent's GOVERNANCE over the policy
// GOVERNANCE.md. backupWrites gives each such name as a file written.
// SIMPLE_BACKUP_SUFFIX, which sets the suffix too, is an environment
// variable that needs approval (shellcmd's envChangesCommands).

// backupWrites returns the backup names a cp, mv, install or ln form may
// write.
func backupWrites(form []shellcmd.Word) []argWord {
	name := filepath.Base(form[0].Text)
	w, ok := operandWriters[name]
	if !ok || !writesLast[name] || name == "rsync" || name == "scp" {
		return nil
	}
	backup := false
	var suffix *shellcmd.Word
	var dir string
	var ops []shellcmd.Word
	for i := 1; i < len(form); i++ {
		wd := form[i]
		t := wd.Text
		if wd.Kind == shellcmd.Static && t == "--" {
			ops = append(ops, form[i+1:]...)
			break
		}
		if wd.Kind == shellcmd.Dynamic || len(t) < 2 || t[0] != '-' {
			ops = append(ops, wd)
			continue
		}
		next := func(v string, attached bool) *shellcmd.Word {
			if attached {
				return &shellcmd.Word{Kind: wd.Kind, Text: v}
			}
			if i+1 < len(form) {
				i++
				return &form[i]
			}
			return nil
		}
		if long, ok := strings.CutPrefix(t, "--"); ok {
			n, v, eq := strings.Cut(long, "=")
			switch {
			case longPrefix(n, "backup") && len(n) > 1:
				backup = true
			case longPrefix(n, "suffix") && len(n) > 1:
				backup, suffix = true, next(v, eq)
			case longPrefix(n, "target-directory") && len(n) > 1:
				if s := next(v, eq); s != nil {
					dir = s.Text
				}
			case w.opts.longValue[n] && !eq:
				i++
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if c == 'b' {
				backup = true
			}
			if strings.IndexByte(w.opts.shortValue, c) < 0 {
				continue
			}
			v := next(t[j+1:], j+1 < len(t))
			switch c {
			case 'S':
				backup, suffix = true, v
			case 't':
				if v != nil {
					dir = v.Text
				}
			}
			break
		}
	}
	if !backup {
		return nil
	}
	var dests []string
	switch {
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
	if suffix != nil && suffix.Kind == shellcmd.Dynamic {
		return []argWord{{word: *suffix, text: suffix.Text, write: true}}
	}
	sfx := "~"
	if suffix != nil {
		sfx = suffix.Text
	}
	var out []argWord
	for _, d := range dests {
		n := d + sfx
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
	}
	return out
}
