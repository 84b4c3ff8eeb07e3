package governance

import "testing"

// TestCatalogsOfAChangedTextDomainDir: bash expands the translation of a
// $"..." string as a double-quoted string, so the message catalog beneath
// a TEXTDOMAINDIR the line or the request sets is the line's code. Before,
// echo $"hi" with TEXTDOMAINDIR pointing at the agent's catalog was asked
// about for the variable, and the person's approval ran the catalog's
// $(: > GOVERNANCE.md); each is refused, and a catalog outside the roots
// (the system's) is not searched.
// Its workspace is testdata/cases/text_domain_tree.txt.
func TestCatalogsOfAChangedTextDomainDir(t *testing.T) {
	e, root := checkTreeLines(t, "text_domain_tree.txt", "  allow: [Bash, Env(TEXTDOMAINDIR), Env(TEXTDOMAIN)]\n", "text_domain_lines.txt")
	checkEnvRequestDenied(t, e, root, `echo $"hi"`, nil, EnvVar{Name: "TEXTDOMAINDIR", Value: root + "/mo"}, EnvVar{Name: "TEXTDOMAIN", Value: "x"})
}
