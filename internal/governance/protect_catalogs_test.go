package governance

import "testing"

// TestCatalogsOfAChangedTextDomainDir: bash expands the translation of a
// $"..." string as a double-quoted string, so the message catalog beneath
// a TEXTDOMAINDIR the line or the request sets is the line's code. Before,
// echo $"hi" with TEXTDOMAINDIR pointing at the agent's catalog was asked
// about for the variable, and the person's approval ran the catalog's
// $(: > GOVERNANCE.md); each is refused, and a catalog outside the roots
// (the system's) is not searched.
func TestCatalogsOfAChangedTextDomainDir(t *testing.T) {
	root := tempTree(t, []string{"mo/C.UTF-8/LC_MESSAGES", "deep/er/fr/LC_MESSAGES", "ok/C/LC_MESSAGES"}, []string{"a.txt"})
	writeFiles(t, root, map[string]string{
		"mo/C.UTF-8/LC_MESSAGES/x.mo": "\xde\x12\x04\x95\x00hi\x00$(: > GOVERNANCE.md)\x00",
		"deep/er/fr/LC_MESSAGES/y.mo": "\xde\x12\x04\x95\x00hi\x00$(: > GOVERNANCE.md)\x00",
		"ok/C/LC_MESSAGES/x.mo":       "\xde\x12\x04\x95\x00hi\x00bonjour\x00",
	}, 0o644)
	e := rootPolicyEngine(t, root, "  allow: [Bash, Env(TEXTDOMAINDIR), Env(TEXTDOMAIN)]\n")
	checkCommandLines(t, e, root, "text_domain_lines.txt", map[string]string{"$ROOT": root})
	checkEnvRequestDenied(t, e, root, `echo $"hi"`, nil, EnvVar{Name: "TEXTDOMAINDIR", Value: root + "/mo"}, EnvVar{Name: "TEXTDOMAIN", Value: "x"})
}
