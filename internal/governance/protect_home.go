package governance

import (
	"path/filepath"
	"slices"
	"strings"
)

// homeConfig are the files in the user's home directory, besides the
// agent configuration a workspace may also hold (agentConfig, protected in
// the home directory too: homeBases), from which the agents and the
// person's git take commands they run: Claude Code's user configuration
// and installed plugins, and git's global configuration (the IDE's git
// runs its core.fsmonitor and hooks in the workspace). An agent that wrote
// one would have it obeyed outside the bridge, in this session or the
// next.
var homeConfig = []configLocation{
	{".claude.json", "Claude Code's user configuration, whose MCP servers, for every project, are commands Claude starts", false, false},
	{".claude/plugins", "Claude Code's installed plugins, whose hooks, commands and MCP servers Claude runs", true, false},
	{".gitconfig", "git's global configuration, whose core.fsmonitor, core.hooksPath and aliases run commands in every repository", false, false},
	{".config/git", "git's global configuration, whose core.fsmonitor, core.hooksPath and aliases run commands in every repository", true, false},
}

// homeBases returns the home directory, as the engine knows it and, when
// a link leads there, where it leads: Claude Code, Gemini CLI, Codex and
// the other agents read their user configuration (~/.claude/settings.json,
// ~/.claude/skills, ~/.gemini, ~/.agents/skills, ~/.codex) there as they
// read a workspace's, so the agent configuration protected beneath every
// workspace root is protected beneath it too. None when the engine knows
// no home, or it is "/" or one of roots.
func (e *Engine) homeBases(roots []string) []string {
	h := e.home
	if h == "" || !filepath.IsAbs(h) {
		return nil
	}
	h = filepath.Clean(h)
	if h == "/" || slices.Contains(roots, h) {
		return nil
	}
	out := []string{h}
	if r := resolveDir(h); r != h && r != "/" && !strings.Contains(r, "\x00") && !slices.Contains(roots, r) {
		out = append(out, r)
	}
	return out
}

// homeProtected returns the homeConfig locations in the home directory
// (each of bases). They are protected where they are, not at any depth as
// agent configuration is: a dotfiles repository's .gitconfig is not git's.
func homeProtected(bases []string) []protected {
	if len(bases) == 0 {
		return nil
	}
	out := make([]protected, 0, len(homeConfig))
	for _, c := range homeConfig {
		pr := protected{ProtectedPath: ProtectedPath{Path: bases[0] + "/" + c.rel, What: c.what}, dir: c.dir}
		for _, b := range bases {
			pr.forms = append(pr.forms, b+"/"+c.rel)
		}
		pr.lower = lowerAll(pr.forms)
		out = append(out, pr)
	}
	return out
}
