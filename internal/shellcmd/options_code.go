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
	"vim":     {"c", "cmd", "S", "u", "U"},
	"vi":      {"c", "cmd", "S", "u", "U"},
	"nvim":    {"c", "cmd", "S", "l", "u"},
	"view":    {"c", "cmd", "S", "u", "U"},
	"vimdiff": {"c", "cmd", "S", "u", "U"},
	"ex":      {"c", "cmd", "S", "u", "U"},
	"make":    {"E", "eval"},
	"gmake":   {"E", "eval"},
	"git":     {"exec-path", "upload-pack", "receive-pack", "config-env"},
	"wget":    {"use-askpass", "e", "execute"},
	"less":    {"lesskey-src", "lesskey-file", "k"},
	"zless":   {"lesskey-src", "lesskey-file", "k"},
	"curl":    {"engine"},
}

// vimNoScript are the values of vim's -u and -U that name no file: no
// vimrc, or vim's own defaults.
var vimNoScript = map[string]bool{"NONE": true, "NORC": true, "NOPLUGIN": true, "DEFAULTS": true}

// VimNoScript reports whether v, the value of vim's -u or -U, names no
// file (NONE, NORC, NOPLUGIN, DEFAULTS).
func VimNoScript(v string) bool { return vimNoScript[v] }

// abbreviatingPrograms read their long options with getopt_long or argp,
// which take any unambiguous prefix: make's "--ev=x" is "--eval=x".
var abbreviatingPrograms = map[string]bool{"man": true, "make": true, "gmake": true, "wget": true}

// longOption reports whether t gives the long option opt, as a program
// reads it: "--opt" or "--opt=value", or for a program that takes a prefix
// of a long option (abbreviatingPrograms) "--o" and "--op=value" too. A
// prefix another option shares is taken as well: the program refuses an
// ambiguous one, and one it reads as the other needs only approval.
func longOption(name, t, opt string) bool {
	given, ok := strings.CutPrefix(t, "--")
	if !ok {
		return false
	}
	given, _, _ = strings.Cut(given, "=")
	if given == opt {
		return true
	}
	return abbreviatingPrograms[name] && given != "" && strings.HasPrefix(opt, given)
}

// makeInputFile reports the makefile form[i] names when it is make's -f
// (--file, --makefile, a prefix of either, or a cluster ending in f) and
// whether that makefile is the command's input or another file the line
// itself supplies ("-", /dev/stdin, /dev/fd/N, /proc/.../fd/N): its recipes
// are commands the line gives, which only make runs.
func makeInputFile(form []Word, i int) (string, bool) {
	t := form[i].Text
	v, found := "", false
	switch {
	case strings.HasPrefix(t, "--"):
		given, val, eq := strings.Cut(t[2:], "=")
		if given == "" || !strings.HasPrefix("file", given) && !strings.HasPrefix("makefile", given) {
			return "", false
		}
		v, found = val, true
		if !eq && i+1 < len(form) {
			v = form[i+1].Text
		}
	case strings.HasPrefix(t, "-"):
		at := strings.IndexByte(t, 'f')
		if at < 0 {
			return "", false
		}
		v, found = t[at+1:], true
		if v == "" && i+1 < len(form) {
			v = form[i+1].Text
		}
	}
	if !found || v == "/dev/null" {
		return "", false
	}
	return v, v == "-" || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/")
}

// sshCommandOption matches ssh -o options that run a local command.
var sshCommandOption = regexp.MustCompile(`(?i)^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|pkcs11provider|securitykeyprovider)\b`)

// sshTakes are the short options of ssh, scp and sftp that take a value
// (the rest of their word, or the next word), from their getopt strings
// (OpenSSH 9); the others are flags, which a cluster may hold before one.
var sshTakes = map[string]string{"ssh": "BDEFIJLOPQRSWbceilmopw", "scp": "DFJPSXcilo", "sftp": "BDFJPRSXbcilosS"}

// sshOptionNote returns a note when the word form[i] of ssh, scp or sftp
// gives, alone or in a cluster of short options (-o, -vo, -4oX=y), an
// option that runs a local command: -o with a command option, -F (a
// configuration file, whose ProxyCommand and LocalCommand run), scp's and
// sftp's -S (the program they run for ssh).
func sshOptionNote(name string, form []Word, i int) (Note, bool) {
	t := form[i].Text
	if len(t) < 2 || t[0] != '-' || t[1] == '-' {
		return Note{}, false
	}
	for j := 1; j < len(t); j++ {
		c := t[j]
		if strings.IndexByte(sshTakes[name], c) < 0 {
			continue // a flag
		}
		v := t[j+1:]
		if v == "" && i+1 < len(form) {
			v = form[i+1].Text
		}
		switch {
		case c == 'o' && sshCommandOption.MatchString(v):
			return Note{Kind: RunsCode, Text: name + " -o " + v + " runs a local command"}, true
		case c == 'F' || c == 'S' && name != "ssh":
			return Note{Kind: RunsCode, Text: name + " " + t + " runs a local command the line does not show"}, true
		case c == 'I':
			return Note{Kind: RunsCode, Text: name + " " + t + " loads the PKCS#11 library it names"}, true
		}
		return Note{}, false // the rest of the word, or the next, is c's value
	}
	return Note{}, false
}

// codeOptionNote returns a note when form uses an option that runs code.
func codeOptionNote(form []Word) (Note, bool) {
	name := form[0].Name()
	o := staticWords{form: form}
	for o.next() {
		i, t := o.at, o.text()
		switch name {
		case "ssh", "scp", "sftp":
			if n, ok := sshOptionNote(name, form, i); ok {
				return n, true
			}
			continue
		case "vim", "vi", "nvim", "view", "vimdiff", "ex":
			if strings.HasPrefix(t, "+") {
				return Note{Kind: RunsCode, Text: name + " " + t + " runs editor commands, which can run programs"}, true
			}
			if (t == "-u" || t == "-U") && i+1 < len(form) && vimNoScript[staticText(form[i+1])] {
				o.next() // -u NONE: no vimrc at all
				continue
			}
		case "setfacl":
			// --restore=F sets the ACLs of the files F lists, and "-"
			// reads the names of the files to change from the input.
			if strings.HasPrefix(t, "--restore") || t == "-" {
				return Note{Kind: Unparsed, Text: "setfacl " + t + " changes files whose names the line does not hold"}, true
			}
		case "openssl":
			// -engine, -provider, -provider-path and -config load code
			// or a configuration that names it.
			switch strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-") {
			case "engine", "provider", "provider-path", "config", "keygen_engine", "ssl_client_engine":
				return Note{Kind: RunsCode, Text: "openssl " + t + " loads code the line does not show"}, true
			}
		case "less":
			if strings.HasPrefix(t, "+") {
				return Note{Kind: RunsCode, Text: "less " + t + " runs less commands at start, whose ! runs a shell command"}, true
			}
		case "make", "gmake":
			if strings.HasPrefix(t, "SHELL=") || strings.HasPrefix(t, ".SHELLFLAGS=") {
				return Note{Kind: RunsCode, Text: name + " " + t + " changes the shell its recipes run in"}, true
			}
			if f, ok := makeInputFile(form, i); ok {
				return Note{Kind: RunsCode, Text: name + " reads its makefile from " + f + ", whose recipes are commands the line gives"}, true
			}
		}
		for _, opt := range codeOptions[name] {
			long := len(opt) > 1
			if long && longOption(name, t, opt) ||
				!long && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t[1:], opt) {
				return Note{Kind: RunsCode, Text: name + " " + t + " runs a command it is given"}, true
			}
		}
	}
	return Note{}, false
}
