package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProtectedAfterUnknownCd: after a cd the bridge cannot follow, a
// relative word that may name a protected location (or the directory
// holding it) wherever the line runs is refused, glob or not; words that
// name nothing protected stay the policy's.
func TestProtectedAfterUnknownCd(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	for _, d := range []string{"sub", ".git", ".claude"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		line string
		want Value
	}{
		{`cd "$(printf sub)" && cp evil ../.git/confi?`, Deny},
		{`cd "$(printf sub)" && cp evil ../.git/config`, Deny},
		{`cd "$(printf sub)" && cp evil ../.claude/settings.jso?`, Deny},
		{`cd "$(printf audit)" && truncate -s0 audit-log.json?`, Deny},
		{`cd "$(printf audit)" && cat audit-log.*`, Deny},
		{`cd "$(printf sub)" && mv ../aud?t ../gone`, Deny},
		{`cd "$(printf sub)" && echo x > ../GOVERNANCE.m?`, Deny},
		{`cd "$(printf sub)" && cp evil ../.codex/hooks.jso?`, Deny},
		{`cd "$(printf sub)" && truncate -s0 ../**/audit-log.json?`, Deny},
		{`cd "$(printf sub)" && cp evil ../.git/conf[[=i=]]g`, Deny},
		{`shopt -s dotglob; cd "$(printf sub)" && cp evil ../.claude/**/settings.jso?`, Deny},
		{`cd "$(printf sub)" && dd if=evil of=../.git/confi?`, Deny},
		{`cd "$(printf sub)" && ls **/*.go`, RequireApproval},
		{`cd "$(printf sub)" && cat notes.txt`, RequireApproval}, // asked as after any cd it cannot follow
		{`cd "$(printf sub)" && cp a.txt b.txt`, RequireApproval},
		{`cd sub && cat confi?`, Allow},
		{`cd "$(printf sub)" && cat .env`, RequireApproval}, // a project's .env, not Gemini's .gemini/.env
		{`cd "$(printf sub)" && cat config`, RequireApproval},
	} {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: tc.line, Cwd: root})
		if d.Value != tc.want || tc.want == Deny && d.Ref != "self-protection" {
			t.Errorf("%s: %v (%s: %s); want %v", tc.line, d.Value, d.Ref, d.Reason, tc.want)
		}
	}
}
