package shellcmd

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program no table of this package knows may run a word it is given as
// a shell command line, as pee, mispipe, chronic and a hundred others do
// ("foo 'cat .env'"): read as a file name only, the word decides nothing
// about the .env the line reads. So each static word of such a program
// that holds a blank, a newline or a shell operator, and the value of an
// option word (--cmd=...), is also read as sh code when it parses as such
// and looks like a command line (looksLikeCode: a command the bridge
// knows, or a redirection); its commands are decided as the line's own,
// and the strictest decision stands. Text that is not code sh could run,
// or names no command the bridge knows ("select * from t", "$x > 5"), is
// not read so.
//
// Programs known to take free text they never run (textPrograms: echo,
// grep, compilers, build tools, test runners, package managers, ssh's
// command for another host), and the ones whose options that run code a
// table reads (optionRuns, codeOptions: tar, rsync, vim), are not read so:
// "grep 'a b' f", "go test -run 'A|B'", "pytest -k 'a or b'" decide as
// before.

// textPrograms are programs whose words are text, patterns or options,
// never a command line they run through a shell.
var textPrograms = setOfWords("echo printf true false : sleep test [ [[ expr seq yes date " +
	"grep egrep fgrep zgrep rg ag ack ugrep cat ls head tail wc sort uniq cut tr tac nl rev fmt fold paste join column " +
	"diff cmp comm md5sum sha1sum sha256sum sha512sum b2sum base64 xxd od hexdump file stat du df basename dirname " +
	"realpath readlink touch mkdir rmdir rm cp mv ln chmod chown chgrp install tee truncate shred unlink " +
	"jq gojq jaq gh glab hub hg svn jj fossil go gofmt goimports cargo rustc rustfmt gcc g++ cc c++ clang clang++ " +
	"make cmake ninja meson bazel gradle mvn javac java npm node-gyp pip pip3 pytest jest vitest mocha rspec " +
	"docker podman kubectl helm terraform curl wget man notify-send logger say kill pkill pgrep killall " +
	"printenv id whoami uname hostname ps tput stty less more bat tree which type ssh mosh aws gcloud az")

// commonCommands are programs with no table here that a command line
// runs often enough to mark a word as one (looksLikeCode).
var commonCommands = setOfWords("cd dd zip unzip gzip gunzip bzip2 xz zstd 7z scp sftp strings split csplit sponge patch nano vi")

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
			if len(langs) == 0 || !looksLikeCode(t, langs) {
				continue
			}
			read++
			w.cur = c.Dir
			w.line(t, depth+1, langs)
		}
	}
}

// looksLikeCode reports whether the sh text t, parsed in each of langs,
// runs a command the bridge knows (knownProgram) anywhere, in a command
// substitution too, or redirects a command whose name is static: the text
// an unknown program is given is then taken for a command line it may
// run. Text whose commands are all unknown words is taken for text.
func looksLikeCode(t string, langs dialects) bool {
	found := false
	for _, lang := range langs {
		f, err := parse(t, lang)
		if err != nil {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Stmt:
				if call, ok := x.Cmd.(*syntax.CallExpr); ok && len(x.Redirs) > 0 && len(call.Args) > 0 && plainName(call.Args[0].Lit()) {
					found = true
				}
			case *syntax.CallExpr:
				if len(x.Args) > 0 && knownProgram(path.Base(x.Args[0].Lit())) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// plainName reports whether s is a command name written plainly: not
// empty, no glob character, no bracket ("x > f" is; "a[?b > 1]" of a
// query language is not).
func plainName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "*?[]{}")
}

// knownProgram reports whether name is a program some table of this
// package knows: a wrapper, shell, interpreter or runner, a program of
// free text, one whose options run code, or a common command.
func knownProgram(name string) bool {
	if name == "" || name == "." {
		return false
	}
	if _, ok := optionRuns[name]; ok {
		return true
	}
	return handlers[name] != nil || interpreterHandler(name) != nil || runnerHandler(name) != nil ||
		shellFamilyHandler(name) != nil || textPrograms[name] || codeOptions[name] != nil || commonCommands[name]
}
