package governance

import (
	"fmt"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A variable's value is decided as the files it names, as a command's
// argument is (args.go): "MAGIC=.env file a.txt" has file(1) read .env and
// print it, as "file -m .env a.txt" does, and "GIT_TRACE=/elsewhere/f git
// --version" appends to a file outside the workspace. Whatever the
// variable's name, its value whole and each element of it as a ':' list
// meets the Read rules (the Edit rules, and the workspace roots as a
// redirection does, for a variable a program writes to), relative to
// where the line is when it sets it. A value that holds a '/' and leads
// to nothing may be created, as an argument may; a bare word is only a
// read ("NODE_ENV=test" names no file to write). A value not known until
// the line runs is asked about when the variable is one a program reads
// or writes files from; for any other it is not decided. An Env(NAME) rule
// allowing the variable vouches for a computed value and for one that
// reads outside the workspace ("PATH=/usr/bin:$PATH"), not for a file a
// rule refuses nor for a write outside the workspace.

// decideEnvValue decides the files the value of the variable name names,
// set where the line is in dir; vouched says a rule allows the variable.
// ok is false when the value names no file a rule or the workspace roots
// have anything to say about.
func (e *Engine) decideEnvValue(in *reqInfo, name, value string, static, vouched bool, dir shellcmd.Dir, advisories *[]string) (verdict, bool) {
	use, why := shellcmd.ClassifyEnvValue(name)
	if !static {
		if use == shellcmd.EnvValueMayName || vouched {
			return verdict{}, false
		}
		return runtimeName(fmt.Sprintf("opening the value of %s (%s)", name, why)), true
	}
	var worst strictest
	for _, n := range shellcmd.EnvValueNames(value) {
		// zsh's $~x, or GLOB_SUBST, makes the value a pattern, in which
		// EXTENDED_GLOB reads "#" and "~" (x=.en#v; cat $~x reads .env).
		for _, w := range append([]shellcmd.Word{{Kind: shellcmd.Static, Text: n}}, shellcmd.ZshExtendedWords(n)...) {
			worst.keepIf(e.decideEnvValueName(in, name, w, use, why, vouched, dir, advisories))
		}
	}
	return worst.result()
}

// decideEnvValueName decides the file w names, one name in the value of
// the variable name as a word; use and why are what
// shellcmd.ClassifyEnvValue says of the variable.
func (e *Engine) decideEnvValueName(in *reqInfo, name string, w shellcmd.Word, use shellcmd.EnvValueUse, why string, vouched bool, dir shellcmd.Dir, advisories *[]string) (verdict, bool) {
	a := argWord{
		word:  w,
		text:  w.Text,
		write: use == shellcmd.EnvValueWrites,
		// A program reading its configuration creates none; one
		// that may write what an unknown variable names creates
		// a path, not a bare word ("NODE_ENV=test").
		readOnly: use == shellcmd.EnvValueReads || use == shellcmd.EnvValueMayName && !strings.Contains(w.Text, "/"),
		namedBy:  fmt.Sprintf("the value of %s: %s", name, why),
		// A program may write what a variable of no known use
		// names as readily as what its operands name: decided as
		// a write too under the policy's rules (args_maywrite.go).
		// One whose name says it is read (ENV_FILE, a *_CONFIG)
		// is a program's input.
		mayWrite: use == shellcmd.EnvValueMayName || envValueMayWrite[name] || use == shellcmd.EnvValueReads && !shellcmd.EnvValueReadKnown(name),
		// One whose name alone says it is read (GNUPGHOME,
		// GRADLE_USER_HOME, a *_CACHE_DIR) may still be where the
		// program writes: when it names a directory.
		dirOnly: use == shellcmd.EnvValueReads && !envValueMayWrite[name],
		program: "the program reading " + name,
	}
	v, ok := e.decideArg(in, a, dir, advisories)
	if !ok || vouched && v.ref == "workspace-roots" && v.value == RequireApproval {
		return verdict{}, false
	}
	return v, true
}

// envValueMayWrite are variables whose names say a program reads what they
// name (a _FILE, _DIR, _HOME, _PATH) but that name where programs write:
// their caches, data and reports. Their values are decided as files the
// program may change, under the policy's own rules.
var envValueMayWrite = setOf("GOPATH", "COVERAGE_FILE", "MYPY_CACHE_DIR", "RUFF_CACHE_DIR", "XDG_CACHE_HOME",
	"XDG_DATA_HOME", "XDG_STATE_HOME")
