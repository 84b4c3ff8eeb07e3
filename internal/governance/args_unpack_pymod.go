package governance

import (
	"regexp"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Python's standard library extracts archives from the command line:
// "python3 -m tarfile -e ARCHIVE [DIR]" and "python3 -m zipfile -e ARCHIVE
// DIR" write the archive's member names below DIR (the command's directory
// when tarfile is given none), as tar -x and unzip do, and no word of the
// line shows them.

// pythonName matches the names of Python's interpreter.
var pythonName = regexp.MustCompile(`^python(\d+(\.\d+)*)?$`)

// pythonValueOptions are the interpreter's options that take the next word
// as their value.
var pythonValueOptions = setOf("-W", "-X", "-c", "--check-hash-based-pycs")

// pyModuleUnpack is unpackOf for python -m tarfile and -m zipfile with -e
// (--extract); ok is false for any other form.
func pyModuleUnpack(form []shellcmd.Word) (unpack, bool) {
	if !pythonName.MatchString(form[0].Text[strings.LastIndexByte(form[0].Text, '/')+1:]) {
		return unpack{}, false
	}
	module, at := "", 0
	for i := 1; i < len(form) && module == ""; i++ {
		w := form[i]
		if w.Kind != shellcmd.Static || !strings.HasPrefix(w.Text, "-") {
			return unpack{}, false // a script or a computed word: not -m
		}
		switch {
		case w.Text == "-m" && i+1 < len(form):
			module, at = form[i+1].Text, i+2
			if form[i+1].Kind != shellcmd.Static {
				module = "?"
			}
		case strings.HasPrefix(w.Text, "-m"):
			module, at = w.Text[2:], i+1
		case pythonValueOptions[w.Text]:
			i++
		}
	}
	prog := map[string]string{"tarfile": "tar", "zipfile": "unzip"}[module]
	if prog == "" {
		return unpack{}, false
	}
	args := form[at:]
	for i, w := range args {
		if w.Kind != shellcmd.Static {
			return unpack{prog: module, unknown: "a word of it is computed"}, true
		}
		if w.Text != "-e" && w.Text != "--extract" {
			continue
		}
		u := unpack{prog: prog}
		rest := args[i+1:]
		if len(rest) == 0 {
			return unpack{}, false
		}
		u.archive = rest[0]
		if len(rest) > 1 {
			u.dir = rest[1].Text
		}
		return u, true
	}
	return unpack{}, false
}
