package shellcmd

import "strings"

// goFlagsPlain are the go command's flags that, given in GOFLAGS, run no
// program and name no file: how modules are read, build tags, test
// counts and the like. -toolexec and -exec run a program; -gcflags,
// -ldflags and -asmflags may name one (-ldflags=-extld=...); -modfile,
// -overlay, -pkgdir, -coverpkg and -o name files or packages: none is
// here.
var goFlagsPlain = map[string]bool{
	"mod": true, "modcacherw": true, "buildvcs": true, "trimpath": true, "race": true, "msan": true, "asan": true,
	"v": true, "x": true, "n": true, "a": true, "count": true, "tags": true, "p": true, "cover": true,
	"covermode": true, "short": true, "failfast": true, "timeout": true, "cpu": true, "parallel": true,
	"benchtime": true, "shuffle": true, "vet": true, "json": true, "work": true,
}

// GoFlagsPlain reports whether value, the static value of GOFLAGS, gives
// the go command only flags that run no program and name no file
// ("-mod=mod", "-count=1 -tags=integration"), as go reads it: words split
// at white space, each "-flag" or "-flag=value" with one dash or two.
func GoFlagsPlain(value string) bool {
	words := strings.Fields(value)
	if len(words) == 0 || strings.ContainsAny(value, "$`\\;|&<>(){}'\"") {
		// make expands $(...) in a value it is given; a quote or an
		// operator says the value is not a plain list of flags.
		return false
	}
	for _, w := range words {
		name, ok := strings.CutPrefix(w, "-")
		if !ok {
			return false
		}
		name = strings.TrimPrefix(name, "-")
		name, _, _ = strings.Cut(name, "=")
		if !goFlagsPlain[name] {
			return false
		}
	}
	return true
}
