package governance

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Programs that change the files their operands name: "chmod 777 f",
// "truncate -s0 f", "sed -i s/a/b/ f", "mkdir -p d", "rm f" change f
// whether it exists or not, so each operand is decided as a write (denied
// outside the workspace roots, and by a rule that refuses editing it), as a
// write tool's path is, not as a name the command only reads. Words that
// are not files (chmod's mode, sed's script, an option's value) are judged
// as before.

// operandWriter describes one program that writes its operands.
type operandWriter struct {
	// opts are its options that take the next word as their value.
	opts optSet
	// skip is how many leading operands are not files (sed's script),
	// unless an option in skipUnless gives that value instead.
	skip       int
	skipUnless []string
	// only, when set, are the options without which the program writes
	// no operand (sed writes only with -i or --in-place).
	only func(opts []string) bool
	// output are options whose value is a file written ("sort -o f").
	output []string
	// lastOfTwo: only a second operand is written (uniq IN OUT).
	lastOfTwo bool
	// firstOnly: only the first operand is written (patch FILE PATCHFILE).
	firstOnly bool
}

// operandWriters are the programs that write their operands. chmod, chown
// and chgrp's mode or owner is judged as a write too: it never starts with
// "/", so it is a name inside the command's directory, and "-w" (a mode
// that reads as an option) leaves nothing unjudged.
var operandWriters = map[string]operandWriter{
	"chmod":    {opts: optSet{longValue: map[string]bool{"reference": true}}},
	"chown":    {opts: optSet{longValue: map[string]bool{"reference": true, "from": true}}},
	"chgrp":    {opts: optSet{longValue: map[string]bool{"reference": true}}},
	"truncate": {opts: optSet{shortValue: "sr", longValue: map[string]bool{"size": true, "reference": true}}},
	"touch":    {opts: optSet{shortValue: "dtr", longValue: map[string]bool{"date": true, "reference": true, "time": true}}},
	"mkdir":    {opts: optSet{shortValue: "m", longValue: map[string]bool{"mode": true, "context": true}}},
	"rmdir":    {},
	"rm":       {},
	"unlink":   {},
	"shred":    {opts: optSet{shortValue: "ns", longValue: map[string]bool{"iterations": true, "size": true, "random-source": true, "remove": false}}},
	"mv": {opts: optSet{shortValue: "tS", longValue: map[string]bool{"target-directory": true, "suffix": true, "backup": false}},
		output: targetDirectory},
	// cp, ln and install write their last operand (writesLast), or, with
	// -t, the directory it names; their other operands are read.
	"cp":      {opts: optSet{shortValue: "tS", longValue: map[string]bool{"target-directory": true, "suffix": true}}, output: targetDirectory, only: never},
	"ln":      {opts: optSet{shortValue: "tS", longValue: map[string]bool{"target-directory": true, "suffix": true}}, output: targetDirectory, only: never},
	"install": {opts: optSet{shortValue: "tSmogZ", longValue: map[string]bool{"target-directory": true, "suffix": true, "mode": true, "owner": true, "group": true, "strip-program": true}}, output: targetDirectory, only: never},
	"setfacl": {opts: optSet{shortValue: "mxMX", longValue: map[string]bool{"modify": true, "remove": true, "modify-file": true, "remove-file": true, "set": true, "set-file": true}}},
	"chattr":  {opts: optSet{shortValue: "vp"}},
	"sed": {opts: optSet{shortValue: "efl", longValue: map[string]bool{"expression": true, "file": true, "line-length": true}},
		skip: 1, skipUnless: []string{"e", "f", "expression", "file"}, only: sedInPlace},
	"sort": {opts: optSet{shortValue: "okStT", longValue: map[string]bool{"output": true, "key": true, "field-separator": true,
		"buffer-size": true, "temporary-directory": true, "parallel": true, "files0-from": true, "batch-size": true, "compress-program": true, "sort": true}},
		output: []string{"o", "output"}, only: never},
	// patch writes the file it is given to patch (its first operand; its
	// second is the diff, read) unless -o names where the result goes,
	// and -r's reject file.
	"patch": {opts: optSet{shortValue: patchShortValue, longValue: map[string]bool{"prefix": true, "directory": true,
		"ifdef": true, "fuzz": true, "get": true, "input": true, "output": true, "strip": true, "reject-file": true,
		"version-control": true, "basename-prefix": true, "suffix": true, "quoting-style": true, "read-only": true}},
		output: []string{"o", "output", "r", "reject-file"}, firstOnly: true, only: patchInPlace},
	// zip writes its archive, the first operand; xxd its output, the
	// second.
	"zip": {opts: optSet{shortValue: "bntPsOZ", longValue: map[string]bool{"temp-path": true, "suffixes": true,
		"from-date": true, "before-date": true, "password": true, "split-size": true, "output-file": true,
		"compression-method": true}}, firstOnly: true},
	"xxd": {opts: optSet{shortValue: "cglosn", longValue: map[string]bool{"cols": true, "groupsize": true,
		"len": true, "seek": true, "name": true}}, lastOfTwo: true},
	// script writes its typescript, the operand, and its logs (-O, -B,
	// -T, -I and their long forms).
	"script": {opts: optSet{shortValue: "cTIOBEmo", longValue: map[string]bool{"command": true, "log-timing": true,
		"log-in": true, "log-out": true, "log-io": true, "echo": true, "logging-format": true, "output-limit": true}}},
	"uniq": {opts: optSet{shortValue: "fsw", longValue: map[string]bool{"skip-fields": true, "skip-chars": true, "check-chars": true, "group": false, "all-repeated": false}},
		lastOfTwo: true},
}

// gzipOpts and xzOpts are the options of gzip and xz that take a value.
var (
	gzipOpts = optSet{shortValue: "S", longValue: map[string]bool{"suffix": true}}
	xzOpts   = optSet{shortValue: "TFCMS", longValue: map[string]bool{"threads": true, "format": true, "check": true,
		"memlimit": true, "memory": true, "memlimit-compress": true, "memlimit-decompress": true, "memlimit-mt-decompress": true,
		"suffix": true, "files": false, "files0": false, "block-size": true, "block-list": true, "filters": true}}
)

// compressor describes a compressor or decompressor (compressorFamilies):
// each file it names is replaced by its compressed or decompressed form
// (or, with -k, written beside), except with a letter of noWrite
// (-c/--stdout, written to standard output; -t/--test; -l/--list) or
// --stdout, --to-stdout, --test or --list.
func compressor(opts optSet, noWrite string) operandWriter {
	return operandWriter{opts: opts, only: func(o []string) bool {
		for _, c := range noWrite {
			if shortHas(o, opts, byte(c)) {
				return false
			}
		}
		for _, n := range []string{"stdout", "to-stdout", "test", "list"} {
			if longHasPrefix(o, n) {
				return false
			}
		}
		return true
	}}
}

// targetDirectory are the options of mv, cp, ln and install that name the
// directory their operands go into.
var targetDirectory = []string{"t", "target-directory"}

// never is an operandWriter's only for a program that writes no operand,
// only the files its output options name.
func never([]string) bool { return false }

// patchInPlace reports whether patch writes the file it is given, that
// is, no -o or --output (or a prefix getopt_long takes for it) says where
// the patched text goes instead.
func patchInPlace(opts []string) bool {
	for _, t := range opts {
		if strings.HasPrefix(t, "--") {
			if name, _, _ := strings.Cut(t[2:], "="); longPrefix(name, "output") && len(name) > 1 {
				return false
			}
			continue
		}
		if shortCluster(t, 'o', patchShortValue) {
			return false
		}
	}
	return true
}

// sedInPlace reports whether sed's options hold -i (alone, with a suffix,
// or in a cluster before a letter that takes a value) or --in-place, or a
// prefix of it getopt_long would take ("--in").
func sedInPlace(opts []string) bool {
	for _, t := range opts {
		if strings.HasPrefix(t, "--") {
			name, _, _ := strings.Cut(t[2:], "=")
			if len(name) >= 1 && strings.HasPrefix("in-place", name) {
				return true
			}
			continue
		}
		if shortCluster(t, 'i', "efl") {
			return true
		}
	}
	return false
}

// writtenWords returns the indexes in form of the words form's program
// writes as files, nil when it is not one of operandWriters. An index maps
// to true where the program changes a file that is there (an operand it
// moves, compresses, edits or changes the mode of), whose content it opens
// or gives a new name, so the file is decided as read too; to false where
// it only writes one (an output option's file, uniq's OUT, the destination
// mv moves its other operands to when no target directory option names
// one).
func writtenWords(form []shellcmd.Word) map[int]bool {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return nil
	}
	w, ok := operandWriters[filepath.Base(form[0].Text)]
	if !ok {
		return nil
	}
	var opts, operands []int // indexes in form
	var optText []string
	target := false // an option names the directory the operands go into
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind == shellcmd.Static && t == "--" {
			for j := i + 1; j < len(form); j++ {
				operands = append(operands, j)
			}
			break
		}
		if form[i].Kind != shellcmd.Dynamic && len(t) > 1 && t[0] == '-' {
			opts = append(opts, i)
			optText = append(optText, t)
			if _, ok := writtenValue(filepath.Base(form[0].Text), t); ok || isOutputOption(t, w.output, w.opts.shortValue) {
				target = true
			}
			if (w.opts.takesValue(t) || isOutputOption(t, w.output, w.opts.shortValue)) && i+1 < len(form) {
				i++
				opts = append(opts, i)
				optText = append(optText, form[i].Text)
			}
			continue
		}
		operands = append(operands, i)
	}
	out := map[int]bool{}
	for k, i := range opts {
		if i+1 < len(form) && k+1 < len(opts) && opts[k+1] == i+1 && isOutputOption(form[i].Text, w.output, w.opts.shortValue) {
			out[i+1] = false // "-o FILE", "--output FILE"
		}
	}
	if w.only != nil && !w.only(optText) {
		return out
	}
	skip := w.skip
	for _, o := range w.skipUnless {
		if shortHas(optText, w.opts, o[0]) && len(o) == 1 || len(o) > 1 && longHasPrefix(optText, o) {
			skip = 0
		}
	}
	if skip > len(operands) {
		skip = len(operands)
	}
	operands = operands[skip:]
	if w.firstOnly && len(operands) > 1 {
		operands = operands[:1]
	}
	if w.lastOfTwo {
		if len(operands) == 2 {
			out[operands[1]] = false
		}
		return out
	}
	for _, i := range operands {
		out[i] = true
	}
	if slices.Equal(w.output, targetDirectory) && !target && len(operands) > 1 {
		out[operands[len(operands)-1]] = false // mv's destination
	}
	return out
}

// writtenValue returns the file an option word of form's program writes
// when the word holds it ("-oFILE", "--output=FILE").
func writtenValue(program, t string) (string, bool) {
	w, ok := operandWriters[program]
	if !ok {
		return "", false
	}
	for _, n := range w.output {
		switch {
		case len(n) == 1 && len(t) > 2 && t[0] == '-' && t[1] != '-' && shortCluster(t, n[0], w.opts.shortValue) && !strings.HasSuffix(t, n):
			return t[strings.IndexByte(t, n[0])+1:], true
		case len(n) > 1 && strings.HasPrefix(t, "--"):
			if name, v, ok := strings.Cut(t[2:], "="); ok && longPrefix(name, n) {
				return v, true
			}
		}
	}
	return "", false
}

// isOutputOption reports whether option word t is one of names ("o",
// "output") given without its value in the same word (a short one also
// last in a cluster, after no letter of valued); a long name also
// as any prefix of it, which getopt_long takes for it ("--out").
func isOutputOption(t string, names []string, valued string) bool {
	for _, n := range names {
		if len(n) == 1 && strings.HasSuffix(t, n) && shortCluster(t, n[0], valued) || len(n) > 1 && strings.HasPrefix(t, "--") && longPrefix(t[2:], n) {
			return true
		}
	}
	return false
}

// longPrefix reports whether name, an option word's name after "--", is
// the long option n or a prefix of it getopt_long may take for it.
func longPrefix(name, n string) bool {
	return name != "" && strings.HasPrefix(n, name)
}

// longHasPrefix reports whether opts hold --name, --name=value, or a
// prefix of --name getopt_long may take for it.
func longHasPrefix(opts []string, name string) bool {
	for _, t := range opts {
		if !strings.HasPrefix(t, "--") || len(t) < 3 {
			continue
		}
		if n, _, _ := strings.Cut(t[2:], "="); strings.HasPrefix(name, n) {
			return true
		}
	}
	return false
}
