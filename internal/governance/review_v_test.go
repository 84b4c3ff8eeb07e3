package governance

import "testing"

// TestReviewProtectedForms checks self-protection against further forms of
// this session's judgements (links at protected names, git checkout and
// restore, other program names, glob operands) and that ordinary developer
// commands still pass.
func TestReviewProtectedForms(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tree{
		dirs:  []string{"lib", "vendor", "evil", "build", "y/.claude", "evilrepo/.git", "sub"},
		files: []string{"script.sh", "evil/settings.json", "build/out"},
	}.make(t, root)
	checkProtectedLines(t, e, root, protectedLineCases(t, "protected_review_lines.txt", nil))
}

// TestReviewProtectedFolding checks that self-protection's element test
// (protected.tail: a path reaches workspace configuration only with an
// element starting as its rel does) holds for the forms a case-insensitive
// file system folds together: upper case, the long s and the Kelvin sign,
// code points HFS+ ignores at an element's start or end, and paths with
// "..", "//" or a cd.
func TestReviewProtectedFolding(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	tree{
		dirs:  []string{".git/hooks", "sub/.git", "src/.claude"},
		files: []string{".git/config", ".claude/settings.json", "sub/.git/config", "src/.claude/settings.json", "lefthook.yml"},
	}.make(t, root)
	tests := protectedLines(root, protectedLineCases(t, "protected_folding_lines.txt", nil))
	for _, p := range []string{".GIT/config", ".g\u200cit/config", "src/\ufeff.claude/settings.json", ".claude/\u017fettings.json", "sub/../.git/hooks/x"} {
		tests = append(tests, protectedCase{name: "write " + p, req: Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}}, want: Deny, what: "protected"})
	}
	checkProtected(t, e, root, tests)
}
