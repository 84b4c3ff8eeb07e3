package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Most programs name the file they write by an output option: "gcc -o
// out", "openssl enc -out key", "pandoc --output=doc.pdf", "wget
// --output-file=log". A program the bridge has no table for writes that
// file, so its value is decided as a write: an existing file outside the
// workspace is refused as a write there is, not asked about as a read,
// and a rule that refuses editing it refuses the command. (A value that
// does not exist is decided as a file the command may create already.)

// outputLongNames are the long options, after "--" or a single "-"
// (openssl's -out), whose value names a file or directory written.
var outputLongNames = map[string]bool{"output": true, "output-file": true, "outfile": true, "out": true,
	"out-file": true, "output-dir": true, "output-directory": true, "outdir": true, "out-dir": true,
	"log-file": true, "logfile": true, "target-dir": true}

// programOutputs are the output options of programs whose own names for
// them are not outputLongNames: short letters that take the next word (or
// the rest of their word) and long names, each naming a file or directory
// the program writes (wget's -O and -P, curl's -o, -D and -c, go test's
// profiles, ssh-keygen's key file, openssl's -keyout, pip's --target,
// rsync's batch files, script's logs).
var programOutputs = map[string]struct {
	short string
	long  map[string]bool
}{
	"wget": {"OPa", setOf("output-document", "directory-prefix", "append-output", "hsts-file", "save-cookies", "warc-file", "rejected-log")},
	"curl": {"oDc", setOf("dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save",
		"hsts", "alt-svc")},
	"go": {"", setOf("coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir",
		"test.coverprofile", "test.cpuprofile", "test.memprofile", "test.blockprofile", "test.mutexprofile",
		"test.trace", "test.outputdir")},
	"ssh-keygen": {"f", nil},
	"openssl": {"", setOf("keyout", "sigout", "certout", "signer-out", "writerand", "keylogfile", "msgfile", "sess_out",
		"CAserial", "respout", "reqout")},
	"ssh":    {"ES", nil},
	"less":   {"oO", setOf("log-file", "LOG-FILE")},
	"aria2c": {"d", setOf("dir")},
	"pip":    {"t", setOf("target", "src")},
	"pip3":   {"t", setOf("target", "src")},
	"npm":    {"", setOf("pack-destination")},
	"rsync":  {"", setOf("write-batch", "only-write-batch")},
	"script": {"OBTI", setOf("log-out", "log-io", "log-timing", "log-in")},
	"zstd":   {"o", nil},
	"zip":    {"O", setOf("output-file")},
}

// notOutputO are programs whose -o is not a file they write: a flag (ls
// -o, grep -o, tar -o, rsync -o, unzip -o, xargs -o, ssh-keygen -o, nm,
// od and hexdump -o), an operator (find), a format or options list (ps,
// pgrep, mount, ssh and its kin, column's separator), a reading the bridge
// already does (git, sort, patch), or an offset (xxd).
var notOutputO = map[string]bool{"find": true, "ps": true, "pgrep": true, "pkill": true, "mount": true,
	"umount": true, "ssh": true, "scp": true, "sftp": true, "autossh": true, "ssh-keygen": true, "tar": true,
	"bsdtar": true, "gtar": true, "unzip": true, "xargs": true, "rsync": true, "git": true, "column": true,
	"top": true, "htop": true, "ip": true, "lsblk": true, "sort": true, "patch": true, "xxd": true,
	"nm": true, "od": true, "hexdump": true, "script": true}

// sshKeygenReads are ssh-keygen's options that make -f a file it reads
// (-l fingerprint, -y public key, -F find a host, -e and -i export and
// import, -B bubblebabble): without one it writes the key -f names.
const sshKeygenReads = "lyFeiB"

// outputOptionWords returns the indexes of form's words that name a file
// its program writes by an output option: the word after "-o" (or a
// program's own letter, programOutputs) last in a cluster of up to eight
// short options ("-qo FILE"; not for wholeNameOptions), the word itself
// when the letter comes first with the rest its value ("-oFILE"), and the value of one of outputLongNames
// or a program's own long names, or a prefix getopt_long may take for an
// "out" name ("--outp=FILE", "--output-doc FILE"), after one dash or two
// (openssl's "-out FILE"). A program that only reads
// (readsOnly) has none. The file may be read as well (appended to, or
// read before it is replaced), so commandArgs decides it as both.
func outputOptionWords(form []shellcmd.Word) map[int]bool {
	name := filepath.Base(form[0].Text)
	if readsOnly[name] || name == "git" { // git's: gitOutputWrites
		return nil
	}
	var out map[int]bool
	mark := func(i int) {
		if out == nil {
			out = map[int]bool{}
		}
		out[i] = true
	}
	if tarLike[name] {
		return tarArchiveWritten(form)
	}
	if name == "find" {
		return findOutputs(form)
	}
	own := programOutputs[name]
	shorts := own.short
	if !notOutputO[name] && !shellcmd.IsShell(name) { // a shell's -o names an option (-o pipefail)
		shorts += "o"
	}
	if name == "ssh-keygen" && shortLetters(form, sshKeygenReads) {
		shorts = ""
	}
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		if w.Kind != shellcmd.Static || !strings.HasPrefix(t, "-") || len(t) < 2 {
			continue
		}
		if t == "--" {
			break
		}
		long, value, eq := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if foldsLongOptions[name] {
			long = strings.ToLower(long)
		}
		// After one dash only a whole name counts (openssl's -out): "-o"
		// is a short option, never a prefix of --output.
		isLong := strings.HasPrefix(t, "--") && (outputName(long, own.long) || anyPrefixOutput(name, long, own.long)) ||
			!strings.HasPrefix(t, "--") && len(long) > 1 && (outputLongNames[long] || own.long[long])
		if !strings.HasPrefix(t, "--") && !isLong {
			switch {
			case strings.IndexByte(shorts, t[1]) >= 0 && len(t) > 2:
				mark(i) // -oFILE: the rest is the value
			case strings.IndexByte(shorts, t[len(t)-1]) >= 0 && i+1 < len(form) && letterCluster(t) && (len(t) == 2 || !wholeNameOptions[name]):
				mark(i + 1) // -o FILE, -qo FILE, -sSLo FILE
			}
		}
		if !isLong {
			continue
		}
		switch {
		case eq && value != "":
			mark(i)
		case !eq && i+1 < len(form):
			mark(i + 1)
		}
	}
	return out
}

// wholeNameOptions are programs whose options are whole names after one
// dash ("-timeout", "-echo"), never clusters of letters.
var wholeNameOptions = map[string]bool{"go": true, "java": true, "javac": true, "gcc": true, "cc": true, "clang": true,
	"g++": true, "c++": true, "clang++": true, "openssl": true, "ffmpeg": true, "ffprobe": true, "stty": true}

// letterCluster reports whether t is a cluster of one to eight short
// option letters ("-o", "-qo", "-fsSLo", "-#fsSLo"), each a letter, a
// digit or "#".
func letterCluster(t string) bool {
	if len(t) < 2 || len(t) > 9 || t[0] != '-' || t[1] == '-' {
		return false
	}
	for i := 1; i < len(t); i++ {
		c := t[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '#') {
			return false
		}
	}
	return true
}

// outputName reports whether a long option's name (without its dashes
// and value) is one of outputLongNames or own, or a prefix of one of
// them beginning "o" ("--o", "--outp", "--output-doc").
func outputName(n string, own map[string]bool) bool {
	if outputLongNames[n] || own[n] {
		return true
	}
	// Only a prefix of the "out" names ("--o", "--outp"): another long
	// option may be whole where it is a prefix of one ("--target" of
	// --target-dir).
	return n != "" && n[0] == 'o' && prefixOfOutput(n, own)
}

// prefixOfOutput reports whether n is a prefix of one of outputLongNames
// or own.
func prefixOfOutput(n string, own map[string]bool) bool {
	for _, names := range [...]map[string]bool{outputLongNames, own} {
		for full := range names {
			if strings.HasPrefix(full, n) {
				return true
			}
		}
	}
	return false
}

// foldsLongOptions are programs that match long option names without
// regard to case (curl: "--OUTPUT" is --output).
var foldsLongOptions = setOf("curl")

// prefixedOutputs are programs that take any unambiguous prefix of a long
// option's name ("curl --dump F" is --dump-header, "wget --save-c F"
// --save-cookies), and their options whose whole name is a prefix of an
// output's without being one ("curl --cookie F" reads F).
var prefixedOutputs = map[string]map[string]bool{"curl": setOf("cookie"), "wget": {}}

// anyPrefixOutput reports whether the long option name n of program is a
// prefix, two letters or more, of one of its output options (own) or
// outputLongNames, for a program that takes prefixes. An ambiguous prefix
// makes the program refuse to run, so counting it writes nothing.
func anyPrefixOutput(program, n string, own map[string]bool) bool {
	whole, ok := prefixedOutputs[program]
	return ok && len(n) >= 2 && !whole[n] && prefixOfOutput(n, own)
}

// shortLetters reports whether a short option cluster of form, before
// "--", holds one of letters.
func shortLetters(form []shellcmd.Word, letters string) bool {
	for _, w := range form[1:] {
		t := w.Text
		if w.Kind != shellcmd.Static || t == "--" {
			return false
		}
		if len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:], letters) {
			return true
		}
	}
	return false
}

// tarLike are tar's names, and jar's, whose options (c, u, x, t, f) are
// tar's old style.
var tarLike = map[string]bool{"tar": true, "bsdtar": true, "gtar": true, "jar": true}

// tarArchiveWritten returns the indexes of the words naming what a tar
// writes besides the files it extracts: the archive it makes or changes
// (-f's value, attached or the next word, in the old style's cluster too;
// --file), unless it only lists, extracts or compares (t, x, d and their
// long forms, a long one also as a prefix of three letters or more:
// "--cre"), and, in any mode, the snapshot file of -g or
// --listed-incremental, the --index-file it writes its listing to and the
// --volno-file it writes the volume number to.
func tarArchiveWritten(form []shellcmd.Word) map[int]bool {
	const shortValue = "fCbTXgKNVL"
	reads, writes := false, false
	file := -1
	out := map[int]bool{}
	mode := func(c byte) {
		reads = reads || c == 't' || c == 'x' || c == 'd'
		writes = writes || c == 'c' || c == 'r' || c == 'u' || c == 'A'
	}
	pending := []byte{} // value letters the old-style first word still owes
	for i := 1; i < len(form); i++ {
		w := form[i]
		t := w.Text
		switch {
		case len(pending) > 0:
			switch pending[0] {
			case 'f':
				file = i
			case 'g':
				out[i] = true
			}
			pending = pending[1:]
		case w.Kind != shellcmd.Static:
		case i == 1 && !strings.HasPrefix(t, "-"):
			for j := 0; j < len(t); j++ {
				mode(t[j])
				if strings.IndexByte(shortValue, t[j]) >= 0 {
					pending = append(pending, t[j])
				}
			}
		case t == "--":
			i = len(form)
		case strings.HasPrefix(t, "--"):
			name, _, eq := strings.Cut(t[2:], "=")
			prefixOf := func(fulls ...string) bool {
				for _, f := range fulls {
					if len(name) >= 3 && strings.HasPrefix(f, name) {
						return true
					}
				}
				return false
			}
			value := func() int {
				if !eq && i+1 < len(form) {
					i++
				}
				return i
			}
			switch {
			case prefixOf("create", "append", "update", "concatenate", "catenate", "delete"):
				writes = true
			case prefixOf("list", "extract", "get", "diff", "compare"):
				reads = true
			case name == "file":
				file = value()
			case name == "index-file" || len(name) >= 3 && strings.HasPrefix("listed-incremental", name) ||
				len(name) >= 3 && strings.HasPrefix("volno-file", name):
				out[value()] = true
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				mode(t[j])
				if strings.IndexByte(shortValue, t[j]) < 0 {
					continue
				}
				at := i
				if j == len(t)-1 && i+1 < len(form) {
					at = i + 1
				}
				switch t[j] {
				case 'f':
					file = at
				case 'g':
					out[at] = true
				}
				i = at
				break
			}
		}
	}
	if file >= 0 && writes && !reads {
		out[file] = true
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// findOutputs returns the indexes of the files find's -fprint, -fprint0,
// -fprintf and -fls actions write ("find . -fprint keys/a.key" truncates
// it even when nothing is found).
func findOutputs(form []shellcmd.Word) map[int]bool {
	var out map[int]bool
	for i := 1; i+1 < len(form); i++ {
		switch form[i].Text {
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if out == nil {
				out = map[int]bool{}
			}
			out[i+1] = true
		}
	}
	return out
}

// wgetWriteCommands are the wgetrc commands, given on the line with -e or
// --execute, that name a file or directory wget writes.
var wgetWriteCommands = setOf("output_document", "outputdocument", "dir_prefix", "dirprefix", "logfile",
	"log_file", "save_cookies", "savecookies", "warc_file", "warcfile")

// wgetExecuteWrites returns the files a wget form's -e/--execute commands
// make it write ("wget -e output_document=keys/a.key URL"), each decided
// as a write and a read; wgetrc reads a command's name without regard to
// case, "_" or "-".
func wgetExecuteWrites(form []shellcmd.Word) []argWord {
	if len(form) < 2 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "wget" {
		return nil
	}
	var out []argWord
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		var cmd shellcmd.Word
		long, value, eq := strings.Cut(strings.TrimPrefix(t, "--"), "=")
		// --exe, --exec, ... as getopt_long takes them.
		isExecute := strings.HasPrefix(t, "--") && len(long) >= len("exe") && strings.HasPrefix("execute", long)
		switch {
		case isExecute && !eq && i+1 < len(form):
			i++
			cmd = form[i]
		case isExecute && eq:
			cmd = shellcmd.Word{Kind: form[i].Kind, Text: value}
		case !strings.HasPrefix(t, "--") && letterCluster(t) && t[len(t)-1] == 'e' && i+1 < len(form):
			// -e last in a cluster: "-qe output_document=F".
			i++
			cmd = form[i]
		case strings.HasPrefix(t, "-e") && !strings.HasPrefix(t, "--") && len(t) > 2:
			cmd = shellcmd.Word{Kind: form[i].Kind, Text: t[2:]}
		default:
			continue
		}
		k, v, ok := strings.Cut(cmd.Text, "=")
		key := strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(k)), "-", "_"), " ", "")
		if cmd.Kind == shellcmd.Dynamic {
			out = append(out, argWord{word: cmd, text: cmd.Text, write: true})
			continue
		}
		if ok && (wgetWriteCommands[key] || wgetWriteCommands[strings.ReplaceAll(key, "_", "")]) {
			v = strings.TrimSpace(v)
			w := shellcmd.Word{Kind: shellcmd.Static, Text: v}
			out = append(out, argWord{word: w, text: v, write: true}, argWord{word: w, text: v})
		}
	}
	return out
}
