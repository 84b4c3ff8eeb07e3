package shellcmd

import "regexp"

// Interpreters are installed under versioned names beside the plain one
// (python3.11, pypy3, perl5.36.0, ruby3.1, php8.2, lua5.4, tclsh8.6,
// node22, ghci-9.4.7), and each runs code as the plain name does: "perl5.36.0
// -e CODE" runs CODE as "perl -e CODE" does, and the file "tclsh8.6 t.tcl"
// names is a script.

// interpreterVersion is a name with a version suffix: digits, dots,
// dashes and underscores after the base name (perl5.36.0, ghci-9.4.7).
var interpreterVersion = regexp.MustCompile(`^([A-Za-z]+?)[-_.]?[0-9][0-9._-]*$`)

// InterpreterName returns the name of the interpreter a program installed
// under name is: name itself when it is one the analysis knows, or name
// without its version suffix when that is one (perl5.36.0 is perl,
// tclsh8.6 is tclsh, python3.11 and pypy3 are python); any other name
// comes back as it is.
func InterpreterName(name string) string {
	if pythonName.MatchString(name) {
		return "python"
	}
	if _, ok := inlineFlags[name]; ok {
		return name
	}
	if m := interpreterVersion.FindStringSubmatch(name); m != nil {
		if _, ok := inlineFlags[m[1]]; ok {
			return m[1]
		}
	}
	return name
}
