package governance

import "testing"

// TestGitTemplates checks that git init and git clone given a template
// directory, whose hooks git copies into the repository's git directory,
// are refused whatever the policy says, and that git init and clone
// without one are decided by the policy.
func TestGitTemplates(t *testing.T) {
	root := tempTree(t, []string{".git", ".git/objects", ".git/refs", ".git/hooks", "tpl", "tpl/hooks", "sub"},
		[]string{".git/HEAD", "tpl/hooks/post-checkout"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	checkCommandLines(t, e, root, "git_template_lines.txt", nil)
}
