package audit

import (
	"regexp"
	"testing"
)

// FuzzLowerNames: isAction and isSlug say what the regular expressions
// of AIP-7's action and slug say.
func FuzzLowerNames(f *testing.F) {
	action := regexp.MustCompile(`^[a-z][a-z0-9._-]*[a-z0-9]$`)
	slug := regexp.MustCompile(`^[a-z][a-z0-9-]*[a-z0-9]$`)
	for _, s := range []string{"tool.call", "policy.violation", "a", "ab", "a-", "a_b", "a.b-c_d9", "Tool.call", "9a", "a\n", "allow-reads", "", "é", "ab\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isAction(s), action.MatchString(s); got != want {
			t.Errorf("isAction(%q) = %v, want %v", s, got, want)
		}
		if got, want := isSlug(s), slug.MatchString(s); got != want {
			t.Errorf("isSlug(%q) = %v, want %v", s, got, want)
		}
	})
}
