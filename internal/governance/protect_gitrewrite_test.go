package governance

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGitRewritesProtected checks that git commands that rewrite the work
// tree from other commits are refused, whatever rule allows git, when the
// tree holds one of the bridge's own files (the policy: from the root, a
// subdirectory, or by -C), since the person approving the line is never
// shown what the commit holds; that they need approval when the tree
// holds only configuration protected beneath every root; and that git
// commands that leave the tree alone, or name the paths they change, are
// decided as before.
func TestGitRewritesProtected(t *testing.T) {
	rules := "  default: ask\n  allow:\n    - Bash(git:*)\n    - Bash(echo:*)\n"
	rows := []commandRow{
		{"git checkout main", RequireApproval},
		{"git checkout -f main", RequireApproval},
		{"git checkout -b topic origin/main", RequireApproval},
		{"git checkout --detach HEAD~2", RequireApproval},
		{"git switch main", RequireApproval},
		{"git switch --orphan empty", RequireApproval},
		{"git reset --hard HEAD~1", RequireApproval},
		{"git reset --keep HEAD~1", RequireApproval},
		{"git merge topic", RequireApproval},
		{"git pull", RequireApproval},
		{"git rebase -i HEAD~3", RequireApproval},
		{"git cherry-pick abc123", RequireApproval},
		{"git revert HEAD", RequireApproval},
		{"git am < fix.patch", RequireApproval},
		{"git stash", RequireApproval},
		{"git stash pop", RequireApproval},
		{"git stash apply stash@{1}", RequireApproval},
		{"git read-tree -u --reset HEAD", RequireApproval},
		{"git bisect start HEAD HEAD~10", RequireApproval},
		{"git sparse-checkout set src", RequireApproval},
		{"git -C sub merge topic", RequireApproval},
		{"cd sub && git reset --hard", RequireApproval},
		{"echo ok && git checkout main", RequireApproval},
		{"git -c alias.co=checkout co main", RequireApproval},
		{"/usr/bin/git merge topic", RequireApproval},
		{"yes | git restore -p -s topic", RequireApproval},
		{"git restore --patch", RequireApproval},
		{"git restore -p --staged --worktree", RequireApproval},
		{"git submodule update --init --recursive", RequireApproval},
		{"git submodule --quiet update", RequireApproval},
		{"git restore -p --staged", Allow},
		{"git restore -p -- src", Allow},

		{"git status", Allow},
		{"git log --oneline", Allow},
		{"git commit -m wip", Allow},
		{"git checkout -b topic", Allow},
		{"git switch -c topic", Allow},
		{"git reset HEAD~1", Allow},
		{"git reset --soft HEAD~1", Allow},
		{"git read-tree HEAD", Allow},
		{"git stash list", Allow},
		{"git stash push -- src", Allow},
		{"git stash show -p", Allow},
		{"git bisect log", Allow},
		{"git submodule status", Allow},
		{"git submodule", Allow},
		{"git checkout -- src/a.go", Allow},
		{"git checkout main -- src/a.go", Allow},
		{"git checkout -- GOVERNANCE.md", Deny},
	}
	for _, c := range []struct {
		name     string
		inTree   bool
		rewrites Value
		ref      string
	}{
		{"policy in the tree", true, Deny, "self-protection"},
		{"policy elsewhere", false, RequireApproval, "git-rewrites-tree"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := tempTree(t, []string{"sub"}, nil)
			var e *Engine
			if c.inTree {
				e = rootPolicyEngine(t, root, rules)
			} else {
				pol := filepath.Join(t.TempDir(), "GOVERNANCE.md")
				e = NewEngine(writePolicy(t, pol, rules), EngineOptions{Roots: []string{root},
					Protected: []ProtectedPath{{Path: pol, What: "the governance policy"}}})
			}
			want := slices.Clone(rows)
			for i := range want {
				if want[i].want == RequireApproval {
					want[i].want = c.rewrites
				}
			}
			checkCommandRows(t, e, root, want)
			d := e.Decide(Request{Action: ActionTerminalCreate, Command: "git merge topic", Cwd: filepath.Join(root, "sub")})
			if d.Value != c.rewrites || d.Ref != c.ref || !strings.Contains(d.Reason, "git merge changes files") {
				t.Errorf("git merge from a subdirectory: %v (ref %s: %s); want %v (ref %s)", d.Value, d.Ref, d.Reason, c.rewrites, c.ref)
			}
			if c.inTree && !strings.Contains(d.Reason, "the governance policy") {
				t.Errorf("git merge from a subdirectory: %s; want the work tree's policy named", d.Reason)
			}
		})
	}
}
