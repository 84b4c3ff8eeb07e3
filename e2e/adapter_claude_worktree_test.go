package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// worktreePolicy refuses reading what lies in secrets/, a rule anchored at
// the workspace: a copy of the file below .claude/worktrees/ is not in
// secrets/.
var worktreePolicy = governanceDoc("e2e-worktree", "e2e worktree", "The policy the EnterWorktree scenarios run under.", "  default: allow\n  deny:\n    - Read(./secrets/**)\n")

// gitCommitAll makes the workspace ws a git repository with one commit
// of what it holds (secrets/ ignored).
func gitCommitAll(ws string) error {
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"-c", "user.email=e2e@example.com", "-c", "user.name=e2e", "commit", "-qm", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// TestAdapterClaudeWorktreeCopies: Claude Code's EnterWorktree checks out a
// work tree below .claude/worktrees/ and copies into it the ignored files
// .worktreeinclude names, where the workspace's rule for secrets/ does not
// reach the copy; an agent then reads the copy with its Bash. The bridge
// keeps the agent from writing .worktreeinclude (it is Claude's
// configuration), and decides EnterWorktree as reading what the file names,
// so a .worktreeinclude the person left naming the secret refuses it. The
// secret never reaches the model either way.
func TestAdapterClaudeWorktreeCopies(t *testing.T) {
	cases := []struct {
		name    string
		include string // a .worktreeinclude in the workspace before the run, "" for none
	}{
		{"agent-writes-include", ""},
		{"include-names-secret", "secrets/api.key\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, a, w := claudeScene(t)
			files := map[string]string{"secrets/api.key": envSecret + "\n", ".gitignore": "secrets/\n", "README.md": "hello\n"}
			if c.include != "" {
				files[".worktreeinclude"] = c.include
			}
			r, auditFile := governedRun(t, s, a, w, worktreePolicy, runOptions{
				name:  "claude-worktree-" + c.name,
				files: files,
				prep:  gitCommitAll,
				script: fakemodel.Script{Steps: []fakemodel.Step{
					a.write(w.path(".worktreeinclude"), "secrets/api.key\n"),
					fakemodel.Tool("EnterWorktree", map[string]any{"name": "wt1"}),
					fakemodel.Tool("ExitWorktree", map[string]any{"action": "keep"}),
					a.shell("/bin/grep -r E2E_SECRET .claude/worktrees/wt1"),
					fakemodel.Text("done"),
				}},
				client: clientScript{Prompts: textPrompts("go")},
			})
			r.wait()
			if secretReachedModel(r) {
				t.Errorf("the secret reached the model through the work tree's copy")
			}
			audit := readFileString(t, auditFile)
			want := ".worktreeinclude"
			if c.include != "" {
				want = "EnterWorktree"
			}
			if !strings.Contains(audit, `"deny"`) || !strings.Contains(audit, want) {
				t.Errorf("the audit log records no refusal naming %s", want)
			}
		})
	}
}
