package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// operandOptions are the options that take a value of the programs whose
// operands the bridge reads for what they copy, move, link or remove:
// "mv -vt old keys" moves keys into old, and "cp a.key keys -S .bak"
// copies into keys, so an option's value is never taken for an operand
// (nor the last operand for the destination). Long names are matched as
// getopt_long matches them, by any unambiguous prefix of a name that takes
// a value ("--target" for --target-directory).
var operandOptions = map[string]optSet{
	"cp":      {shortValue: "tS", longValue: setOf("target-directory", "suffix", "sparse", "no-preserve")},
	"mv":      {shortValue: "tS", longValue: setOf("target-directory", "suffix")},
	"ln":      {shortValue: "tS", longValue: setOf("target-directory", "suffix")},
	"install": {shortValue: "tSmog", longValue: setOf("target-directory", "suffix", "mode", "owner", "group", "strip-program")},
	"rsync": {shortValue: "eBfTM@", longValue: setOf("max-alloc", "copy-as", "stderr", "rsh", "rsync-path", "filter", "exclude", "include",
		"exclude-from", "include-from", "files-from", "temp-dir", "partial-dir", "compare-dest", "copy-dest",
		"link-dest", "backup-dir", "suffix", "chmod", "chown", "usermap", "groupmap", "log-file", "log-file-format",
		"out-format", "password-file", "bwlimit", "max-size", "min-size", "max-delete", "timeout", "contimeout",
		"port", "sockopts", "block-size", "modify-window", "iconv", "checksum-choice", "compress-choice",
		"compress-level", "skip-compress", "info", "debug", "stop-after", "stop-at", "protocol", "outbuf",
		"remote-option", "address", "write-batch", "only-write-batch", "read-batch", "early-input", "checksum-seed")},
	"scp": {shortValue: "cDFiJlmoPSX", longValue: nil},
}

// longValueName returns the option of s a long option word's name stands
// for when it takes a value: the name itself, or the one name of s it is
// a prefix of; "" when it takes none (or is ambiguous).
func (s optSet) longValueName(name string) string {
	if s.longValue[name] {
		return name
	}
	found := ""
	for n := range s.longValue {
		if strings.HasPrefix(n, name) {
			if found != "" {
				return ""
			}
			found = n
		}
	}
	return found
}

// programLongValue returns the option of s that the long option word
// name of program stands for when it takes a value, as longValueName
// does; for cp and ln, read against all their long options
// (linkerLong), so that a prefix one of them shares with an option
// taking no value stands for neither.
func programLongValue(program string, s optSet, name string) string {
	if linkerLongOptions[program] == nil {
		return s.longValueName(name)
	}
	if full := linkerLong(program, name); s.longValue[full] {
		return full
	}
	return ""
}

// operands returns the static operands of a command's words, options and
// their values left out (as operandOptions says they take them, for the
// programs it knows; for others every word starting with "-" is an
// option taking no value), and the directory it copies or links into:
// the value of -t/--target-directory, else its last operand.
func operands(name string, words []shellcmd.Word) (ops []string, dest string) {
	if name == "find" {
		return findStarts(words), ""
	}
	s := operandOptions[name]
	form := append([]shellcmd.Word{{Kind: shellcmd.Static, Text: name}}, words...)
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if n, v, eq, ok := longOption(t); ok {
			full := programLongValue(name, s, n)
			if full == "" {
				continue
			}
			val := o.value(v, eq)
			if full == "target-directory" && val != nil {
				dest = val.Text
			}
			continue
		}
		if c, val := o.shortCluster(s.shortValue, nil); c == 't' && val != nil && name != "scp" {
			dest = val.Text
		}
	}
	for _, w := range o.ops {
		if w.Kind == shellcmd.Static {
			ops = append(ops, w.Text)
		}
	}
	if dest == "" && len(ops) > 1 && (copiers[name] || name == "ln" || name == "link" || name == "symlink") {
		dest = ops[len(ops)-1]
	}
	return ops, dest
}
