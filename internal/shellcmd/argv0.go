package shellcmd

import (
	"path"
	"strings"
)

// A program's first argument, argv[0], is the name it was started under,
// and a multi-call program acts as the program that name says: busybox
// and toybox run the applet it names, git started as git-SUB runs "git
// SUB" (git.c's cmd_main). exec -a NAME (bash, zsh) and env -a NAME
// (--argv0) start a program under a NAME of the line's choosing, so
// "exec -a git-rm git status -rf ." runs "git rm status -rf .", which
// removes every tracked file, the policy among them, and "exec -a rm
// busybox ls x" runs rm. Such a command is decided as the program NAME
// says too, besides its own form (startedAs). zsh's ARGV0 does the same
// for every program zsh starts while it is exported (ARGV0=git-rm git
// status, or after set -a or export): each command after an assignment
// to it on the line is decided as the program each value says too, and
// setting it is asked about wherever it is set (env.go).

// startedAs returns the forms a command gets run as when its program is
// started with argv[0] name, besides form itself: name's last path
// element with the command's arguments (a login shell's leading "-" taken
// off, as busybox takes it off), and, for a git-SUB name, "git SUB" with
// them. A form without a command runs nothing.
func startedAs(name string, form []Word) [][]Word {
	base := strings.TrimLeft(path.Base(name), "-")
	if len(form) == 0 || base == "" || base == "." || base == "/" {
		return nil
	}
	args := form[1:]
	forms := [][]Word{append([]Word{{Kind: Static, Text: base}}, args...)}
	if sub, ok := strings.CutPrefix(base, "git-"); ok && sub != "" {
		forms = append(forms, append([]Word{{Kind: Static, Text: "git"}, {Kind: Static, Text: sub}}, args...))
	}
	return forms
}

// execRuns reads bash's and zsh's exec: its operands are the command it
// runs in the shell's place, under the name -a gives, when it gives one.
func execRuns(form []Word, p parsed) step {
	st := step{next: rest(form, p.next)}
	if name, ok := p.value("a"); ok {
		st.others = startedAs(name, st.next)
	}
	return st
}

// startedAsForms returns forms with, after them, the forms each of names
// gets them run as (startedAs).
func startedAsForms(forms [][]Word, names []string) [][]Word {
	out := forms
	for _, name := range names {
		for _, f := range forms {
			out = append(out, startedAs(name, f)...)
		}
	}
	return out
}
