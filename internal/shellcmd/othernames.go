package shellcmd

import "strings"

// A program may be installed under other names: Homebrew's GNU tools with
// a "g" in front, uutils' with "uu-", find's rewrite bfs. Each is read as
// the program it names (sameAs), so its deny rules and self-protection
// apply; wrappers.go registers them.

// gnuPrefixed are GNU programs Homebrew installs with a "g" in front of
// their names (coreutils, findutils, tar, grep, diffutils, patch), so that
// macOS's own keep theirs: "grm -rf x" is rm, "gfind . -delete" is find.
// Homebrew's uutils installs its own with "uu-" in front: "uu-mv" is mv.
// An interpreter's g-name (gsed, gawk) is in interpreters.go.
const gnuPrefixed = "rm mv cp ln install chmod chown chgrp shred unlink rmdir mkdir touch truncate dd tee cat " +
	"tac head tail sort uniq split csplit cut paste join nl od fmt fold pr wc shuf base64 base32 basenc " +
	"md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum ls dir vdir du df stat readlink " +
	"realpath mktemp mkfifo mknod env nice nohup timeout stdbuf chroot printf echo test kill " +
	"find xargs locate tar grep egrep fgrep diff cmp diff3 sdiff patch"

// zshFilesBuiltins are the programs zsh's zsh/files module makes builtins
// of (zmodload zsh/files, or zmodload -F zsh/files b:zf_rm for one), each
// also under a name with "zf_" in front: "zf_rm x" removes x as rm does.
const zshFilesBuiltins = "rm mv ln mkdir rmdir chmod chown chgrp sync"

// sameAs reads a program as another name for program: the line runs
// program's form with the same words too ("bfs" is find, "gmv" is GNU mv
// under Homebrew's name), so rules and checks for program apply to it.
// That form is a command of its own, judged besides the program's: a rule
// allowing cat does not allow gcat, which may be any program of that name.
func sameAs(program string) handler {
	return func(form []Word) step {
		return step{others: [][]Word{append([]Word{{Kind: Static, Text: program}}, form[1:]...)}}
	}
}

// zargsHandler: zsh's zargs (an autoloaded function: autoload zargs) runs
// the command after its "--" with its inputs as arguments, "zargs -- x --
// rm" running rm x. A first "--" after nothing but options (and their
// numbers) ends them; the inputs after it may hold a "--" of their own, so
// the words after each later "--" are read as a command it may run. An
// end-of-input marker of its own (-e, --eof) is not followed.
func zargsHandler(form []Word) step {
	var st step
	options := true
	for i, wd := range form[1:] {
		t := wd.Text
		if wd.Kind == Static && (t == "--eof" || strings.HasPrefix(t, "--eof=") || strings.HasPrefix(t, "-e")) {
			st.notes = append(st.notes, Note{Kind: RunsCode, Text: "zargs runs the command after its end-of-input marker " + t + ", which is not followed"})
		}
		switch {
		case wd.Kind == Static && t == "--" && options:
			options = false // the end of the options
		case wd.Kind == Static && t == "--":
			if i+2 < len(form) {
				st.others = append(st.others, form[i+2:])
			}
		case wd.Kind != Static || !strings.HasPrefix(t, "-") && strings.Trim(t, "0123456789") != "":
			options = false
		}
	}
	return st
}

// zptyHandler: zsh's zpty (zmodload zsh/zpty) starts "zpty [-e] [-b] NAME
// ARG..." in a pseudo-terminal, its ARGs joined with spaces and run as eval
// runs them ("zpty p 'rm x'" runs rm x); "zpty -w NAME TEXT" types TEXT into
// the program running there, a shell's next line where that is a shell.
// Its other forms (-r, -t, -d, -L) run nothing.
func zptyHandler(form []Word) step {
	i, typed := 1, false
	for i < len(form) && form[i].Kind == Static && strings.HasPrefix(form[i].Text, "-") {
		switch strings.Trim(form[i].Text, "-eb") {
		case "":
		case "w", "wn", "nw":
			typed = true
		default:
			return step{}
		}
		i++
	}
	if i+1 >= len(form) {
		return step{}
	}
	st := evalHandler(append([]Word{{Kind: Static, Text: "eval"}}, form[i+1:]...))
	if typed {
		st.notes = []Note{{Kind: RunsCode, Text: "zpty -w types its text into the program running in the pseudo-terminal, which may run it as a command"}}
	}
	return st
}

// autoloadHandler: zsh's autoload, given a function's file by a name
// holding a "/" ("autoload -U /path/to/fn"), defines fn from that file, so
// that "fn" runs the file's commands as source does. Its script is read as
// a sourced file's; a second such file is not read.
func autoloadHandler(form []Word) step {
	var st step
	for _, wd := range form[1:] {
		if wd.Kind == Static && (strings.HasPrefix(wd.Text, "-") || strings.HasPrefix(wd.Text, "+")) {
			continue
		}
		if wd.Kind == Static && !strings.Contains(wd.Text, "/") {
			continue
		}
		if st.shellScript == nil && wd.Kind != Dynamic {
			w := wd
			st.shellScript = &w
			continue
		}
		st.notes = append(st.notes, Note{Kind: RunsCode, Text: "autoload defines a function from the file " + wd.String() + ", which the line may then run"})
	}
	return st
}
