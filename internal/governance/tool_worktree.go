package governance

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxWorktreeIncludeBytes bounds the .worktreeinclude read; a larger one
// picks nothing the bridge can prove, so every file counts.
const maxWorktreeIncludeBytes = 64 << 10

// agentTypesWithoutWorktree are the subagent types Claude Code defines
// itself, none of which asks for a work tree of its own; a subagent type
// defined in a file (.claude/agents, ~/.claude/agents, a plugin) may
// (isolation: worktree in its definition).
var agentTypesWithoutWorktree = setOf("", "general-purpose", "Explore", "Plan", "claude", "statusline-setup", "fork")

// makesWorktree reports whether Claude Code's tool call toolName with
// input in may check out a new work tree, copying into it what
// .worktreeinclude names: EnterWorktree; an Agent (Task) call given an
// isolation, or of a subagent type whose definition may ask for one; a
// Workflow, whose script's agent() calls may ask for one.
func makesWorktree(toolName string, in map[string]any) bool {
	switch toolName {
	case "EnterWorktree", "Workflow":
		return true
	}
	if v, ok := in["isolation"]; ok && v != nil && v != "" {
		return true
	}
	if toolName == "Agent" || toolName == "Task" {
		t, ok := in["subagent_type"].(string)
		return !ok && in["subagent_type"] != nil || !agentTypesWithoutWorktree[t]
	}
	return false
}

// worktreeIncludeSearch returns what a call of Claude Code's tool that
// makes a work tree, run in cwd, reads: the ignored files a
// .worktreeinclude names (gitignore patterns), which Claude copies into
// the new work tree. Claude reads the file at the top of the repository,
// which may be above cwd (a Bash "cd" moves Claude's cwd), so the
// .worktreeinclude of cwd and of every directory above it counts, each
// for the files beneath its own directory. None when there is no
// .worktreeinclude; when its patterns name files only by a plain name
// ("*.local", ".env"), the files so named beneath its directory; otherwise
// (a pattern with a directory or a negation, a file that cannot be read or
// is too large) every file beneath its directory, erring on the side of
// the rule.
func worktreeIncludeSearch(tool, cwd string) []Search {
	if cwd == "" {
		return nil
	}
	var out []Search
	for dir := filepath.Clean(cwd); ; {
		out = append(out, worktreeIncludeIn(tool, dir)...)
		up := filepath.Dir(dir)
		if up == dir {
			return out
		}
		dir = up
	}
}

// worktreeIncludeIn is worktreeIncludeSearch for the .worktreeinclude of
// dir alone.
func worktreeIncludeIn(tool, dir string) []Search {
	text, err := readRegular(dir+"/.worktreeinclude", maxWorktreeIncludeBytes)
	if err != nil {
		// A file the bridge's user may not read, Claude, run as that
		// user, does not read either.
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil
		}
		return []Search{{Tool: "Claude Code's " + tool, Dir: dir}}
	}
	s := Search{Tool: "Claude Code's " + tool + " (copying what .worktreeinclude names)", Dir: dir}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		switch {
		case p == "" || strings.HasPrefix(p, "#"):
			continue
		case strings.ContainsAny(p, "/\\[]{}!"):
			return []Search{{Tool: s.Tool, Dir: dir}}
		}
		s.Picks = append(s.Picks, p)
	}
	if len(s.Picks) == 0 {
		return nil
	}
	return []Search{s}
}

// newWorktreeDir returns the directory Claude Code's EnterWorktree call
// with input in, run in cwd, checks a new work tree out in: given a name
// (or neither a name nor a path, when Claude picks a name), it runs
// "git worktree add -B BRANCH DIR" with DIR below .claude/worktrees/ at
// the top of the repository holding cwd (the nearest directory at or
// above it with a .git, from its real path, as git starts), and the name's directory there, or .claude/worktrees/
// itself when Claude picks the name. A call given a path switches into a
// work tree that exists, and makes none: "".
func newWorktreeDir(in map[string]any, cwd string) string {
	if p, _ := in["path"].(string); p != "" || cwd == "" {
		return ""
	}
	top := filepath.Clean(cwd)
	for dir := filepath.Clean(resolvedDir(cwd)); ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			top = dir
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	dir := filepath.Join(top, ".claude", "worktrees")
	if name, _ := in["name"].(string); name != "" {
		dir = filepath.Join(dir, name)
	}
	return dir
}
