package governance

import (
	"path/filepath"
	"strings"
)

// An agent's own search tool reads every file beneath the directory it is
// given, as "grep -r" does: Claude Code's Grep runs ripgrep with --hidden
// over its path (the cwd without one), Gemini CLI's grep_search over its
// dir_path, read_many_files over each directory or glob it is given. The
// request names the directory, not the .env it reads there, so the
// directory alone says nothing; each one is walked (walkTreeRead) and a
// file beneath it that the policy refuses reading, or a read-protected
// one, decides the call as reading that file would.

// Search is a directory a tool call reads every file beneath.
type Search struct {
	// Tool names the tool, for the reason ("Grep").
	Tool string
	// Dir is the directory, absolute or relative to the request's Cwd
	// ("~/" is the home directory). A file is judged as itself.
	Dir string
	// Picks, when not empty, are file-name patterns (filepath.Match,
	// matched against a file's name, not its path) one of which a file
	// must match for the tool to read it: a filter of the tool's own that
	// provably leaves every other file unread. Empty: every file is read.
	Picks []string
	// Follow says the tool follows the symlinks it meets beneath Dir.
	Follow bool
	// Names says the tool lists the names of the files beneath Dir
	// without reading them, as Claude Code's Glob does: only the
	// directories it lists are decided (as listing one by its path is),
	// not the files in them.
	Names bool
}

// searchVerdict decides the directories req's tool reads whole: the
// strictest verdict on a refused file beneath any of them, and that
// directory. ok is false when nothing beneath them is refused.
func (e *Engine) searchVerdict(in *reqInfo) (v verdict, dir string, ok bool) {
	budget := maxTreeEntries
	for _, s := range in.req.Searched {
		if s.Dir == "" {
			continue
		}
		tr := treeRead{reader: s.Tool, follow: s.Follow, picks: s.Picks, names: s.Names}
		if tr.reader == "" {
			tr.reader = "the search"
		}
		d := absPath(s.Dir, in.req.Cwd, e.home)
		// Where d lies now, and where the links kept at it or above it
		// lead once the lines making them have run (links_trees.go).
		for _, w := range append([]string{d}, in.keptForms(d)...) {
			if sv, refused := e.walkTreeRead(in, tr, w, &budget); refused && (!ok || sv.value.Stricter(v.value)) {
				v, dir, ok = sv, d, true
			}
		}
	}
	return v, dir, ok
}

// picked reports whether a file named name is read by a reader that reads
// only the files one of picks matches (all of them when picks is empty).
func picked(picks []string, name string) bool {
	if len(picks) == 0 {
		return true
	}
	for _, p := range picks {
		if ok, err := filepath.Match(p, name); err != nil || ok {
			return true
		}
	}
	return false
}

// ripgrepPicks returns the file-name patterns Claude Code's Grep glob
// restricts its search to, or nil when it restricts nothing the bridge can
// prove. Grep splits the glob at white space, and each part without
// braces at commas, and gives each piece to ripgrep as --glob. A piece
// starting with "!" excludes files, which the walk does not trust; the
// others include: ripgrep reads only files one of them matches. Only
// pieces of plain characters, "*" and "?" without a "/" are read (ripgrep
// matches them against a file's name, as filepath.Match does); with any
// other include piece (a class, braces, an escape, a path) every file is
// taken as read. So is every file when the glob holds a character past
// ASCII.
func ripgrepPicks(glob string) []string {
	// Grep splits at JavaScript's \s, which holds U+FEFF and not U+0085:
	// strings.Fields splits otherwise beyond ASCII, so a glob with any
	// character past it (or a control character but the spaces both
	// share) restricts nothing the bridge can prove.
	if strings.IndexFunc(glob, func(r rune) bool { return r > '~' || r < ' ' && !strings.ContainsRune("\t\n\v\f\r", r) }) >= 0 {
		return nil
	}
	var picks []string
	for _, part := range strings.Fields(glob) {
		pieces := []string{part}
		if !strings.Contains(part, "{") || !strings.Contains(part, "}") {
			pieces = strings.Split(part, ",")
		}
		for _, p := range pieces {
			switch {
			case p == "" || strings.HasPrefix(p, "!"):
				continue
			case strings.ContainsAny(p, "/\\[]{}"):
				return nil
			}
			picks = append(picks, p)
		}
	}
	return picks
}
