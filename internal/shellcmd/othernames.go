package shellcmd

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
