package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Some programs write a file named inside an option's value rather than by
// the value itself: ssh, scp and sftp record host keys in the file
// "-o UserKnownHostsFile=F" names and make a socket at "-o ControlPath=F";
// curl (8.3 and later) writes what "-w '%output{F}...'" names.
// optionValueWrites returns those files, decided as writes by
// commandArgs; one holding a token the program expands when it runs
// (ssh's %h, ~) is a name not known until then.

// sshWrittenOptions are the ssh_config keywords, in lower case, whose value
// is a file ssh writes or creates.
var sshWrittenOptions = setOf("userknownhostsfile", "controlpath")

// optionValueWrites returns the files form writes through a file named
// inside an option's value.
func optionValueWrites(form []shellcmd.Word) []argWord {
	switch filepath.Base(form[0].Text) {
	case "ssh", "scp", "sftp", "autossh":
		return sshOptionWrites(form)
	case "curl":
		return curlWriteOutFiles(form)
	case "openssl":
		return opensslSerialFiles(form)
	case "file":
		return fileCompiledMagic(form)
	}
	return nil
}

// fileCompiledMagic returns the files "file -C" writes where it runs: each
// magic file's last element with ".mgc" ("-m F", "-bCm F", "--magic-file F"
// or a prefix of it), or "magic.mgc" without one.
func fileCompiledMagic(form []shellcmd.Word) []argWord {
	compile := false
	var magic []shellcmd.Word
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		if w.Kind != shellcmd.Static || t == "--" {
			break
		}
		if name, v, eq := strings.Cut(strings.TrimPrefix(t, "--"), "="); strings.HasPrefix(t, "--") {
			switch {
			case len(name) >= 3 && strings.HasPrefix("compile", name):
				compile = true
			case len(name) >= 3 && strings.HasPrefix("magic-file", name) && eq:
				magic = append(magic, shellcmd.Word{Kind: w.Kind, Text: v})
			case len(name) >= 3 && strings.HasPrefix("magic-file", name) && i+1 < len(form):
				i++
				magic = append(magic, form[i])
			}
			continue
		}
		if !strings.HasPrefix(t, "-") {
			continue
		}
		for j := 1; j < len(t); j++ {
			switch t[j] {
			case 'C':
				compile = true
			case 'm', 'e', 'F', 'f', 'P':
				// A letter that takes a value: the rest, or the next word.
				v := t[j+1:]
				if v == "" && i+1 < len(form) {
					i++
					v = form[i].Text
				}
				if t[j] == 'm' {
					magic = append(magic, shellcmd.Word{Kind: w.Kind, Text: v})
				}
				j = len(t)
			}
		}
	}
	if !compile {
		return nil
	}
	if len(magic) == 0 {
		magic = []shellcmd.Word{{Kind: shellcmd.Static, Text: "magic"}}
	}
	var out []argWord
	for _, m := range magic {
		for _, f := range strings.Split(m.Text, ":") {
			if f == "" {
				continue
			}
			mgc := filepath.Base(f) + ".mgc"
			out = append(out, argWord{word: shellcmd.Word{Kind: m.Kind, Text: mgc}, text: mgc, write: true})
		}
	}
	return out
}

// opensslSerialFiles returns the serial file "-CAcreateserial" makes: the
// name -CA gives, its extension replaced by ".srl".
func opensslSerialFiles(form []shellcmd.Word) []argWord {
	if !hasWord(form, "-CAcreateserial") {
		return nil
	}
	for i := 1; i+1 < len(form); i++ {
		if form[i].Kind == shellcmd.Static && form[i].Text == "-CA" {
			ca := form[i+1]
			srl := strings.TrimSuffix(ca.Text, filepath.Ext(ca.Text)) + ".srl"
			return []argWord{{word: shellcmd.Word{Kind: ca.Kind, Text: srl}, text: srl, write: true}}
		}
	}
	return nil
}

// sshOptionWrites reads "-o Key=Value", "-oKey=Value" and "-o 'Key Value'".
func sshOptionWrites(form []shellcmd.Word) []argWord {
	var out []argWord
	for i := 1; i < len(form); i++ {
		w := form[i]
		var opt shellcmd.Word
		switch {
		case w.Kind == shellcmd.Static && w.Text == "-o" && i+1 < len(form):
			i++
			opt = form[i]
		case w.Kind == shellcmd.Static && strings.HasPrefix(w.Text, "-o") && len(w.Text) > 2:
			opt = shellcmd.Word{Kind: w.Kind, Text: w.Text[2:]}
		default:
			continue
		}
		key, value, ok := sshOptionKeyValue(opt.Text)
		if !ok || !sshWrittenOptions[key] || strings.EqualFold(value, "none") {
			continue
		}
		kind := opt.Kind
		if strings.ContainsAny(value, "%~$") {
			kind = shellcmd.Dynamic // ssh expands it when it runs
		}
		for _, f := range strings.Fields(value) {
			f = strings.Trim(f, `"`) // ssh takes the quotes away
			v := shellcmd.Word{Kind: kind, Text: f}
			out = append(out, argWord{word: v, text: f, write: true})
		}
	}
	return out
}

// curlWriteOutFiles reads the files "%output{F}" (or "%output{>>F}") names
// in curl's -w/--write-out.
func curlWriteOutFiles(form []shellcmd.Word) []argWord {
	var out []argWord
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		var v shellcmd.Word
		switch {
		case form[i].Kind == shellcmd.Static && (t == "-w" || t == "--write-out") && i+1 < len(form):
			i++
			v = form[i]
		case form[i].Kind == shellcmd.Static && strings.HasPrefix(t, "--write-out="):
			v = shellcmd.Word{Kind: form[i].Kind, Text: strings.TrimPrefix(t, "--write-out=")}
		case form[i].Kind == shellcmd.Static && strings.HasPrefix(t, "-w") && !strings.HasPrefix(t, "--"):
			v = shellcmd.Word{Kind: form[i].Kind, Text: t[2:]}
		default:
			continue
		}
		for rest := v.Text; ; {
			_, after, ok := strings.Cut(rest, "%output{")
			if !ok {
				break
			}
			name, tail, closed := strings.Cut(after, "}")
			name = strings.TrimPrefix(name, ">>")
			kind := v.Kind
			if !closed {
				kind = shellcmd.Dynamic
			}
			w := shellcmd.Word{Kind: kind, Text: name}
			out = append(out, argWord{word: w, text: name, write: true})
			rest = tail
		}
	}
	return out
}

// sshOptionKeyValue splits an ssh option as ssh's own reading does: its
// keyword up to the first blank (space or tab) or "=", then blanks and at
// most one "=" before the value; the keyword in lower case.
func sshOptionKeyValue(opt string) (key, value string, ok bool) {
	opt = strings.TrimLeft(opt, " \t")
	end := strings.IndexAny(opt, " \t=")
	if end < 0 {
		return "", "", false
	}
	key, rest := opt[:end], strings.TrimLeft(opt[end:], " \t")
	if strings.HasPrefix(rest, "=") {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	return strings.ToLower(key), strings.TrimSpace(rest), true
}
