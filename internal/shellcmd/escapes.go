package shellcmd

import (
	"slices"
	"strings"
)

// Programs that are not shells or interpreters by name but run shell
// commands, or code of their own that can, from what they are given: an
// argument, a file, their input. Like an interpreter's, such a command
// needs approval unless a rule names the program: a bare Bash rule does
// not vouch for "sqlite3 x.db '.shell cat .env'".

// escapePrograms maps such a program to how it runs commands; the
// programs in escapeReads run none when given only the options listed.
var escapePrograms = map[string]string{
	"ed":      "ed runs the '!' shell commands of the editing commands it reads",
	"ex":      "ex runs the '!' shell commands of the editor commands it reads",
	"dc":      "dc runs the '!' shell commands of the expressions it is given",
	"m4":      "m4 runs the commands its syscmd and esyscmd macros name",
	"sqlite3": "sqlite3 runs .shell and .system commands, and its SQL reads and writes files (readfile, writefile)",
	"psql":    `psql runs \! shell commands and pipes its output to commands (\o |cmd)`,
	"mysql":   "mysql runs system and \\! shell commands",
	"mariadb": "mariadb runs system and \\! shell commands",
	"at":      "at runs the commands it reads later, outside the bridge",
	"batch":   "batch runs the commands it reads later, outside the bridge",
	"crontab": "crontab installs commands that cron runs later, outside the bridge",
	"emacs":   "emacs runs Emacs Lisp, which runs programs and reads and writes files",
	"sftp":    "sftp runs the '!' local shell commands of the commands it reads",
	"ftp":     "ftp runs the '!' local shell commands of the commands it reads",
	"lftp":    "lftp runs the '!' local shell commands of the commands it is given",
	"docker":  "docker runs commands in containers, which can mount any file the daemon reaches",
	"podman":  "podman runs commands in containers, which can mount any file it reaches",
	"nerdctl": "nerdctl runs commands in containers, which can mount any file it reaches",
	"gdb":     "gdb runs shell commands and Python it is given",
	"nvim":    "",
	"vim":     "",
	"vi":      "",
	"view":    "",
	"gvim":    "",
	"vimdiff": "",
}

// escapeReads lists, for some of escapePrograms, the options or first
// words that make the command only list or read what it keeps.
var escapeReads = map[string][]string{
	"crontab": {"-l"},
	"at":      {"-l"},
	"docker":  {"ps", "images", "version", "info", "inspect", "logs", "--version"},
	"podman":  {"ps", "images", "version", "info", "inspect", "logs", "--version"},
	"nerdctl": {"ps", "images", "version", "info", "inspect", "logs", "--version"},
}

// vimBatch are vim's options that make it read editor commands from its
// input or a file rather than a terminal.
var vimBatch = []string{"-e", "-E", "-es", "-Es", "-s", "--headless"}

// escapeNote returns a note when form runs one of escapePrograms.
func escapeNote(form []Word) (Note, bool) {
	name := form[0].Name()
	why, ok := escapePrograms[name]
	if !ok {
		return Note{}, false
	}
	if why == "" { // vim and its kin: only in batch mode
		for _, w := range form[1:] {
			if w.Kind == Static && (slices.Contains(vimBatch, w.Text) || strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "--") && strings.ContainsAny(w.Text[1:], "eEs")) {
				return Note{Kind: RunsCode, Text: name + " " + w.Text + " runs the editor commands it reads, whose '!' runs shell commands"}, true
			}
		}
		return Note{}, false
	}
	if reads := escapeReads[name]; len(form) == 2 && form[1].Kind == Static && slices.Contains(reads, form[1].Text) ||
		len(form) > 1 && form[1].Kind == Static && len(form[1].Text) > 0 && form[1].Text[0] != '-' && slices.Contains(reads, form[1].Text) {
		return Note{}, false
	}
	return Note{Kind: RunsCode, Text: why}, true
}

// npmCodeKeys are the configuration keys npm, pnpm and yarn take as
// --key=value options (pnpm as --config.key=value) whose value names code
// they run or a file of configuration that can: the same keys in the
// environment (npm_config_*) run code too. A rule allowing "npm run test"
// vouches for the script it runs, not for a shell or a module the line
// slips in, so no rule vouches for these.
var npmCodeKeys = []string{"script-shell", "node-options", "userconfig", "globalconfig", "shell", "call",
	"onload-script", "init-module", "editor", "browser", "git", "node-gyp"}

// npmConfigNote returns a note when form gives npm, pnpm or yarn one of
// npmCodeKeys on the line.
func npmConfigNote(form []Word) (Note, bool) {
	switch form[0].Name() {
	case "npm", "pnpm", "yarn", "npx", "pnpx":
	default:
		return Note{}, false
	}
	for _, w := range form[1:] {
		if w.Kind != Static {
			continue
		}
		if w.Text == "--" {
			break
		}
		name, ok := strings.CutPrefix(w.Text, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		name = strings.TrimPrefix(strings.ToLower(name), "config.")
		if slices.Contains(npmCodeKeys, name) || slices.Contains(npmCodeKeys, strings.ReplaceAll(name, "_", "-")) {
			return Note{Kind: Unparsed, Text: form[0].Name() + " " + w.Text + " names code it runs, which no rule vouches for"}, true
		}
	}
	return Note{}, false
}

// ghNote returns a note when form is a GitHub CLI command that installs
// or names code gh runs later, outside the bridge: a shell alias (gh
// alias set x '!cmd'), an extension (a program it downloads and runs), an
// editor, pager or browser in its configuration.
func ghNote(form []Word) (Note, bool) {
	if form[0].Name() != "gh" || len(form) < 2 {
		return Note{}, false
	}
	var words []string
	for _, w := range form[1:] {
		if w.Kind != Static {
			if len(words) < 2 {
				// It may be the command or its subcommand.
				return Note{Kind: NotStatic, Text: "gh is given a word computed at run time: " + w.String()}, true
			}
			break
		}
		if !strings.HasPrefix(w.Text, "-") {
			words = append(words, w.Text)
		}
	}
	if len(words) == 0 {
		return Note{}, false
	}
	switch words[0] {
	case "alias", "extension", "ext", "extensions":
		if len(words) > 1 && (words[1] == "list" || words[1] == "ls") {
			return Note{}, false
		}
		return Note{Kind: RunsCode, Text: "gh " + words[0] + " installs or runs commands gh runs later"}, true
	case "config":
		if len(words) > 1 && words[1] == "set" {
			return Note{Kind: RunsCode, Text: "gh config set can name an editor, pager or browser gh runs"}, true
		}
	}
	return Note{}, false
}
