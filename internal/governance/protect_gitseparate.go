package governance

import (
	"fmt"
	"os"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitSeparatesGitDir denies git init or git clone given
// --separate-git-dir=DIR (or any prefix of it git accepts, "--sep DIR",
// read by ReadGitArgs). git init in a directory holding a .git moves that
// repository to DIR and leaves a .git file naming it: the workspace's own
// .git, with its configuration and hooks, is changed, as moving it would.
// And DIR becomes a git directory, whose config (core.fsmonitor,
// aliases) and hooks git runs, under a name the bridge does not protect
// as a .git: with other commands on the line (others), one of them may
// write there before git reads it, so the line is refused as a whole.
func (e *Engine) gitSeparatesGitDir(in *reqInfo, list []protected, form []shellcmd.Word, cwd, source string, others bool) (verdict, bool) {
	for _, sub := range [...]string{"init", "clone"} {
		base, at, ok := gitSubcommand(form, sub)
		if !ok {
			continue
		}
		o := shellcmd.ReadGitArgs(sub, form[at+1:])
		dirs := o.Values("separate-git-dir")
		bare := o.Has("bare") || sub == "clone" && o.Has("mirror")
		if len(dirs) == 0 && !bare {
			return verdict{}, false
		}
		if len(dirs) == 0 {
			// git init --bare, git clone --bare or --mirror: the
			// directory it makes is a git directory, under any name.
			if others {
				return verdict{value: Deny, ref: "self-protection",
					ruleTx: "deny changes to a git directory's configuration and hooks, which git runs commands from (built-in self-protection)",
					reason: fmt.Sprintf("running %q: git %s makes a git directory, whose configuration and hooks run commands, and the line runs other commands that may write there; run it on a line of its own", strings.TrimSpace(source), sub)}, true
			}
			return verdict{}, false
		}
		sep := dirs[len(dirs)-1].Text
		if others {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: "deny commands naming a repository's .git, a directory or a file naming one, where git finds configuration and hooks that run commands (built-in self-protection)",
				reason: fmt.Sprintf("running %q: git %s --separate-git-dir makes %s a git directory, whose configuration and hooks run commands, and the line runs other commands that may write there; run it on a line of its own", strings.TrimSpace(source), sub, sep)}, true
		}
		if sub != "init" {
			return verdict{}, false
		}
		dir := joinRaw(cwd, base)
		if len(o.Operands) > 0 {
			if o.Operands[0].Kind != shellcmd.Static {
				return verdict{}, false // decided as written by gitOutputWrites
			}
			dir = joinRaw(dir, o.Operands[0].Text)
		}
		if _, err := os.Lstat(joinRaw(dir, ".git")); err == nil {
			return verdict{value: Deny, ref: "self-protection",
				ruleTx: "deny commands naming a repository's .git, a directory or a file naming one, where git finds configuration and hooks that run commands (built-in self-protection)",
				reason: fmt.Sprintf("running %q: git init --separate-git-dir moves the repository at %s/.git to %s and leaves a file naming it; a repository's .git is protected from the agent whatever the policy says", strings.TrimSpace(source), strings.TrimSuffix(dir, "/"), sep)}, true
		}
		return verdict{}, false
	}
	return verdict{}, false
}

// othersThanCd reports whether the line a runs a command besides c that
// is not cd, pushd or popd (which change only where the rest runs): one
// that may write a file c's git directory holds.
func othersThanCd(a *shellcmd.Analysis, c *shellcmd.Command) bool {
	for _, o := range a.Commands {
		if o == c {
			continue
		}
		for _, f := range o.Forms {
			if len(f) == 0 || f[0].Kind != shellcmd.Static {
				return true
			}
			switch f[0].Text {
			case "cd", "pushd", "popd":
			default:
				return true
			}
		}
		if len(o.Forms) == 0 {
			return true
		}
	}
	return false
}
