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

// TestGitTemplateVariables: git also takes the template directory from
// GIT_TEMPLATE_DIR, or init.templateDir given by its GIT_CONFIG_*
// variables. A policy may allow those variables (Env rules), which lifts
// the built-in refusal of dangerous variables; self-protection still
// refuses git init or clone under them.
func TestGitTemplateVariables(t *testing.T) {
	root := tempTree(t, []string{".git", ".git/objects", ".git/refs", ".git/hooks", "tpl", "tpl/hooks"},
		[]string{".git/HEAD", "tpl/hooks/post-checkout"})
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env(GIT_TEMPLATE_DIR), Env(GIT_CONFIG_COUNT), Env(GIT_CONFIG_KEY_0), Env(GIT_CONFIG_VALUE_0)]\n")
	checkCommandLines(t, e, root, "git_template_variable_lines.txt", nil)
}
