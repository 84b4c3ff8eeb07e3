package governance

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gzip decompressing with -N (--name, or -N in the GZIP variable) names
// what it writes after the file name stored in the compressed file's
// header, not after the operand: "gunzip -fN secrets/x.gz", where x.gz
// was made from a.key, writes secrets/a.key (the stored name's last
// element, in the operand's directory). pigz and unpigz do the same, from
// a gzip header or a zip member's local header. storedNameVerdict reads
// the header of each operand of a gzip, gunzip, pigz or unpigz that
// decompresses, when the request is decided, and decides the name it
// stores as a write there, with -N or without it (the GZIP and PIGZ
// variables may hold it). With -N, an operand whose header cannot be read
// needs approval. lzop restores the names and paths its files store (-N,
// -P, -x), which the bridge does not read: those need approval.

// maxStoredName bounds the stored name read from a gzip header; gzip
// itself refuses longer ones.
const maxStoredName = 4096

// gzipNameOpts are the options of gzip and pigz that take a value (pigz's
// family in compressorFamilies reads its options by them too).
var gzipNameOpts = optSet{shortValue: "SbpIJCA", longValue: map[string]bool{"suffix": true, "blocksize": true,
	"processes": true, "iterations": true, "maxsplits": true, "comment": true, "alias": true}}

// storedNameForm is what a decompressing gzip, pigz or lzop form reads.
type storedNameForm struct {
	prog    string
	ops     []shellcmd.Word
	restore bool   // -N or --name given: stored names are restored
	unknown string // why the names it writes cannot be known
	// suffixes are the values of -S (--suffix), which it tries after a
	// name that is not there.
	suffixes []string
	// recursive: -r (--recursive) given, or pigz's (the PIGZ variable may
	// hold it); a directory operand's files are decompressed.
	recursive bool
}

// storedNameOf returns what form restores names from, if it is a gzip,
// gunzip, uncompress, pigz, unpigz or lzop that decompresses into files.
func storedNameOf(form []shellcmd.Word) (storedNameForm, bool) {
	if len(form) < 2 || form[0].Kind != shellcmd.Static {
		return storedNameForm{}, false
	}
	name := filepath.Base(form[0].Text)
	decompress := name == "gunzip" || name == "unpigz" || name == "uncompress"
	switch name {
	case "gzip", "gunzip", "pigz", "unpigz", "lzop", "uncompress": // Debian's uncompress is gzip's script
	default:
		return storedNameForm{}, false
	}
	var opts, suffixes []string
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		opts = append(opts, t)
		if v, ok := gzipSuffixOpt(&o, t); ok {
			suffixes = append(suffixes, v)
		} else if gzipNameOpts.takesValue(t) {
			o.value("", false)
		}
	}
	has := func(short string, longs ...string) bool {
		for _, c := range []byte(short) {
			if shortHas(opts, gzipNameOpts, c) {
				return true
			}
		}
		for _, l := range longs {
			if longHasPrefix(opts, l) {
				return true
			}
		}
		return false
	}
	if !decompress && !has("dx", "decompress", "uncompress", "extract") || has("ctl", "stdout", "to-stdout", "test", "list") {
		return storedNameForm{}, false
	}
	f := storedNameForm{prog: name, ops: o.ops, restore: has("N", "name"), suffixes: suffixes,
		recursive: has("r", "recursive") || name == "pigz" || name == "unpigz"}
	if name == "lzop" {
		if !f.restore && !has("Px", "path", "extract") {
			return storedNameForm{}, false
		}
		f.unknown = "lzop restores the names its files store, which the bridge does not read"
	}
	return f, true
}

// storedNameVerdict decides the files the decompressions of c write
// under the names their operands store.
func (e *Engine) storedNameVerdict(in *reqInfo, c *shellcmd.Command, others bool, advisories *[]string) (verdict, bool) {
	var worst strictest
	for _, form := range c.Forms {
		f, ok := storedNameOf(form)
		if !ok {
			continue
		}
		bases, unknownDir := e.commandDirs(in, c.Dir)
		reason := f.unknown
		switch {
		case reason != "" || !f.restore:
		case unknownDir:
			reason = "the line changes directory before it"
		case others:
			reason = "the line runs other commands, which may make or change its files first"
		}
		for _, op := range f.ops {
			if reason != "" {
				break
			}
			if op.Kind != shellcmd.Static {
				if f.restore {
					reason = "a file's name is computed"
				}
				continue
			}
			for _, b := range bases {
				files, why := storedNameFiles(e.operandPath(b, op.Text), op.Text, f)
				for _, file := range files {
					stored, bad := storedName(e.operandPath(b, file))
					if bad != "" && why == "" {
						why = bad
					}
					if stored == "" {
						continue
					}
					m := stored
					if i := strings.LastIndexByte(file, '/'); i >= 0 {
						m = file[:i+1] + stored
					}
					a := argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: m}, text: m, write: true}
					if v, ok := e.decideArg(in, a, c.Dir, advisories); ok {
						v.reason = fmt.Sprintf("%s writes %s, the name %s stores: %s", f.prog, m, file, v.reason)
						worst.keep(v)
					}
				}
				if why != "" && f.restore {
					reason = why
					break
				}
			}
		}
		if reason != "" {
			return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("running %q: the names of the files it decompresses are not known: %s", strings.TrimSpace(c.Source), reason)}, true
		}
	}
	return worst.result()
}

// storedName returns the last element of the file name the compressed
// file at p stores (a gzip header's, or a zip member's local header's, as
// pigz reads), "" when it stores none, is not there or is a directory,
// or why it cannot be read.
func storedName(p string) (string, string) {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return "", "" // skipped without -r; with it, treeWriteVerdict decides what is beneath
	}
	f, why := openArchive(p, "the compressed file")
	if f == nil {
		return "", why
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic, _ := br.Peek(4)
	var name []byte
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}), bytes.HasPrefix(magic, []byte{0x1f, 0x9e}):
		var h [10]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			return "", "its gzip header cannot be read"
		}
		flags := h[3]
		if flags&0x04 != 0 { // an extra field, before the name
			var n [2]byte
			if _, err := io.ReadFull(br, n[:]); err != nil {
				return "", "its gzip header cannot be read"
			}
			if _, err := br.Discard(int(binary.LittleEndian.Uint16(n[:]))); err != nil {
				return "", "its gzip header cannot be read"
			}
		}
		if flags&0x08 == 0 {
			return "", ""
		}
		for {
			c, err := br.ReadByte()
			if err != nil || len(name) > maxStoredName {
				return "", "the name its gzip header stores cannot be read"
			}
			if c == 0 {
				break
			}
			name = append(name, c)
		}
	case bytes.Equal(magic, []byte("PK\x03\x04")):
		n, _, ok := zipLocalHeader(f, 0)
		if !ok {
			return "", "its zip header cannot be read"
		}
		name = []byte(n)
	default:
		return "", ""
	}
	base := string(name)
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	if base == "" || base == "." || base == ".." {
		return "", "the name it stores (" + string(name) + ") is not a file's"
	}
	return base, ""
}
