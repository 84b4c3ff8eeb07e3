package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitConfigWrites returns the files a "git [-C dir] config ..." that
// changes configuration writes, as words written: the repository's
// .git/config (where git finds the repository, the line does not say;
// the name is protected wherever it lies) unless --global
// (~/.gitconfig, ~/.config/git/config), --system (/etc/gitconfig),
// --file or --blob names another file, and that file. The configuration says which commands git
// runs (core.fsmonitor on the person's next "git status", aliases,
// pagers, hooks), so "git config core.fsmonitor 'sh x'" is a change to
// .git/config as much as "echo ... >> .git/config" is. A line that only
// reads configuration (--get, --list, "git config get", one name alone)
// writes nothing; anything the reading is not sure of is a write.
func gitConfigWrites(form []shellcmd.Word) []argWord {
	base, at, ok := gitSubcommand(form, "config")
	if !ok {
		return nil
	}
	word := form[at]
	o := shellcmd.ReadGitArgs("config", form[at+1:])
	var files []string
	for _, v := range o.Values("file") {
		files = append(files, joinRaw(base, v.Text))
	}
	elsewhere := o.Surely("file") || o.Surely("blob") || o.Surely("global") || o.Surely("system")
	if o.Has("global") {
		files = append(files, "~/.gitconfig", "~/.config/git/config")
	}
	if o.Has("system") {
		files = append(files, "/etc/gitconfig")
	}
	if o.Has("worktree") {
		files = append(files, joinRaw(base, ".git/config.worktree"))
	}
	write, read := o.Computed, false
	for _, names := range o.Given() {
		for _, n := range names {
			switch {
			case gitConfigReads[n]:
				read = read || len(names) == 1
			case !gitConfigModifiers[n]:
				write = true // a change (--add, --unset, -e, ...) or an option not known
			}
		}
	}
	operands := len(o.Operands)
	if len(o.Operands) > 0 && o.Operands[0].Kind == shellcmd.Static && !o.DashDash {
		verb := gitConfigVerbs[o.Operands[0].Text]
		write, read = write || verb == configWrites, read || verb == configReads
	}
	if !write && (read || operands == 1) {
		return nil
	}
	if !elsewhere {
		files = append([]string{joinRaw(base, ".git/config")}, files...)
	}
	out := make([]argWord, 0, len(files))
	for _, f := range files {
		w := word
		if strings.HasPrefix(f, "~/") {
			w = configFileWord(f, false) // the home directory's
		}
		out = append(out, argWord{word: w, text: f, write: true})
	}
	return out
}

// What the first operand of "git config" (git 2.46 and later) does.
const (
	configReads = iota + 1
	configWrites
)

// gitConfigVerbs are git config's subcommands.
var gitConfigVerbs = map[string]int{"list": configReads, "get": configReads, "set": configWrites, "unset": configWrites,
	"rename-section": configWrites, "remove-section": configWrites, "edit": configWrites}

// gitConfigReads are git config's options that read configuration.
var gitConfigReads = map[string]bool{"get": true, "get-all": true, "get-regexp": true, "get-urlmatch": true,
	"get-color": true, "get-colorbool": true, "list": true}

// gitConfigModifiers are git config's options that change neither what
// it does nor where it writes (the scope of a read, the form of a value,
// the file, whose writes are decided apart).
var gitConfigModifiers = map[string]bool{"local": true, "includes": true, "show-origin": true,
	"show-scope": true, "name-only": true, "z": true, "null": true, "fixed-value": true, "bool": true,
	"int": true, "bool-or-int": true, "bool-or-str": true, "path": true, "expiry-date": true, "all": true, "type": true,
	"default": true, "url": true, "file": true, "blob": true, "global": true, "system": true, "worktree": true}
