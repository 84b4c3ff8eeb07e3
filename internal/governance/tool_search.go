package governance

import (
	"path/filepath"
	"strings"
)

// searchesOf returns the directories the agent tool named tool reads
// every file beneath when given input in (Search), cwd being where it
// runs: Claude Code's Grep (ripgrep --hidden over its path, else the cwd;
// its glob's include pieces are honoured, ripgrepPicks), Claude Code's
// Glob (the names of the files beneath its path, else the cwd, that its
// pattern matches: globListDir; Names), Gemini CLI's
// grep_search (search_file_content before) over its dir_path, else the
// cwd, and read_many_files over each entry of include or paths (a glob
// from its fixed leading directories). Gemini's own filters are not
// trusted: git grep, grep and its JavaScript fallback each read them
// otherwise. Nil for any other tool.
func searchesOf(tool string, in map[string]any, cwd string) []Search {
	switch tool {
	case "Grep":
		dir := cwd
		if p, _ := in["path"].(string); strings.TrimSpace(p) != "" {
			dir = strings.TrimSpace(p) // Claude Code trims it (its Ds)
		}
		glob, _ := in["glob"].(string)
		return []Search{{Tool: "Claude Code's Grep", Dir: dir, Picks: ripgrepPicks(glob)}}
	case "Glob":
		dir := cwd
		if p, _ := in["path"].(string); strings.TrimSpace(p) != "" {
			dir = strings.TrimSpace(p)
		}
		pattern, _ := in["pattern"].(string)
		return []Search{{Tool: "Claude Code's Glob", Dir: globListDir(dir, pattern), Names: true}}
	case "grep_search", "search_file_content":
		dir := cwd
		for _, k := range []string{"dir_path", "path"} {
			if p, _ := in[k].(string); p != "" {
				dir = p
				break
			}
		}
		return []Search{{Tool: "Gemini CLI's " + tool, Dir: dir, Follow: true}}
	case "read_many_files":
		var out []Search
		for _, k := range []string{"include", "paths"} {
			list, _ := in[k].([]any)
			for _, v := range list {
				if s, ok := v.(string); ok && s != "" {
					out = append(out, Search{Tool: "Gemini CLI's read_many_files", Dir: globBase(s), Follow: true})
				}
			}
		}
		return out
	}
	return nil
}

// globListDir returns the directory Claude Code's Glob lists files beneath
// for pattern, run in dir (its path, else the cwd): it runs ripgrep
// --files --hidden --no-ignore there with the pattern as one --glob
// (an absolute pattern's fixed leading directories become dir first), so
// every directory beneath may be listed, and the pattern's own fixed
// leading directories ("secrets/*" lists secrets; a name without a "/"
// matches at any depth) only narrow it where ripgrep reads them as
// written: not after a "!" (which excludes what follows) nor with a "\"
// escape in them.
func globListDir(dir, pattern string) string {
	fixed := pattern
	if i := strings.IndexAny(pattern, "*?[{"); i >= 0 {
		fixed = pattern[:i]
	}
	// A name without a "/" before its wildcards matches at any depth.
	i := strings.LastIndex(fixed, "/")
	if i < 0 || strings.HasPrefix(pattern, "!") || strings.Contains(fixed, `\`) {
		return dir
	}
	base := fixed[:i+1]
	if filepath.IsAbs(base) {
		return filepath.Clean(base)
	}
	return filepath.Join(dir, base)
}
