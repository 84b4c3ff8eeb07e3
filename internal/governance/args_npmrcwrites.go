package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// npm and pnpm read the project's .npmrc beside package.json for where
// they write and what else they read as well as for what they run: every
// npm command writes its debug log into logs-dir, one that fetches writes
// its cache into cache, and each reads the configuration files userconfig
// and globalconfig name (and the certificates cafile names). No word of the
// line names them, and the agent writes the .npmrc with an edit the policy
// allows, so "logs-dir=/home/me/x" there has "npm ls", under a rule
// allowing npm, write outside the workspace, "logs-dir=audit" beside the
// audit log, and "userconfig=.env" has "npm config list" print .env.
// npmrcWritesVerdict decides each such directory as a write of the
// command's, and each such file as a read.

// npmrcWrittenKeys are the .npmrc keys, in lower case, whose value is a
// directory npm writes into.
var npmrcWrittenKeys = setOf("logs-dir", "cache")

// npmrcReadKeys are the .npmrc keys, in lower case, whose value is a file
// npm reads.
var npmrcReadKeys = setOf("userconfig", "globalconfig", "cafile")

// npmrcWrites returns the directories the .npmrc in top has npm write
// into, and the files it has npm read, relative to top; a value npm
// expands when it runs (${VAR}, ~) is returned as written, a name not
// known until then.
func npmrcWrites(top string) (out, reads []string) {
	text, why := readTextFile(filepath.Join(top, ".npmrc"))
	if why != "" {
		return nil, nil
	}
	for _, e := range npmrcEntries(text) {
		key, value := e.key, e.value
		switch {
		case value == "":
		case npmrcWrittenKeys[key]:
			out = append(out, joinRaw(top, value))
		case npmrcReadKeys[key]:
			reads = append(reads, joinRaw(top, value))
		}
	}
	return out, reads
}

// npmrcWritesVerdict decides the directories the project .npmrc of each
// npm or pnpm form of c has it write into, and the files it has it read,
// as the same names on the line are.
func (e *Engine) npmrcWritesVerdict(in *reqInfo, c *shellcmd.Command, advisories *[]string) (verdict, bool) {
	bases, unknown := e.commandDirs(in, c.Dir)
	if unknown || len(bases) != 1 {
		return verdict{}, false // the .npmrc of a directory not known: its scripts' reading asks
	}
	var worst strictest
	for _, form := range c.Forms {
		if len(form) == 0 || form[0].Kind != shellcmd.Static {
			continue
		}
		name := filepath.Base(form[0].Text)
		if name != "npm" && name != "pnpm" {
			continue
		}
		top, _, ok := manifestDir(name, manifestTools[name], form, bases[0])
		if !ok {
			top = bases[0]
		}
		dirs, reads := npmrcWrites(top)
		for _, p := range reads {
			kind := shellcmd.Static
			if strings.ContainsAny(p, "$~") {
				kind = shellcmd.Dynamic
			}
			a := argWord{word: shellcmd.Word{Kind: kind, Text: p}, text: p,
				namedBy: "in " + filepath.Join(top, ".npmrc") + ", which npm reads"}
			worst.keepIf(e.decideArg(in, a, shellcmd.Dir{}, advisories))
		}
		for _, dir := range dirs {
			kind := shellcmd.Static
			if strings.ContainsAny(dir, "$~") {
				kind = shellcmd.Dynamic
			}
			// The directory, which npm makes, and a file in it, which
			// npm writes (a protected directory refuses what goes in).
			for _, p := range []string{dir, joinRaw(dir, "npm-debug.log")} {
				a := argWord{word: shellcmd.Word{Kind: kind, Text: p}, text: p, write: true,
					namedBy: "in " + filepath.Join(top, ".npmrc") + ", where npm writes"}
				worst.keepIf(e.decideArg(in, a, shellcmd.Dir{}, advisories))
			}
		}
	}
	return worst.result()
}
