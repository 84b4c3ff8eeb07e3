package governance

import (
	"fmt"
	"testing"
)

// TestProtectedGlobAndGitOperands checks the lines that delete, move or
// change a directory holding a protected location through a name the
// line does not spell out: a shell glob the command's operand is (however
// many other names it matches), and git's mv, rm, checkout and restore,
// which move, delete or replace what their pathspecs name.
func TestProtectedGlobAndGitOperands(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	// More names before audit than a glob is expanded to.
	var crowd []string
	for i := 0; i < 300; i++ {
		crowd = append(crowd, fmt.Sprintf("crowd/a%03d", i))
	}
	tree{dirs: crowd, links: map[string]string{"logs": "audit", "crowd/audit": root + "/audit"}}.make(t, root)
	checkProtectedLines(t, e, root, protectedLineCases(t, "glob_operand_lines.txt", nil))
}

// TestProtectedOtherProgramNames checks that self-protection knows the
// programs it checks under their other names (GNU tools as Homebrew
// installs them, toybox, bfs) and fd, which runs a command on every file
// beneath what it searches as find -exec does.
func TestProtectedOtherProgramNames(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	checkProtectedLines(t, e, root, protectedLineCases(t, "other_program_names_lines.txt", nil))
}
