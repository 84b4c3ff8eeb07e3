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
	var files []string
	write, read, operands, elsewhere := false, false, 0, false
	args := form[at+1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Kind != shellcmd.Static {
			write = true
			continue
		}
		t := w.Text
		name, value, hasValue := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		switch {
		case t == "--":
			operands += len(args) - i - 1
			i = len(args)
		case !strings.HasPrefix(t, "-"):
			if operands == 0 && gitConfigVerbs[t] != 0 {
				write, read = write || gitConfigVerbs[t] == configWrites, read || gitConfigVerbs[t] == configReads
			}
			operands++
		case t == "-f" || t == "--file" || t == "--blob" || t == "--type" || t == "--default" ||
			t == "--comment" || t == "--value" || t == "--url":
			if i+1 < len(args) && (t == "-f" || t == "--file") {
				files = append(files, joinRaw(base, args[i+1].Text))
			}
			elsewhere = elsewhere || t == "-f" || t == "--file" || t == "--blob"
			i++
		case strings.HasPrefix(t, "-f") && !strings.HasPrefix(t, "--"):
			files = append(files, joinRaw(base, t[2:]))
			elsewhere = true
		case hasValue && (name == "file" || name == "blob"):
			if name == "file" {
				files = append(files, joinRaw(base, value))
			}
			elsewhere = true
		case t == "--global":
			files = append(files, "~/.gitconfig", "~/.config/git/config")
			elsewhere = true
		case t == "--system":
			files = append(files, "/etc/gitconfig")
			elsewhere = true
		case t == "--worktree":
			files = append(files, joinRaw(base, ".git/config.worktree"))
		case gitConfigReads[t]:
			read = true
		case gitConfigModifiers[t] || hasValue && gitConfigModifiers["--"+name]:
		default:
			write = true // a change (--add, --unset, -e, ...) or an option not known
		}
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
var gitConfigReads = map[string]bool{"--get": true, "--get-all": true, "--get-regexp": true, "--get-urlmatch": true,
	"--get-color": true, "--get-colorbool": true, "-l": true, "--list": true}

// gitConfigModifiers are git config's options that change neither what
// it does nor where: the scope of a read (--local), its form.
var gitConfigModifiers = map[string]bool{"--local": true, "--includes": true, "--no-includes": true, "--show-origin": true,
	"--show-scope": true, "--name-only": true, "-z": true, "--null": true, "--fixed-value": true, "--bool": true,
	"--int": true, "--bool-or-int": true, "--path": true, "--expiry-date": true, "--all": true, "--type": true,
	"--default": true, "--url": true}
