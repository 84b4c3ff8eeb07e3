package shellcmd

import "testing"

// TestGitCommandKey: every configuration key whose value is a command git
// runs is one, whatever its subsection; the other keys of those sections,
// and a section's command name under another section, are not.
func TestGitCommandKey(t *testing.T) {
	for want, keys := range map[bool][]string{
		true: {"core.pager", "core.alternaterefscommand", "instaweb.httpd", "pager.log",
			"diff.x.command", "diff.x.textconv", "filter.x.clean", "filter.x.smudge", "filter.x.process",
			"merge.x.driver", "mergetool.x.cmd", "mergetool.x.path", "difftool.x.cmd", "difftool.x.path",
			"browser.x.cmd", "browser.x.path", "man.x.cmd", "man.x.path", "guitool.x.cmd", "hook.x.command",
			"sendemail.x.sendmailcmd", "sendemail.x.smtpserver", "gpg.x.program", "gpg.ssh.defaultkeycommand",
			"trailer.x.command", "trailer.x.cmd", "tar.x.command", "submodule.x.update",
			"remote.x.uploadpack", "remote.x.receivepack", "credential.https://x.helper"},
		false: {"diff.x.cmd", "filter.x.required", "merge.x.name", "mergetool.x.trustexitcode",
			"guitool.x.path", "hook.x.event", "sendemail.x.smtpuser", "gpg.x.format", "trailer.x.key",
			"submodule.x.url", "remote.x.url", "credential.https://x.username", "core.x.cmd", "user.name"},
	} {
		for _, key := range keys {
			if got := gitCommandKey(key); got != want {
				t.Errorf("gitCommandKey(%q) = %v, want %v", key, got, want)
			}
		}
	}
}
