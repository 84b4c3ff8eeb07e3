package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// goBoolFlags are the go command's flags that take no value: a word after
// one of them is an operand of its own, not the flag's value.
var goBoolFlags = map[string]bool{"a": true, "n": true, "x": true, "v": true, "race": true, "msan": true, "asan": true,
	"short": true, "cover": true, "json": true, "failfast": true, "benchmem": true, "c": true, "i": true,
	"trimpath": true, "work": true, "modcacherw": true, "linkshared": true, "m": true, "e": true, "u": true,
	"t": true, "d": true, "deps": true, "test": true, "compiled": true, "export": true, "find": true}

// goPackagePatterns returns the words of c's forms that a go command of
// them takes as package patterns (goPackagePattern): the same words in a
// wrapper's form are the patterns too.
func goPackagePatterns(c *shellcmd.Command) []*shellcmd.Word {
	var out []*shellcmd.Word
	for _, form := range c.Forms {
		if form[0].Kind != shellcmd.Static || form[0].Name() != "go" {
			continue
		}
		for i := 2; i < len(form); i++ {
			if goPackagePattern(form, i) {
				out = append(out, &form[i])
			}
		}
	}
	return out
}

// goPatternDir returns the directory a package pattern's packages are
// found beneath, which go reads: the pattern up to the element holding
// "..." ("./internal/..." is "./internal", "./..." and "..." are ".").
func goPatternDir(pattern string) string {
	i := strings.Index(pattern, "...")
	dir := pattern[:strings.LastIndexByte(pattern[:i], '/')+1]
	if dir == "" {
		return "."
	}
	if dir != "/" {
		dir = strings.TrimSuffix(dir, "/")
	}
	return dir
}

// goPackagePattern reports whether word i of form, a go command, is a
// package pattern with Go's wildcard ("./...", "./internal/...",
// "example.com/m/..."): go matches it against the packages it finds and
// never opens or creates a file of that name; it reads the packages
// beneath goPatternDir. It is not one when the word
// before may be a flag that takes it as its value (go build -o ./... writes
// a file named "..."), or once the words are the test binary's (after
// -args) or plain operands (after --).
func goPackagePattern(form []shellcmd.Word, i int) bool {
	if i < 2 || form[i].Kind != shellcmd.Static || !strings.Contains(form[i].Text, "...") || strings.HasPrefix(form[i].Text, "-") {
		return false
	}
	for _, w := range form[1:i] {
		if t := strings.TrimLeft(w.Text, "-"); w.Kind != shellcmd.Static || w.Text == "--" || strings.HasPrefix(w.Text, "-") && t == "args" {
			return false
		}
	}
	prev := form[i-1].Text
	if !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=") {
		return true
	}
	return goBoolFlags[strings.TrimLeft(prev, "-")]
}
