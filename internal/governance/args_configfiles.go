package governance

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// curl and wget read options from a file the line names as readily as from
// the line ("curl -K cfg URL" with "output = keys/a.key" in cfg; "wget
// --config=cfg URL" with "output_document = keys/a.key"), and the agent
// writes that file with an edit the policy allows. configFileVerdict reads
// each such file when the request is decided, as script files are read
// (args_scripts.go), puts its options where the line gives them, and
// decides the files they name as the same options on the line are
// decided. A file the bridge cannot read needs approval (scriptText says
// why), as does curl's configuration from its input ("-K -").

// maxConfigDepth bounds how deep configuration files may name others
// (curl's "config = other"); past it the command needs approval.
const maxConfigDepth = 4

// configFileVerdict decides the options the configuration files c's curl
// or wget reads give; others says the line runs other commands. written
// are the files those options write, for what the line writes through a
// descriptor's name (lineGiven: "output = /dev/stdin").
func (e *Engine) configFileVerdict(in *reqInfo, c *shellcmd.Command, others bool, advisories *[]string) (v verdict, ok bool, written []argWord) {
	var worst strictest
	for _, form := range c.Forms {
		worst.keepIf(e.configFormVerdict(in, c, form, nil, others, 0, &written, advisories))
	}
	v, ok = worst.result()
	return v, ok, written
}

// configFormVerdict decides the configuration files form names, depth
// files deep, adding the files their options write to written. outer are
// the words of the line and of the files that name form's (empty for the
// line's own form): curl reads a file's options with theirs, so "config =
// b" in a -K file, b holding "proto-default = file", makes the line's
// URLs file URLs.
func (e *Engine) configFormVerdict(in *reqInfo, c *shellcmd.Command, form, outer []shellcmd.Word, others bool, depth int, written *[]argWord, advisories *[]string) (verdict, bool) {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || !systemProgram(form[0].Text) {
		return verdict{}, false
	}
	program := filepath.Base(form[0].Text)
	files := configFiles(program, form)
	var worst strictest
	if depth == 0 && ctagsPrograms[program] {
		preload, why := e.ctagsPreloadFiles(in, c, others)
		if why != "" {
			worst.keep(verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("reading the options %s takes from its option files: %s", program, why)})
		}
		files = append(preload, files...)
	}
	if len(files) == 0 {
		return worst.result()
	}
	for _, f := range files {
		what := fmt.Sprintf("reading the options %s's configuration file %s gives", program, f.Text)
		why := ""
		var text string
		switch {
		case depth >= maxConfigDepth:
			why = fmt.Sprintf("configuration files name others more than %d deep", maxConfigDepth)
		case f.Kind == shellcmd.Static && f.Text == "-":
			why = "it is read from the command's input"
		default:
			text, why = e.scriptText(in, c, shellcmd.Script{Name: f}, others)
		}
		if why != "" {
			worst.keep(verdict{value: RequireApproval, ref: "unreadable-command",
				ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("%s: the bridge cannot read it: %s", what, why)})
			continue
		}
		fromFile := []shellcmd.Word{form[0]}
		switch {
		case program == "wget":
			fromFile = append(fromFile, wgetrcWords(text)...)
		case ctagsPrograms[program]:
			fromFile = append(fromFile, ctagsOptionWords(text)...)
		default:
			fromFile = append(fromFile, curlConfigWords(text)...)
		}
		// The line as the program reads it, the file's options first
		// (curl's -O names the file of a URL the line gives), decided
		// as a command of the line: what its options run ("wget -e"
		// commands are asked about) and the files they write.
		line := quotedWords(append(append(fromFile[:len(fromFile):len(fromFile)], form[1:]...), outer...))
		for _, gc := range shellcmd.Analyze(line, shellcmd.Options{Dir: in.req.Cwd}).Commands {
			gc.Dir = c.Dir
			if v, ok := e.decideCommand(in, gc, advisories); ok && v.value != Allow {
				v.reason = fmt.Sprintf("%s: %s", what, v.text())
				worst.keep(v)
			}
			// The files the options read are decided as those they
			// write (curl's "upload-file = .env", ctags's "-L .env"), and
			// a directory they read whole as on the line (ctags's
			// "--recurse=yes").
			for _, a := range commandArgs(gc) {
				a.namedBy = "named by the command or in " + f.Text
				worst.keepIf(e.decideArg(in, a, c.Dir, advisories))
				if a.write {
					*written = append(*written, a)
				}
			}
			if v, ok := e.treeReadVerdict(in, gc); ok {
				v.reason = fmt.Sprintf("%s: %s", what, v.text())
				worst.keep(v)
			}
		}
		worst.keepIf(e.configFormVerdict(in, c, fromFile, append(form[1:len(form):len(form)], outer...), others, depth+1, written, advisories))
	}
	return worst.result()
}

// quotedWords returns words as a line the shell reads back as them: a
// static word single-quoted, any other as its text on the line.
func quotedWords(words []shellcmd.Word) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.Kind != shellcmd.Static {
			b.WriteString(w.Text)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w.Text, "'", `'\''`) + "'")
	}
	return b.String()
}

// configFiles returns the configuration files form, run as program,
// reads: curl's -K (also "-KFILE", in a cluster "-sK FILE", "-sKc.cfg") and
// --config, wget's --config (and the prefixes getopt_long takes), ctags's
// --options.
func configFiles(program string, form []shellcmd.Word) []shellcmd.Word {
	if ctagsPrograms[program] {
		return ctagsOptionFiles(form)
	}
	var out []shellcmd.Word
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind != shellcmd.Static {
			continue
		}
		if t == "--" {
			break
		}
		name, value, eq := strings.Cut(t, "=")
		if foldsLongOptions[program] {
			name = strings.ToLower(name) // curl's --CONFIG
		}
		// curl and wget take a prefix of a long name: --conf.
		long := (program == "curl" || program == "wget") && len(name) >= len("--conf") && strings.HasPrefix("--config", name)
		short := program == "curl" && !strings.HasPrefix(t, "--") && strings.HasPrefix(t, "-")
		switch {
		case long && eq:
			out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: value})
		case long && i+1 < len(form):
			out = append(out, form[i+1])
			i++
		case short:
			// A cluster of curl's letters: the first that takes a value
			// takes the rest of the word, or the next word ("-sKc.cfg",
			// "-fsSLK c.cfg").
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(downloaders["curl"].valued, t[j]) < 0 {
					continue
				}
				if t[j] == 'K' {
					if j+1 < len(t) {
						out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: t[j+1:]})
					} else if i+1 < len(form) {
						out = append(out, form[i+1])
						i++
					}
				}
				break
			}
		}
	}
	return out
}

// curlConfigWords returns the options of a curl configuration file as the
// words of a command line: each line one option, with or without its
// dashes ("output = f", "-o f", "--output f"), its value after blanks, "="
// or ":", in double quotes with backslash escapes or up to a blank.
func curlConfigWords(text string) []shellcmd.Word {
	var out []shellcmd.Word
	for _, l := range configLines(text) {
		end := strings.IndexAny(l, curlBlanks+"=:")
		if end < 0 {
			end = len(l)
		}
		name, rest := l[:end], strings.TrimLeft(l[end:], curlBlanks)
		if rest != "" && (rest[0] == '=' || rest[0] == ':') {
			rest = strings.TrimLeft(rest[1:], curlBlanks)
		}
		if !strings.HasPrefix(name, "-") || strings.HasPrefix(name, "--") {
			// A long name, which curl matches without regard to case.
			name = "--" + strings.ToLower(strings.TrimPrefix(name, "--"))
		}
		out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: name})
		if value := curlConfigValue(rest); value != "" {
			out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: value})
		}
	}
	return out
}

// curlBlanks are the bytes curl's ISSPACE takes for blanks in a
// configuration line: a vertical tab, form feed or carriage return ends an
// option's name or unquoted value as a space does, so "output\vf" is
// --output f to curl, not one unknown name.
const curlBlanks = " \t\n\v\f\r"

// curlConfigValue returns the value at the start of rest: a double-quoted
// string with its escapes undone, or the text up to the first blank.
func curlConfigValue(rest string) string {
	if !strings.HasPrefix(rest, `"`) {
		if i := strings.IndexAny(rest, curlBlanks); i >= 0 {
			return rest[:i]
		}
		return rest
	}
	var b strings.Builder
	for i := 1; i < len(rest) && rest[i] != '"'; i++ {
		if rest[i] == '\\' && i+1 < len(rest) {
			i++
			switch rest[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 'v':
				b.WriteByte('\v')
			default:
				b.WriteByte(rest[i])
			}
			continue
		}
		b.WriteByte(rest[i])
	}
	return b.String()
}

// wgetrcWords returns the commands of a wgetrc file as the "-e COMMAND"
// words wget takes them from on the line (wgetExecuteWrites reads them).
func wgetrcWords(text string) []shellcmd.Word {
	var out []shellcmd.Word
	for _, l := range configLines(text) {
		out = append(out, shellcmd.Word{Kind: shellcmd.Static, Text: "-e"}, shellcmd.Word{Kind: shellcmd.Static, Text: l})
	}
	return out
}

// configLines returns the lines of a configuration file that say
// something: without their surrounding blanks, neither empty nor a
// comment ("#" first).
func configLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); l != "" && l[0] != '#' {
			out = append(out, l)
		}
	}
	return out
}
