package governance

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// rsync --link-dest=DIR makes each file it would copy to DEST/rel, when
// DIR/rel matches it (by size and time, or size alone with --size-only),
// a hard link to DIR/rel instead: the file DEST/rel is then DIR/rel, and
// what a later command writes there lands in DIR. A relative DIR is read
// from the destination directory (from DEST's own directory when DEST
// names a file). The option may be given many times, its value attached
// ("--link-dest=DIR") or as the next word; rsync takes only its whole
// name, and openrsync (getopt_long) any prefix no other option shares
// ("--link-"), which is read the same. --copy-dest copies DIR/rel instead
// and --compare-dest only skips the file: neither links.

// rsyncLinks is what an rsync form's --link-dest options say of the hard
// links it may make.
type rsyncLinks struct {
	dirs    []string   // each DIR, absolute, as read from where the files go
	links   []madeLink // DEST leading to DIR, kept for later requests
	unknown bool       // a DIR or the destination is known only when the form runs
}

// rsyncLinkDest reads an rsync form run in dir for --link-dest; ok is
// false when it has none (or is no rsync form, or copies to a remote
// host).
func rsyncLinkDest(form []shellcmd.Word, dir string) (rl rsyncLinks, ok bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "rsync" {
		return rl, false
	}
	vals, ops, missing := rsyncDirOptions(form, "link-dest")
	rl.unknown = missing
	if len(vals) == 0 && !rl.unknown {
		return rl, false
	}
	if len(ops) == 0 || ops[len(ops)-1].Kind != shellcmd.Static {
		rl.unknown = true
		return rl, true
	}
	dest := ops[len(ops)-1].Text
	if remoteRsyncPath(dest) {
		return rl, false
	}
	d := joinRaw(dir, dest)
	// DEST is the directory the files go in, or the name of the one
	// file copied there (from DEST's directory, under DEST's name).
	fileDest := !strings.HasSuffix(dest, "/") && !isDirNow(d)
	for _, v := range vals {
		if v.Kind != shellcmd.Static {
			rl.unknown = true
			continue
		}
		from := []string{v.Text}
		if !strings.HasPrefix(v.Text, "/") {
			from = []string{strings.TrimSuffix(d, "/") + "/" + v.Text}
			if fileDest {
				from = append(from, filepath.Dir(filepath.Clean(d))+"/"+v.Text)
			}
		}
		name := filepath.Clean(d)
		for _, t := range from {
			rl.dirs = append(rl.dirs, t)
			if _, within := cutDir(name, filepath.Clean(t)); within {
				// A DIR inside DEST: its files are beneath DEST
				// already, each decided as itself, and a link kept
				// to a place beneath its own name leads on forever.
				continue
			}
			rl.links = append(rl.links, madeLink{name: name, target: t, hard: true})
			if fileDest {
				rl.links = append(rl.links, madeLink{name: name, target: t + "/" + filepath.Base(name), hard: true})
			}
		}
	}
	return rl, true
}

// rsyncDirOptions reads an rsync form for the values of the long options
// names (each taken whole, or by a prefix of five letters or more that
// openrsync's getopt_long takes for it), and its operands; missing says
// one of them is last, without its value.
func rsyncDirOptions(form []shellcmd.Word, names ...string) (vals, ops []shellcmd.Word, missing bool) {
	s := operandOptions["rsync"]
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if long, isLong := strings.CutPrefix(t, "--"); isLong {
			n, v, eq := strings.Cut(long, "=")
			named := false
			for _, full := range names {
				named = named || len(n) >= 5 && strings.HasPrefix(full, n)
			}
			if named {
				if val := o.value(v, eq); val != nil {
					vals = append(vals, *val)
				} else {
					missing = true
				}
				continue
			}
			if s.longValueName(n) != "" {
				o.value(v, eq)
			}
			continue
		}
		o.shortCluster(s.shortValue, nil)
	}
	return vals, o.ops, missing
}

// rsyncBasisDirs returns the directories an rsync form's --link-dest and
// --copy-dest options name, whose files it links or copies into the
// destination where the agent can read them: as the command's directory
// reads them (a relative one joined to the destination, its last
// operand), static ones only.
func rsyncBasisDirs(form []shellcmd.Word) []string {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "rsync" {
		return nil
	}
	vals, ops, _ := rsyncDirOptions(form, "link-dest", "copy-dest")
	if len(vals) == 0 || len(ops) == 0 || ops[len(ops)-1].Kind != shellcmd.Static {
		return nil
	}
	dest := ops[len(ops)-1].Text
	if remoteRsyncPath(dest) {
		return nil
	}
	var out []string
	for _, v := range vals {
		if v.Kind != shellcmd.Static {
			continue
		}
		// As the kernel reads it once rsync has made the destination,
		// and cleaned, as it reads it where the destination is missing
		// now ("d/../vault" before d exists).
		p := joinRaw(dest, v.Text)
		out = append(out, p)
		if c := filepath.Clean(p); c != p {
			out = append(out, c)
		}
	}
	return out
}

// remoteRsyncPath reports whether an rsync operand names a path on
// another host: "host:path", "user@host:path" or "rsync://host/path"
// (a ":" before any "/").
func remoteRsyncPath(p string) bool {
	if strings.HasPrefix(p, "rsync://") {
		return true
	}
	colon := strings.IndexByte(p, ':')
	slash := strings.IndexByte(p, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

// rsyncLinkDestReaches decides an rsync form of a line that runs other
// commands, run in one of dirs, for the bridge's own files: a --link-dest
// directory that is, lies beneath or holds a protected location makes
// hard links to it that the line's other commands may write through, and
// one known only when the line runs may; both are denied.
func (e *Engine) rsyncLinkDestReaches(in *reqInfo, list []protected, form []shellcmd.Word, dirs []string, line, source string) (verdict, bool) {
	for _, dir := range dirs {
		rl, ok := rsyncLinkDest(form, dir)
		if !ok {
			return verdict{}, false
		}
		if rl.unknown {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: "deny commands naming protected locations (built-in self-protection)",
				reason: fmt.Sprintf("running %q: %q makes hard links (--link-dest) where, or to a place, known only when the line runs, and the line runs other commands that may use them; run it on its own first", strings.TrimSpace(line), strings.TrimSpace(source))}, true
		}
		for _, d := range rl.dirs {
			if pr, f, ok := in.pathMatch(d, list, holds); ok {
				return verdict{value: Deny, ref: "self-protection",
					ruleTx: fmt.Sprintf("deny commands naming %s (built-in self-protection)", pr.What),
					reason: fmt.Sprintf("running %q: %q makes hard links (--link-dest) to the files of %s, which holds %s (%s), and the line runs other commands that may write through them; %s is protected from the agent whatever the policy says", strings.TrimSpace(line), strings.TrimSpace(source), d, f, pr.What, pr.What)}, true
			}
		}
	}
	return verdict{}, false
}
