package shellcmd

import (
	"regexp"
	"strings"
)

// Programs that are not shells or interpreters but run a command or
// editor script named by one of their options (GTFOBins calls these
// "shell escapes"). With such an option the command needs approval unless
// a rule names the program.

// codeOptions maps a program to its options that run code. A name of one
// letter is a short option (given alone, in a cluster, or with its value
// attached); longer names are long options ("--to-command" or
// "--to-command=x").
var codeOptions = map[string][]string{
	"man":     {"H", "html"},
	"vim":     {"c", "cmd", "S"},
	"vi":      {"c", "cmd", "S"},
	"nvim":    {"c", "cmd", "S", "l"},
	"view":    {"c", "cmd", "S"},
	"vimdiff": {"c", "cmd", "S"},
	"ex":      {"c", "cmd", "S"},
	"make":    {"eval"},
	"gmake":   {"eval"},
	"git":     {"exec-path", "upload-pack", "receive-pack", "config-env"},
	"wget":    {"use-askpass", "e", "execute"},
}

// sshCommandOption matches ssh -o options that run a local command.
var sshCommandOption = regexp.MustCompile(`(?i)^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match)\b`)

// codeOptionNote returns a note when form uses an option that runs code.
func codeOptionNote(form []Word) (Note, bool) {
	name := form[0].Name()
	for i := 1; i < len(form); i++ {
		wd := form[i]
		if wd.Kind != Static {
			continue
		}
		t := wd.Text
		if t == "--" {
			break
		}
		switch name {
		case "ssh", "scp", "sftp":
			v := ""
			switch {
			case t == "-o" && i+1 < len(form):
				v = form[i+1].Text
			case strings.HasPrefix(t, "-o"):
				v = t[2:]
			}
			if sshCommandOption.MatchString(v) {
				return Note{Kind: RunsCode, Text: name + " -o " + v + " runs a local command"}, true
			}
			// -F names a configuration file, whose ProxyCommand and
			// LocalCommand run; scp's and sftp's -S a program they run.
			if strings.HasPrefix(t, "-F") || name != "ssh" && strings.HasPrefix(t, "-S") {
				return Note{Kind: RunsCode, Text: name + " " + t + " runs a local command the line does not show"}, true
			}
			continue
		case "vim", "vi", "nvim", "view", "vimdiff", "ex":
			if strings.HasPrefix(t, "+") {
				return Note{Kind: RunsCode, Text: name + " " + t + " runs editor commands, which can run programs"}, true
			}
		case "less":
			if strings.HasPrefix(t, "+") {
				return Note{Kind: RunsCode, Text: "less " + t + " runs less commands at start, whose ! runs a shell command"}, true
			}
		case "make", "gmake":
			if strings.HasPrefix(t, "SHELL=") || strings.HasPrefix(t, ".SHELLFLAGS=") {
				return Note{Kind: RunsCode, Text: name + " " + t + " changes the shell its recipes run in"}, true
			}
		}
		for _, opt := range codeOptions[name] {
			long := len(opt) > 1
			if long && (t == "--"+opt || strings.HasPrefix(t, "--"+opt+"=")) ||
				!long && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t[1:], opt) {
				return Note{Kind: RunsCode, Text: name + " " + t + " runs a command it is given"}, true
			}
		}
	}
	return Note{}, false
}
