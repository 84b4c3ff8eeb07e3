package governance

import (
	"testing"
)

// TestProtectsConfigAtAnyDepth checks that the files tools run commands
// from are protected wherever below a workspace root they sit, and that a
// git directory is protected whole: git runs core.fsmonitor and hooks from
// the configuration of whatever repository a `.git` names, so a `.git`
// file ("gitdir: evil") where none exists, a `commondir` in the
// repository's `.git`, a submodule's configuration or a repository nested
// in a subdirectory (which Zed and VS Code find and run git in) each make
// the IDE's git run the agent's command. Zed reads `.zed/settings.json`
// (whose formatters and language servers are commands) in any folder.
func TestProtectsConfigAtAnyDepth(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	checkProtected(t, e, root, protectedCases(t, "config_any_depth.txt", map[string]string{"$ROOT": root}))
}
