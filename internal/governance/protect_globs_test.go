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
	checkProtectedLines(t, e, root, []protectedLine{
		{"mv aud* old", Deny, "the audit log"},
		{"mv au?it old", Deny, "the audit log"},
		{"mv [a]udit old", Deny, "the audit log"},
		{`mv "au"* old`, Deny, "the audit log"},
		{"find aud* -delete", Deny, "the audit log"},
		{"chmod -R 777 au*", Deny, "the audit log"},
		{"rm -r AU*", Deny, "the audit log"}, // case folds as restricting rules do
		{"mv lo*/audit-log.jsonl old.jsonl", Deny, "the audit log"},
		{"mv crowd/a* old", Deny, "the audit log"},
		{"mv */audit-log.jsonl old.jsonl", Deny, "the audit log"},
		{"git mv audit old", Deny, "the audit log"},
		{"git -c core.x=y mv -f audit old", Deny, "the audit log"},
		{"git -C audit rm audit-log.jsonl", Deny, "the audit log"},
		{"git rm -r audit", Deny, "the audit log"},
		{"git rm -r 'aud*'", Deny, "expands the pathspec"},
		{"git rm '*.jsonl'", Deny, "expands the pathspec"},
		{"git rm ':(icase)AUDIT'", Deny, "expands the pathspec"},
		{"git mv GOVERN* x", Deny, "the governance policy"},
		{"rename s/audit/old/ audit", Deny, "the audit log"},
		{"mount --bind src audit", Deny, "the audit log"},
		{"mount -o bind audit x", Deny, "the audit log"},
		{"umount audit", Deny, "the audit log"},
		{"mount --bind src x", Allow, ""},
		{"git checkout -- audit", Deny, "the audit log"},
		{"git checkout HEAD~1 -- audit", Deny, "the audit log"},
		{"git checkout .", Deny, "protected from the agent"},
		{"git restore audit", Deny, "the audit log"},
		{"git restore -s HEAD~1 -- audit/audit-log.jsonl.000001", Deny, "the audit log"},
		{"git restore --staged --worktree audit", Deny, "the audit log"},
		{"git restore --staged audit", Allow, ""},
		{"git checkout -- src", Allow, ""},
		{"git checkout -b topic", Allow, ""},
		{"mv sr* lib", Allow, ""},
		{"find sr* -delete", Allow, ""},
		{"rm -r crowd/a00*", Allow, ""},
		{"ls au*", Allow, ""},
		{`mv "aud*" old`, Allow, ""},
		{"git mv src/a.go src/b.go", Allow, ""},
		{"git -C src rm '*.go'", Allow, ""},
		{"git rm --cached -r audit", Allow, ""},
		{"git status", Allow, ""},
	})
}

// TestProtectedOtherProgramNames checks that self-protection knows the
// programs it checks under their other names (GNU tools as Homebrew
// installs them, toybox, bfs) and fd, which runs a command on every file
// beneath what it searches as find -exec does.
func TestProtectedOtherProgramNames(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	checkProtectedLines(t, e, root, []protectedLine{
		{"gmv audit old", Deny, "the audit log"},
		{"grm -r audit", Deny, "the audit log"},
		{"gfind audit -delete", Deny, "the audit log"},
		{"gchmod -R 777 audit", Deny, "the audit log"},
		{"gmv au* old", Deny, "the audit log"},
		{"toybox mv audit old", Deny, "the audit log"},
		{"bfs audit -delete", Deny, "the audit log"},
		{"fd . audit -x rm", Deny, "the audit log"},
		{"fd -x rm", Deny, "protected from the agent"},
		{"fd -Hx rm", Deny, "protected from the agent"},
		{"fd -e jsonl --search-path audit -X rm", Deny, "the audit log"},
		{"fdfind -e jsonl . audit --exec-batch rm", Deny, "the audit log"},
		{"gmv src/a.go src/b.go", Allow, ""},
		{"fd -e go . src -x gofmt -w", Allow, ""},
		{"fd -e go", Allow, ""},
	})
}
