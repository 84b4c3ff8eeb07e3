package governance

import (
	"io"
	"path/filepath"
	"strings"
)

// A program run by its path (./s.sh) is what its first bytes say: the
// kernel runs the interpreter its "#!" line names, with the rest of that
// line as one argument, and bash runs a text file with no "#!" itself.
// Only the first shebangBytes are read to tell, so a large binary is not
// read whole; a shell's file, or one with no interpreter, is then read
// as shell code (script_commands.go), and the "#!" line is decided as the
// command it is.

// shellNames are the shells a script or a shebang may name.
var shellNames = setOf("sh", "bash", "rbash", "dash", "ash", "posh", "zsh", "ksh", "mksh", "yash", "busybox")

// shellScriptText reports whether text is run as a shell script when
// executed by its path: its first line names a shell (#!/bin/sh,
// #!/usr/bin/env bash), or it has no "#!" and is not binary, which bash
// then runs itself.
func shellScriptText(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutPrefix(first, "#!")
	if !ok {
		return strings.IndexByte(first, 0) < 0
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return true // an empty interpreter: the kernel refuses, bash runs it
	}
	prog := filepath.Base(words[0])
	if prog == "env" {
		prog = ""
		for _, wd := range words[1:] {
			if !strings.HasPrefix(wd, "-") && !strings.Contains(wd, "=") {
				prog = filepath.Base(wd)
				break
			}
		}
	}
	return shellNames[prog]
}

// shebangBytes is how much of a program's start the kernel reads for its
// "#!" line (BINPRM_BUF_SIZE), and the bridge with it.
const shebangBytes = 256

// readHead returns up to n bytes from the start of the regular file at p
// (a path with no link in it), or why it cannot be read.
func readHead(p string, n int) (string, string) {
	f, _, why := openText(p)
	if why != "" {
		return "", why
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(n)))
	if err != nil {
		return "", "it cannot be read now (" + err.Error() + ")"
	}
	return string(b), ""
}

// shebangLine returns, as a shell line, the command the kernel runs for
// a program f whose text starts with a "#!" line: the interpreter, the
// rest of the line as one word (as the kernel passes it:
// "#!/usr/bin/env -S sh -c 'rm x'" gives env the word "-S sh -c 'rm x'"),
// then f.
func shebangLine(text, f string) (string, bool) {
	first, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutPrefix(first, "#!")
	rest = strings.TrimSpace(rest)
	if !ok || rest == "" {
		return "", false
	}
	interp, arg := rest, ""
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		interp, arg = rest[:i], strings.TrimSpace(rest[i+1:])
	}
	line := shellQuote(interp)
	if arg != "" && arg != "-" { // "#!/bin/sh -": the options end there
		line += " " + shellQuote(arg)
	}
	return line + " " + shellQuote(f), true
}

// shellQuote quotes s as one shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
