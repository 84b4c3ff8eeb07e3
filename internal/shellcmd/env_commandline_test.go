package shellcmd

import "testing"

// TestEnvValueIsCommandLine: the editors, pagers and command variables a
// program runs with a shell are command lines, by name or by how the name
// ends; a variable of another use is not.
func TestEnvValueIsCommandLine(t *testing.T) {
	for name, want := range map[string]bool{
		"EDITOR": true, "VISUAL": true, "GIT_EDITOR": true, "PAGER": true, "GIT_PAGER": true,
		"MANPAGER": true, "FCEDIT": true, "GREP": true, "SUDO_EDITOR": true, "KUBE_EDITOR": true,
		"HGEDITOR": true, "GH_PAGER": true, "FZF_DEFAULT_COMMAND": true, "MY_CMD": true,

		"PATH": false, "NODE_ENV": false, "EDITOR_THEME": false, "CMDLINE_X": false,
		"1EDITOR": false,
	} {
		if got := EnvValueIsCommandLine(name); got != want {
			t.Errorf("EnvValueIsCommandLine(%q) = %v, want %v", name, got, want)
		}
	}
}
