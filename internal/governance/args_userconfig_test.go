package governance

import (
	"strings"
	"testing"
)

// configLinesPolicy allows the programs whose configuration writers and
// mktemp the rows of user_config_lines.txt and mktemp_lines.txt run, by
// default, and denies changing the workspace's keys.
const configLinesPolicy = "  default: ask\n  deny:\n    - Edit(./secrets/*.key)\n  allow:\n    - Read\n    - Edit(./**)\n" +
	"    - Bash(go:*)\n    - Bash(npm:*)\n    - Bash(pnpm:*)\n    - Bash(yarn:*)\n    - Bash(pip:*)\n    - Bash(pip3:*)\n" +
	"    - Bash(python3:*)\n    - Bash(bundle:*)\n    - Bash(poetry:*)\n    - Bash(conda:*)\n    - Bash(composer:*)\n" +
	"    - Bash(gh:*)\n    - Bash(git:*)\n    - Bash(bun:*)\n    - Bash(corepack:*)\n    - Bash(git-lfs:*)\n    - Bash(kubectl:*)\n    - Bash(aws:*)\n    - Bash(mktemp:*)\n" +
	"    - Bash(cd:*)\n    - Env(TMPDIR)\n"

// checkConfigLines decides the rows of the case file name in a workspace
// holding secrets/ and a git repository, with a home directory outside it.
func checkConfigLines(t *testing.T, name string) {
	t.Helper()
	root := tempTree(t, []string{"secrets", ".git", "src"}, []string{"secrets/a.key", ".git/config", "package.json"})
	home := t.TempDir()
	e := NewEngine(testPolicy(t, configLinesPolicy), EngineOptions{Roots: []string{root}, Home: home})
	checkNamedLines(t, e, root, namedLineCases(t, name, map[string]string{"$ROOT": root, "$HOME": home}))
}

// TestConfigSubcommandWrites checks that a subcommand that changes a
// program's settings (go env -w, npm config set, git config --global, ...)
// is decided as a write of the file it changes, the person's own outside
// the workspace denied, and that a setting naming a program needs
// approval, while the reading forms stay allowed.
func TestConfigSubcommandWrites(t *testing.T) {
	checkConfigLines(t, "user_config_lines.txt")
}

// TestMktempNames checks that mktemp is decided as a write of the name
// it creates, put together from all its options.
func TestMktempNames(t *testing.T) {
	checkConfigLines(t, "mktemp_lines.txt")
}

// TestConfigWriteReasons checks that the reason of a refused
// configuration write names the file the command writes, not another.
func TestConfigWriteReasons(t *testing.T) {
	root := tempTree(t, []string{".git"}, []string{".git/config"})
	e := NewEngine(testPolicy(t, configLinesPolicy), EngineOptions{Roots: []string{root}, Home: t.TempDir()})
	for _, tt := range []struct{ line, names, notNames string }{
		{"git config --global user.name Me", "~/.gitconfig", ".git/config"},
		{"git config --system user.name Me", "/etc/gitconfig", ".git/config"},
		{"git config user.name Me", ".git/config", ".gitconfig"},
		{"go env -w GOFLAGS=-mod=mod", "go/env", ".git"},
		{"npm config set color false", "~/.npmrc", ".git"},
		{"pip config set global.timeout 60", "pip.conf", ".git"},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.line, Cwd: root})
		if d.Value != Deny || !strings.Contains(d.Reason, tt.names) || strings.Contains(d.Reason, tt.notNames) {
			t.Errorf("Decide(%q) = %v (%s); want deny naming %s, not %s", tt.line, d.Value, d.Reason, tt.names, tt.notNames)
		}
	}
}

// TestAgentConfigCommandWrites checks that an agent's or editor's own
// command that adds MCP servers, extensions or plugins (claude mcp add,
// gemini extensions install, codex mcp add, code --install-extension, ...)
// and a git hook manager's install (pre-commit install, lefthook install,
// husky) are decided as writes of the configuration they change.
func TestAgentConfigCommandWrites(t *testing.T) {
	root := tempTree(t, []string{"src"}, []string{"src/x.go"})
	home := t.TempDir()
	p := testPolicy(t, "  default: ask\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash(claude:*)\n    - Bash(gemini:*)\n"+
		"    - Bash(qwen:*)\n    - Bash(iflow:*)\n    - Bash(codex:*)\n    - Bash(copilot:*)\n    - Bash(vibe:*)\n    - Bash(amp:*)\n"+
		"    - Bash(opencode:*)\n    - Bash(acpx:*)\n    - Bash(code:*)\n    - Bash(cursor:*)\n    - Bash(pre-commit:*)\n"+
		"    - Bash(lefthook:*)\n    - Bash(overcommit:*)\n    - Bash(husky:*)\n    - Bash(cd:*)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Home: home})
	checkNamedLines(t, e, root, namedLineCases(t, "agent_config_lines.txt", map[string]string{"$ROOT": root, "$HOME": home}))
}
