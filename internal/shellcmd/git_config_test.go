package shellcmd

import "testing"

// TestGitCommandKey: every configuration key whose value is a command git
// runs is one, whatever its subsection; the other keys of those sections,
// and a section's command name under another section, are not.
func TestGitCommandKey(t *testing.T) {
	for key, want := range map[string]bool{
		"core.pager":                    true,
		"core.alternaterefscommand":     true,
		"instaweb.httpd":                true,
		"pager.log":                     true,
		"diff.x.command":                true,
		"diff.x.textconv":               true,
		"filter.x.clean":                true,
		"filter.x.smudge":               true,
		"filter.x.process":              true,
		"merge.x.driver":                true,
		"mergetool.x.cmd":               true,
		"mergetool.x.path":              true,
		"difftool.x.cmd":                true,
		"difftool.x.path":               true,
		"browser.x.cmd":                 true,
		"browser.x.path":                true,
		"man.x.cmd":                     true,
		"man.x.path":                    true,
		"guitool.x.cmd":                 true,
		"hook.x.command":                true,
		"sendemail.x.sendmailcmd":       true,
		"sendemail.x.smtpserver":        true,
		"gpg.x.program":                 true,
		"gpg.ssh.defaultkeycommand":     true,
		"trailer.x.command":             true,
		"trailer.x.cmd":                 true,
		"tar.x.command":                 true,
		"submodule.x.update":            true,
		"remote.x.uploadpack":           true,
		"remote.x.receivepack":          true,
		"credential.https://x.helper":   true,
		"diff.x.cmd":                    false,
		"filter.x.required":             false,
		"merge.x.name":                  false,
		"mergetool.x.trustexitcode":     false,
		"guitool.x.path":                false,
		"hook.x.event":                  false,
		"sendemail.x.smtpuser":          false,
		"gpg.x.format":                  false,
		"trailer.x.key":                 false,
		"submodule.x.url":               false,
		"remote.x.url":                  false,
		"credential.https://x.username": false,
		"core.x.cmd":                    false,
		"user.name":                     false,
	} {
		if got := gitCommandKey(key); got != want {
			t.Errorf("gitCommandKey(%q) = %v, want %v", key, got, want)
		}
	}
}
