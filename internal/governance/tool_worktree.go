package governance

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"strings"
)

// maxWorktreeIncludeBytes bounds the .worktreeinclude read; a larger one
// picks nothing the bridge can prove, so every file counts.
const maxWorktreeIncludeBytes = 64 << 10

// worktreeIncludeSearch returns what Claude Code's EnterWorktree run in
// cwd reads: the ignored files .worktreeinclude names (gitignore
// patterns), which it copies into the new work tree. None when there is
// no .worktreeinclude; when its patterns name files only by a plain name
// ("*.local", ".env"), the files so named beneath cwd; otherwise (a
// pattern with a directory or a negation, a file that cannot be read or
// is too large) every file beneath cwd, erring on the side of the rule.
func worktreeIncludeSearch(cwd string) []Search {
	if cwd == "" {
		return nil
	}
	text, err := readRegular(cwd+"/.worktreeinclude", maxWorktreeIncludeBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return []Search{{Tool: "Claude Code's EnterWorktree", Dir: cwd}}
	}
	s := Search{Tool: "Claude Code's EnterWorktree (copying what .worktreeinclude names)", Dir: cwd}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		switch {
		case p == "" || strings.HasPrefix(p, "#"):
			continue
		case strings.ContainsAny(p, "/\\[]{}!"):
			return []Search{{Tool: s.Tool, Dir: cwd}}
		}
		s.Picks = append(s.Picks, p)
	}
	if len(s.Picks) == 0 {
		return nil
	}
	return []Search{s}
}
