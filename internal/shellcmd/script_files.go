package shellcmd

import (
	"regexp"
	"strings"
)

// sed and awk open files their scripts name: sed's r, R, w and W commands
// and the w flag of s, awk's getline < file, print > file (or >>), an ARGV
// it rewrites and gawk's @include. Such a name is text inside the script,
// not a word of the line, so the bridge does not decide it as a path:
// "sed 'r .env' a.txt" reads .env, and "sed -n 'w ../out' a.txt" writes
// outside the workspace. A script that does is noted (OpensFiles).

// sedOpensFiles reports whether a sed script may use r, R, w or W, or
// the w flag of s, on a file other than standard output or error. It
// reads each command after its address (sedCommands), and errs towards
// yes.
func sedOpensFiles(script string) bool {
	return sedScriptUses(script, func(cmd string) bool {
		return cmd != "" && strings.ContainsRune("rRwW", rune(cmd[0])) && !standardStream(cmd[1:])
	}, func(flags string) bool {
		at := strings.IndexByte(flags, 'w')
		return at >= 0 && !standardStream(flags[at+1:])
	})
}

// standardStream reports whether the file name after a sed w command or
// flag (blanks first) is standard output or error, which GNU sed opens
// without a file.
func standardStream(name string) bool {
	name = strings.TrimSpace(name)
	return name == "/dev/stdout" || name == "/dev/stderr"
}

// awkOpensFile matches awk programs that read or write a file they name:
// getline from a file, print or printf redirected to one, ARGV rewritten
// (the files awk reads next), gawk's @include and @load.
var awkOpensFile = regexp.MustCompile(`getline[^;{}\n|]*<|ARGV|@include|@load|\bprintf?\b[^;{}\n]*>{1,2}\s*("[^"]*"|[^\s;{}]*)`)

// awkOpensFiles reports whether an awk program may read or write a file
// it names, other than standard output or error.
func awkOpensFiles(prog string) bool {
	for _, m := range awkOpensFile.FindAllStringSubmatch(prog, -1) {
		if !strings.HasPrefix(m[0], "print") {
			return true
		}
		if t := strings.Trim(m[1], `"`); t != "/dev/stderr" && t != "/dev/stdout" {
			return true
		}
	}
	return false
}
