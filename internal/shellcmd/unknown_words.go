package shellcmd

import "strings"

// A program no table of this package knows may run a word it is given as
// a shell command line, as pee, mispipe, chronic and a hundred others do
// ("foo 'cat .env'"): read as a file name only, the word decides nothing
// about the .env the line reads. So each static word of such a program
// that holds a blank, a newline or a shell operator, and the value of an
// option word (--cmd=...), is also read as sh code when it parses as
// such; its commands are decided as the line's own, and the strictest
// decision stands. A word that does not parse is not code sh could run.
//
// Programs known to take free text they never run (textPrograms: echo,
// grep, compilers, build tools, test runners, package managers), and the
// ones whose options that run code a table reads (optionRuns, codeOptions:
// tar, rsync, vim), are not read so: "grep 'a b' f", "go test -run 'A|B'", "pytest -k 'a or b'"
// decide as before.

// textPrograms are programs whose words are text, patterns or options,
// never a command line they run through a shell.
var textPrograms = setOfWords("echo printf true false : sleep test [ [[ expr seq yes date " +
	"grep egrep fgrep zgrep rg ag ack ugrep cat ls head tail wc sort uniq cut tr tac nl rev fmt fold paste join column " +
	"diff cmp comm md5sum sha1sum sha256sum sha512sum b2sum base64 xxd od hexdump file stat du df basename dirname " +
	"realpath readlink touch mkdir rmdir rm cp mv ln chmod chown chgrp install tee truncate shred unlink " +
	"jq gojq jaq gh glab hub hg svn jj fossil go gofmt goimports cargo rustc rustfmt gcc g++ cc c++ clang clang++ " +
	"make cmake ninja meson bazel gradle mvn javac java npm node-gyp pip pip3 pytest jest vitest mocha rspec " +
	"docker podman kubectl helm terraform curl wget man notify-send logger say kill pkill pgrep killall " +
	"printenv id whoami uname hostname ps tput stty less more bat tree which type")

// setOfWords returns the space-separated words of s as a set.
func setOfWords(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// maxUnknownWords bounds the words of one unknown program read as code.
const maxUnknownWords = 8

// unknownProgram reads the words of a program no handler knows that may
// be shell command lines (see above) as sh code run where c runs.
func (w *walker) unknownProgram(c *Command, form []Word, depth int) {
	name := form[0].Name()
	if _, runs := optionRuns[name]; runs || textPrograms[name] || codeOptions[name] != nil {
		return // its words are read by its own table
	}
	read := 0
	for _, wd := range form[1:] {
		if wd.Kind != Static {
			continue
		}
		texts := []string{wd.Text}
		if strings.HasPrefix(wd.Text, "-") {
			if _, v, ok := strings.Cut(wd.Text, "="); ok {
				texts = append(texts, v)
			}
		}
		for _, t := range texts {
			if read >= maxUnknownWords || !strings.ContainsAny(t, " \t\n;&|`$()<>") {
				continue
			}
			var langs dialects
			for _, lang := range dialectsOf("sh") {
				if _, err := parse(t, lang); err == nil {
					langs = append(langs, lang)
				}
			}
			if len(langs) == 0 {
				continue
			}
			read++
			w.cur = c.Dir
			w.line(t, depth+1, langs)
		}
	}
}
