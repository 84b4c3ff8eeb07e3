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
// the program writes (wget's -O and -P, go test's profiles, ssh-keygen's
// key file, mktemp's directory, pip's --target).
var programOutputs = map[string]struct {
	short string
	long  map[string]bool
}{
	"wget":       {"OP", setOf("output-document", "directory-prefix")},
	"go":         {"", setOf("coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir")},
	"ssh-keygen": {"f", nil},
	"mktemp":     {"p", setOf("tmpdir")},
	"aria2c":     {"d", setOf("dir")},
	"pip":        {"t", setOf("target", "src")},
	"pip3":       {"t", setOf("target", "src")},
	"npm":        {"", setOf("pack-destination")},
}

// notOutputO are programs whose -o is not a file they write: a flag (ls
// -o, grep -o, tar -o, rsync -o, unzip -o, xargs -o, ssh-keygen -o), an
// operator (find), a format or options list (ps, pgrep, mount, ssh and
// its kin, column's separator), or a reading the bridge already does
// (git, sort, curl, patch), or an offset (xxd).
var notOutputO = map[string]bool{"find": true, "ps": true, "pgrep": true, "pkill": true, "mount": true,
	"umount": true, "ssh": true, "scp": true, "sftp": true, "autossh": true, "ssh-keygen": true, "tar": true,
	"bsdtar": true, "gtar": true, "unzip": true, "xargs": true, "rsync": true, "git": true, "column": true,
	"top": true, "htop": true, "ip": true, "lsblk": true, "sort": true, "curl": true, "patch": true, "xxd": true}

// outputOptionWords returns the indexes of form's words that name a file
// its program writes by an output option: the word after "-o" or one of
// outputLongNames given alone, and such an option's own word when it
// holds its value ("-oout", "--output=out", "-out=x"). A program that
// only reads (readsOnly) has none. The file may be read as well (appended
// to, or read before it is replaced), so commandArgs decides it as both.
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
	if !notOutputO[name] {
		shorts += "o"
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
		isLong := outputLongNames[long] || own.long[long]
		if !strings.HasPrefix(t, "--") && !isLong && strings.IndexByte(shorts, t[1]) >= 0 {
			if len(t) == 2 {
				if i+1 < len(form) {
					mark(i + 1)
				}
			} else {
				mark(i) // -oFILE
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

// tarLike are tar's names.
var tarLike = map[string]bool{"tar": true, "bsdtar": true, "gtar": true}

// tarArchiveWritten returns the index of the word naming the archive a
// tar that makes or changes one writes (-f's value, attached or the next
// word, in the old style's cluster too; --file), unless it only lists,
// extracts or compares (t, x, d and their long forms). A tar with no
// mode given writes nothing marked.
func tarArchiveWritten(form []shellcmd.Word) map[int]bool {
	const shortValue = "fCbTXgKNVL"
	reads, writes := false, false
	file := -1
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
			if pending[0] == 'f' {
				file = i
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
			switch name {
			case "create", "append", "update", "concatenate", "catenate", "delete":
				writes = true
			case "list", "extract", "get", "diff", "compare":
				reads = true
			case "file":
				file = i
				if !eq && i+1 < len(form) {
					i++
					file = i
				}
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for j := 1; j < len(t); j++ {
				mode(t[j])
				if strings.IndexByte(shortValue, t[j]) < 0 {
					continue
				}
				if t[j] == 'f' {
					file = i
					if j == len(t)-1 && i+1 < len(form) {
						file = i + 1
					}
				}
				if j == len(t)-1 && i+1 < len(form) {
					i++
				}
				break
			}
		}
	}
	if file < 0 || !writes || reads {
		return nil
	}
	return map[int]bool{file: true}
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
