package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// TestAdapterClaudeAgentWorktree: Claude Code's Agent tool with isolation
// "worktree" starts a subagent in a new work tree below .claude/worktrees/,
// into which Claude copies the ignored files the repository's
// .worktreeinclude names, as EnterWorktree does: the workspace's rule for
// secrets/ does not reach the copy, and the subagent's grep of the work
// trees returns it. The bridge decides such an Agent call as reading what
// .worktreeinclude names, also when Claude's cwd is below the top of the
// repository (a Bash "cd" moved it) where no .worktreeinclude is, so the
// call is refused and the secret reaches no model request. So is
// EnterWorktree called from there, which the wire-level enforcement sees
// only once Claude runs it: the work tree, with the copy, would stay.
func TestAdapterClaudeAgentWorktree(t *testing.T) {
	cases := []struct {
		name, tool string
		first      string // the main conversation's first command
	}{
		{"agent", "Agent", "true"},
		{"task", "Task", "true"},
		{"agent-from-subdirectory", "Agent", "cd sub"},
		{"enter-worktree-from-subdirectory", "EnterWorktree", "cd sub"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, a, w := claudeScene(t)
			files := map[string]string{"secrets/api.key": envSecret + "\n", ".gitignore": "secrets/\n", "README.md": "hello\n",
				"sub/x.txt": "x\n", ".worktreeinclude": "secrets/api.key\n"}
			r, auditFile := governedRun(t, s, a, w, worktreePolicy, runOptions{
				name:  "claude-agent-worktree-" + c.name,
				files: files,
				prep:  gitCommitAll,
				script: fakemodel.Script{Steps: []fakemodel.Step{
					// A first call also makes the main conversation's
					// history longer than the subagent's first request, so
					// the fake model tells them apart.
					a.shell(c.first),
					worktreeCall(c.tool),
					// The subagent's turns, if it runs (after EnterWorktree,
					// the main conversation's).
					a.shell("/bin/grep -r E2E_SECRET " + w.path(".claude/worktrees")),
					fakemodel.Text("looked"),
					fakemodel.Text("done"),
				}},
				client: clientScript{Prompts: textPrompts("go")},
			})
			r.wait()
			// The copy must not be made: a work tree EnterWorktree
			// leaves stays, for this session's later turns and the next
			// session to read.
			if copies, _ := filepath.Glob(w.path(".claude/worktrees/*/secrets/api.key")); len(copies) > 0 {
				t.Errorf("the secret was copied into a work tree: %q", copies)
			}
			if secretReachedModel(r) {
				t.Errorf("the secret reached the model through the subagent's work tree copy")
			}
			audit := readFileString(t, auditFile)
			if !strings.Contains(audit, `"deny"`) || !strings.Contains(audit, ".worktreeinclude") {
				t.Errorf("the audit log records no refusal naming .worktreeinclude")
			}
		})
	}
}

// worktreeCall is the step calling tool to make a work tree.
func worktreeCall(tool string) fakemodel.Step {
	if tool == "EnterWorktree" {
		return fakemodel.Tool(tool, map[string]any{"name": "wt1"})
	}
	return fakemodel.Tool(tool, map[string]any{"description": "look around", "prompt": "look around",
		"subagent_type": "general-purpose", "isolation": "worktree"})
}
