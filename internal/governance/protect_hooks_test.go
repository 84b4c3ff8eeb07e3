package governance

import (
	"testing"
)

// TestProtectsHookManagers checks that the hook directories and
// configuration of the usual git hook managers are protected as
// .git/hooks is, at any depth: a repository whose core.hooksPath names
// .husky or .githooks runs the scripts there on the person's next commit,
// and lefthook, pre-commit and overcommit, once installed, run the commands
// their configuration file names on each commit.
func TestProtectsHookManagers(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	checkProtected(t, e, root, protectedCases(t, "hook_managers.txt", map[string]string{"$ROOT": root}))
}
