package e2e

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/e2e/fakemodel"
)

// worktreeMutatePolicy is the shape of the repository's own GOVERNANCE.md:
// reads allowed, other changes asked about (on-mutate).
const worktreeMutatePolicy = "---\nschema: governance.workspace/v1\nname: e2e-worktree-mutate\ntitle: e2e worktree mutate\n" +
	"description: Reads are allowed; changes need approval.\nversion: 1.0.0\nautonomy:\n  level: 2\n  defaultApproval: on-mutate\n" +
	"rules:\n  allow:\n    - Read\n    - Glob\n    - Grep\n---\n\n# e2e worktree mutate\n"

// TestAdapterClaudeWorktreeNeedsApproval: Claude Code's EnterWorktree with
// a name runs git worktree add -B: it makes a branch and checks out a new
// work tree below .claude/worktrees/. Under a policy shaped as the
// repository's own GOVERNANCE.md, whose changes need the person's approval
// (on-mutate), as git worktree add in a Bash call does, the person is
// asked: refusing, no work tree is made; approving (the control), it is.
func TestAdapterClaudeWorktreeNeedsApproval(t *testing.T) {
	for _, c := range []struct {
		answer string
		made   bool
	}{{"reject", false}, {"allow", true}} {
		t.Run(c.answer, func(t *testing.T) {
			s, a, w := claudeScene(t)
			r, _ := governedRun(t, s, a, w, worktreeMutatePolicy, runOptions{
				name:  "claude-worktree-approval-" + c.answer,
				files: map[string]string{"README.md": "hello\n"},
				prep:  gitCommitAll,
				script: fakemodel.Script{Steps: []fakemodel.Step{
					fakemodel.Tool("EnterWorktree", map[string]any{"name": "wt1"}),
					fakemodel.Text("done"),
				}},
				client: clientScript{Permission: c.answer, Prompts: textPrompts("go")},
			})
			r.wait()
			_, err := os.Stat(w.path(".claude/worktrees/wt1"))
			switch made := err == nil; {
			case made && !c.made:
				t.Errorf("BYPASS: EnterWorktree made .claude/worktrees/wt1 and its branch without the person's approval")
			case !made && c.made:
				t.Errorf("the control: the person approved and no work tree was made\n%s", r.stderrTail())
			}
		})
	}
}
