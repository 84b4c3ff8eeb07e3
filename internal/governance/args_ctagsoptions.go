package governance

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Universal Ctags reads options from files no word of the line names:
// before the line's own, every *.ctags file of ./.ctags.d and ./ctags.d in
// the directory it runs in (Exuberant Ctags: ./.ctags and ./ctags.cnf),
// and the file or directory each --options or --options-maybe names. The
// agent writes those files with an edit the policy allows, so "-L .env"
// there has ctags open .env as its list of inputs and quote each line in a
// warning, and "-f ../x" writes the tag file outside the workspace, under a
// rule allowing "ctags a.txt". configFormVerdict reads them as it reads
// curl's -K file: their options are put before the line's and decided as
// the same options on the line are.

// ctagsPrograms are the names ctags runs under.
var ctagsPrograms = setOf("ctags", "etags", "uctags", "ctags-universal", "ctags-exuberant")

// ctagsPreloadDirs are the directories, relative to where ctags runs, whose
// *.ctags files Universal Ctags reads as options, in this order.
var ctagsPreloadDirs = []string{".ctags.d", "ctags.d"}

// ctagsPreloadNames are the files, relative to where ctags runs, that
// Exuberant Ctags reads as options.
var ctagsPreloadNames = []string{".ctags", "ctags.cnf"}

// ctagsPreloadFiles returns the option files ctags reads on its own in the
// directory c runs in, or why they cannot be known when the request is
// decided: the line changes directory to one the bridge cannot tell, or
// runs other commands, which may write them first.
func (e *Engine) ctagsPreloadFiles(in *reqInfo, c *shellcmd.Command, others bool) (files []shellcmd.Word, why string) {
	if others {
		return nil, "the line runs other commands, which may make or change the option files ctags reads where it runs"
	}
	bases, unknown := e.commandDirs(in, c.Dir)
	if unknown || len(bases) != 1 {
		return nil, "the line changes directory before it, so the option files ctags reads where it runs are not known"
	}
	for _, dir := range ctagsPreloadDirs {
		entries, err := os.ReadDir(filepath.Join(bases[0], dir))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, syscall.ENOTDIR):
			continue
		case err != nil:
			return nil, "its option directory " + dir + " cannot be listed now (" + err.Error() + ")"
		}
		for _, en := range entries {
			if strings.HasSuffix(en.Name(), ".ctags") {
				files = append(files, shellcmd.Word{Kind: shellcmd.Static, Text: dir + "/" + en.Name()})
			}
		}
	}
	for _, name := range ctagsPreloadNames {
		if _, err := os.Lstat(filepath.Join(bases[0], name)); err == nil {
			files = append(files, shellcmd.Word{Kind: shellcmd.Static, Text: name})
		}
	}
	return files, ""
}

// ctagsOptionFiles returns the files the --options and --options-maybe
// words of form name (ctags takes a long option's value after "=" only).
func ctagsOptionFiles(form []shellcmd.Word) []shellcmd.Word {
	var out []shellcmd.Word
	for _, w := range form[1:] {
		if w.Kind != shellcmd.Static {
			continue
		}
		if w.Text == "--" {
			break
		}
		name, value, eq := strings.Cut(w.Text, "=")
		if eq && (name == "--options" || name == "--options-maybe") {
			out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: value})
		}
	}
	return out
}

// ctagsOptionWords returns the options of a ctags option file as the words
// of a command line: each line that is neither empty nor a comment is one
// argument, but for a short option whose value follows a blank ("-f tags"),
// which is two.
func ctagsOptionWords(text string) []shellcmd.Word {
	var out []shellcmd.Word
	for _, l := range ctagsOptionLines(text) {
		if i := strings.IndexAny(l, " \t"); i > 0 && l[0] == '-' && !strings.HasPrefix(l, "--") {
			out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: l[:i]},
				shellcmd.Word{Kind: shellcmd.Static, Text: strings.TrimSpace(l[i:])})
			continue
		}
		out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: l})
	}
	return out
}

// ctagsBlanks are the bytes C's isspace takes for blanks, which ctags
// trims from each end of an option file's line.
const ctagsBlanks = " \t\n\v\f\r"

// ctagsOptionLines returns the lines of a ctags option file as ctags reads
// them: a line ends at a newline or a carriage return ("\r\n" is one end),
// its blanks are trimmed from each end, and an empty line or one starting
// with "#" is no option. Read in "\n" lines, a file of "#c\r-L .env" was
// one comment to the bridge and the option "-L .env" to ctags, which then
// read .env as its list of inputs.
func ctagsOptionLines(text string) []string {
	var out []string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l := strings.Trim(line, ctagsBlanks); l != "" && l[0] != '#' {
			out = append(out, l)
		}
	}
	return out
}
