package shellcmd

import (
	"slices"
	"strings"
)

// gitConfigRuns adds to st the command a configuration value given on the
// line ("git -c key=value", "git clone -c key=value") makes git run: an
// alias's expansion, with the words after it when it is the subcommand
// sub (a "!" alias is shell code, another a git command line), or a key
// whose value is a command (gitCommandKey). A value computed at run time
// may be any of them.
func gitConfigRuns(st *step, kv Word, sub Word, args []Word) {
	if kv.Kind != Static {
		st.notes = append(st.notes, Note{Kind: NotStatic, Text: "git is given configuration computed at run time, which may be a command it runs: " + kv.String()})
		return
	}
	key, value, ok := strings.Cut(kv.Text, "=")
	key = strings.ToLower(key)
	if slices.ContainsFunc(gitCodeKeys, func(k string) bool { return strings.HasPrefix(key, k) }) {
		st.notes = append(st.notes, Note{Kind: RunsCode, Text: "git -c " + kv.Text + " makes git run a command"})
	}
	if !ok {
		return // "-c key" sets key to true
	}
	if gitUnseenKey(key) {
		st.notes = append(st.notes, Note{Kind: Unparsed, Text: "git -c " + key + " takes configuration or commands from where the line does not show"})
		return
	}
	if name, isAlias := strings.CutPrefix(key, "alias."); isAlias {
		line, rest := value, Word{Kind: Static}
		if sub.Kind == Static && strings.EqualFold(sub.Text, name) {
			rest = quotedWords(args)
		}
		if code, bang := strings.CutPrefix(value, "!"); bang {
			line = code
		} else {
			line = "git " + value
		}
		if rest.Text != "" {
			line += " " + rest.Text
		}
		st.shell = append(st.shell, shellRun{word: Word{Kind: rest.Kind, Text: line, Why: rest.Why}, langs: dialectsOf("sh")})
		return
	}
	if !gitCommandKey(key) || gitBoolean(value) {
		return
	}
	if strings.HasSuffix(key, ".smtpserver") && !strings.HasPrefix(value, "/") {
		return // a host name
	}
	if strings.HasPrefix(key, "submodule.") {
		code, bang := strings.CutPrefix(value, "!")
		if !bang {
			return // checkout, rebase, merge, none
		}
		value = code
	}
	if key == "credential.helper" || strings.HasPrefix(key, "credential.") {
		// A helper named without a path is git's credential-NAME.
		if code, bang := strings.CutPrefix(value, "!"); bang {
			value = code
		} else if !strings.Contains(value, "/") {
			value = "git credential-" + value
		}
	}
	st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: value}, langs: dialectsOf("sh")})
}

// gitCodeKeys are git configuration keys (lower case, by prefix) whose
// value is, names or leads to a command git runs: given on the line, they
// need approval unless a rule names git.
var gitCodeKeys = []string{"alias.", "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.hookspath",
	"core.gitproxy", "core.askpass", "diff.", "filter.", "credential.", "sequence.editor", "pager.", "gpg.", "uploadpack.",
	"merge.", "interactive.difffilter", "protocol.", "url.", "include.", "includeif.", "sendemail.", "web.browser",
	"browser.", "trailer.", "tar.", "submodule.", "mergetool.", "difftool.", "remote.", "init.templatedir",
	"core.alternaterefscommand", "man.", "help.", "guitool.", "instaweb.", "hook."}

// gitCommandKey reports whether a configuration key (lower case) holds a
// command git runs, with the shell.
func gitCommandKey(key string) bool {
	switch key {
	case "core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.fsmonitor", "core.gitproxy",
		"sequence.editor", "diff.external", "interactive.difffilter", "gpg.program", "sendemail.sendmailcmd",
		"sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd", "uploadpack.packobjectshook", "credential.helper",
		"core.alternaterefscommand", "instaweb.httpd":
		return true
	}
	section, rest, _ := strings.Cut(key, ".")
	last := rest[strings.LastIndexByte(rest, '.')+1:]
	switch section {
	case "pager":
		return true
	case "sendemail":
		// sendemail.<identity>.sendmailCmd and the like; an
		// smtpServer that is an absolute path is a program git runs.
		return strings.HasSuffix(last, "cmd") || last == "smtpserver"
	}
	return slices.Contains(gitCommandNames[section], last)
}

// gitCommandNames are, by section, the last words of the configuration
// keys (lower case) that hold a command git runs: diff.<driver>.textconv,
// filter.<driver>.smudge, remote.<name>.uploadpack. man.<tool>.cmd runs
// with the shell, man.<tool>.path is the program git help -m runs for man,
// woman or konqueror.
var gitCommandNames = map[string][]string{
	"diff":       {"command", "textconv"},
	"filter":     {"clean", "smudge", "process"},
	"merge":      {"driver"},
	"mergetool":  {"cmd", "path"},
	"difftool":   {"cmd", "path"},
	"browser":    {"cmd", "path"},
	"man":        {"cmd", "path"},
	"guitool":    {"cmd"},
	"hook":       {"command"},
	"gpg":        {"program", "defaultkeycommand"},
	"trailer":    {"command", "cmd"},
	"tar":        {"command"},
	"submodule":  {"update"},
	"remote":     {"uploadpack", "receivepack"},
	"credential": {"helper"},
}

// gitUnseenKey reports whether a configuration key (lower case) makes git
// take configuration or run commands from a file or directory the line
// does not show (include.path, core.hooksPath, init.templateDir, whose
// hooks git init copies in), or lets a URL run one (protocol.ext.allow): a
// rule naming git does not vouch for those.
func gitUnseenKey(key string) bool {
	return strings.HasPrefix(key, "include.") || strings.HasPrefix(key, "includeif.") ||
		key == "core.hookspath" || key == "init.templatedir" || strings.HasPrefix(key, "protocol.")
}

// gitBoolean reports whether value is one of git's booleans, which a
// key such as pager.log or core.fsmonitor takes instead of a command.
func gitBoolean(value string) bool {
	switch strings.ToLower(value) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// quotedWords returns words as one shell string that gives them back as
// the shell gave them to git: a static word single-quoted, a pattern as
// it is; Dynamic if any of them is.
func quotedWords(words []Word) Word {
	out := Word{Kind: Static}
	for i, w := range words {
		if i > 0 {
			out.Text += " "
		}
		switch w.Kind {
		case Glob:
			out.Text += w.Text // the pattern as the shell reads it: git is given what it matches
			continue
		case Static:
			out.Text += "'" + strings.ReplaceAll(w.Text, "'", `'\''`) + "'"
			continue
		}
		out.Text += w.Text
		out.Kind, out.Why = Dynamic, w.Why
	}
	return out
}
