package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// userConfigWrites returns the configuration files a command that changes
// a program's settings writes (shellcmd.ConfigChangeOf: go env -w, npm
// config set, pip config set, ...), as words written: the person's own
// files lie outside the workspace roots, where a write is denied as a
// redirection's is, and a project's file (npm's --location=project,
// poetry's --local) meets the policy's Edit rules. A file whose place the
// line does not show (npm's global prefix) is asked about.
func userConfigWrites(form []shellcmd.Word) []argWord {
	c, ok := shellcmd.ConfigChangeOf(form)
	if !ok {
		return nil
	}
	out := make([]argWord, 0, len(c.Files))
	for _, f := range c.Files {
		out = append(out, argWord{word: configFileWord(f.Path, f.Computed), text: f.Path, write: true,
			namedBy: "the configuration " + c.Program + " writes"})
	}
	return out
}

// configFileWord is the word a configuration file's name stands for: a
// name in the home directory ("~/.npmrc") is the shell's tilde word,
// which decideArg joins to the home directory, and a computed place is
// a word not known until the line runs, asked about.
func configFileWord(name string, computed bool) shellcmd.Word {
	if computed || strings.HasPrefix(name, "~/") {
		return shellcmd.Word{Kind: shellcmd.Dynamic, Text: name}
	}
	return shellcmd.Word{Kind: shellcmd.Static, Text: name}
}
