package shellcmd

import (
	"regexp"
	"strings"
)

// Shells come in families whose members the shells table (shellNames)
// does not list one by one: the Korn shells (ksh93, mksh, lksh, oksh,
// loksh, pdksh and their restricted r-forms rksh, rmksh, rlksh), the
// Bourne shells (bosh, jsh, hush, sash, the Oil shells osh and ysh,
// brush), shells that are not Bourne's at all (rc, es, elvish, nu,
// xonsh, ion, murex), and any of them installed under a versioned or
// renamed name (ksh93, bash5.2, zsh-5.9, rc.byron, fish3). Each takes
// -c with a command string as sh does, or runs a script or its input, so
// one of them is read as an unmodelled shell (shellHandler): its -c string
// decided as bash's -c string is, with a note that asks for approval.

// shellFamilies are the base names of shells beyond shellNames: a name
// is a shell's when, without a restricted r-, a login l- or a
// profile pf- prefix and a version or variant suffix, it is one of these
// or of shellNames.
const shellFamilies = "ksh93 lksh oksh loksh pdksh bosh jsh hush sash osh ysh oil brush mrsh gash nsh " +
	"rc es elvish nu nushell xonsh ion murex scsh"

// shellVariant is a name's version or variant suffix: digits, dots,
// dashes and underscores after the base name (ksh93, bash-5.2, zsh5),
// or a dot and a word (rc.byron, sh.distrib, bash.static).
var shellVariant = regexp.MustCompile(`^([a-z]+?)(?:[-_.]?[0-9][0-9._-]*|\.[a-z][a-z0-9_-]*)$`)

// shellFamilyName returns the base name of the shell name is a form of
// (a shellNames or shellFamilies entry), whether name is that shell
// under a version or variant suffix only (ksh93, bash5.2, rc.byron), and
// whether name is a shell's at all. Known names are not asked about
// here: the handlers table has them.
func shellFamilyName(name string) (fam string, versioned, ok bool) {
	known := func(n string) bool {
		return strings.Contains(" "+shellNames+" "+shellFamilies+" ", " "+n+" ")
	}
	base := strings.ToLower(name)
	if m := shellVariant.FindStringSubmatch(base); m != nil && known(m[1]) {
		return m[1], true, true
	}
	for _, cand := range []string{base, strings.TrimPrefix(base, "r"), strings.TrimPrefix(base, "l"), strings.TrimPrefix(base, "pf")} {
		if cand != "" && known(cand) {
			return cand, cand == base, true
		}
	}
	return "", false, false
}

// shellFamilyHandler returns the handler of a shell the handlers table
// does not name (shellFamilyName), or nil. A modelled shell under a
// version suffix (bash5.2) is read by its own grammar; every other shell,
// a prefixed form of a modelled one too (lsh, pfsh), is read as an
// unmodelled one, whose code needs approval.
func shellFamilyHandler(name string) handler {
	fam, versioned, ok := shellFamilyName(name)
	switch {
	case !ok:
		return nil
	case versioned && modelledShells[fam]:
		return shellHandler(fam)
	}
	return shellHandler(name)
}

// IsShell reports whether name is a shell's: one the handlers table
// models (bash, sh, dash, zsh, ...) or one of a shell family, under a
// version or variant suffix too (shellFamilyName).
func IsShell(name string) bool {
	if strings.Contains(" "+shellNames+" ", " "+name+" ") {
		return true
	}
	_, _, ok := shellFamilyName(name)
	return ok
}
