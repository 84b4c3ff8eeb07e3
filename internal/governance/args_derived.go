package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Some programs write files under names they derive from a word of the
// line: split and csplit a prefix followed by suffix letters or a format
// ("split -a1 -l1 f GOVERNANCE.m" writes GOVERNANCE.md as its fourth
// piece), gzip, bzip2, xz and lzma the file they compress followed by
// their suffix (-S: "gzip -S .md GOVERNANCE" replaces the policy with the
// compressed GOVERNANCE), and their decompressors the file without it
// ("gunzip .env.gz" writes .env), in the directory an output-directory
// option names where it has one (zstd --output-dir-flat, lzop -p).
// derivedWrites gives the compressors' names (compressorFamilies) as
// files written, and a split or csplit given its own prefix or
// format a name known only when the line runs (runtimeName).

// derivedWrites returns the names a split, csplit, compressor or
// decompressor form writes that no word of the line holds whole.
func derivedWrites(form []shellcmd.Word) []argWord {
	name := filepath.Base(form[0].Text)
	switch name {
	case "split", "csplit":
		return splitWrites(name, form)
	}
	fam, _, decompress, ok := compressorOf(name)
	if !ok {
		return nil
	}
	sfxs := fam.suffixes
	w := operandWriters[name]
	var opts []string
	var suffix *shellcmd.Word
	var dirs []shellcmd.Word // where an output-directory option sends the files
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		opts = append(opts, t)
		if d, ok := outputDirOption(&o, t, fam.outputDirs); ok {
			if d != nil {
				dirs = append(dirs, *d)
			}
			continue
		}
		if n, v, eq := strings.Cut(strings.TrimPrefix(t, "--"), "="); strings.HasPrefix(t, "--") && longPrefix(n, "suffix") && len(n) > 1 {
			if s := o.value(v, eq); s != nil {
				suffix = s
			}
			continue
		}
		if at := strings.IndexByte(t, 'S'); at > 0 && !strings.HasPrefix(t, "--") && strings.IndexByte(w.opts.shortValue, 'S') >= 0 {
			if s := o.value(t[at+1:], at+1 < len(t)); s != nil {
				suffix = s
			}
			continue
		}
		if w.opts.takesValue(t) {
			o.value("", false) // the next word
		}
	}
	if w.only != nil && !w.only(opts) {
		return nil // -c, -t or -l: no file written
	}
	decompress = decompress || shortHas(opts, w.opts, 'd') || longHasPrefix(opts, "decompress") || longHasPrefix(opts, "uncompress")
	if suffix != nil {
		if suffix.Kind == shellcmd.Dynamic {
			return []argWord{{word: *suffix, text: suffix.Text, write: true}}
		}
		sfxs = []string{suffix.Text}
	}
	var out []argWord
	written := func(n string) {
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
	}
	add := func(n string) {
		written(n)
		for _, d := range dirs {
			if d.Kind != shellcmd.Static {
				out = append(out, argWord{word: d, text: d.Text, write: true})
				continue
			}
			// zstd's --output-dir-mirror keeps the operand's path below
			// the directory, --output-dir-flat and lzop's -p its name.
			written(filepath.Join(d.Text, filepath.Base(n)))
			written(filepath.Join(d.Text, n))
		}
	}
	for _, op := range o.ops {
		if op.Kind != shellcmd.Static {
			continue
		}
		if !decompress {
			add(op.Text + sfxs[0])
			continue
		}
		for _, s := range sfxs {
			if len(op.Text) > len(s) && strings.EqualFold(op.Text[len(op.Text)-len(s):], s) {
				n := op.Text[:len(op.Text)-len(s)]
				if strings.HasPrefix(s, ".t") && suffix == nil {
					n += ".tar"
				}
				add(n)
			}
		}
	}
	return out
}

// splitWrites returns, for a split given a prefix (its second operand) or
// an --additional-suffix, or a csplit given -f, --prefix, -b or
// --suffix-format, a name known only when the line runs: the pieces'
// names are computed from them. Its pieces (argWord.pieces) are the
// prefix, the computed suffix and the additional suffix (csplit: the
// format's text between its conversions), so a name they could join to
// a protected file is refused: "csplit -f GOVERNANCE. -b md%.0d f 1"
// writes GOVERNANCE.md as its first piece.
func splitWrites(name string, form []shellcmd.Word) []argWord {
	valued := map[string]string{"split": "abClnt", "csplit": "fbn"}[name]
	given := ""
	var prefix, suffix *shellcmd.Word // -f or the operand; --additional-suffix or -b
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		if strings.HasPrefix(t, "--") {
			n, v, eq := strings.Cut(t[2:], "=")
			for _, l := range []string{"additional-suffix", "prefix", "suffix-format"} {
				if longPrefix(n, l) && len(n) > 1 {
					given = t
				}
			}
			if (longPrefix(n, "additional-suffix") || longPrefix(n, "prefix") || longPrefix(n, "suffix-format") ||
				longPrefix(n, "bytes") || longPrefix(n, "lines") || longPrefix(n, "line-bytes") || longPrefix(n, "number") ||
				longPrefix(n, "separator") || longPrefix(n, "suffix-length") || longPrefix(n, "filter") || longPrefix(n, "digits")) && len(n) > 1 {
				w := o.value(v, eq)
				switch {
				case longPrefix(n, "prefix") && len(n) > 1:
					prefix = w
				case (longPrefix(n, "additional-suffix") || longPrefix(n, "suffix-format")) && len(n) > 1:
					suffix = w
				}
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(valued, t[j]) < 0 {
				continue
			}
			if name == "csplit" && (t[j] == 'f' || t[j] == 'b') {
				given = t
			}
			w := o.value(t[j+1:], j+1 < len(t))
			switch {
			case name == "csplit" && t[j] == 'f':
				prefix = w
			case name == "csplit" && t[j] == 'b':
				suffix = w
			}
			break
		}
	}
	if name == "split" && len(o.ops) >= 2 {
		given = "a prefix"
		prefix = &o.ops[1]
	}
	if given == "" {
		return nil
	}
	what := "the files " + name + " names after " + given
	out := []argWord{{word: shellcmd.Word{Kind: shellcmd.Dynamic, Text: what, Why: "computed by " + name}, text: what, write: true,
		pieces: splitPieces(name, prefix, suffix)}}
	if p := o.ops; name == "split" && len(p) >= 2 && p[1].Kind == shellcmd.Static {
		// The pieces lie in the prefix's directory, a write there
		// whatever their suffix: "split f /etc/x" writes /etc/xaa.
		first := p[1].Text + "aa"
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: first}, text: first, write: true})
	}
	return out
}

// splitPieces returns the static pieces of the names split or csplit
// (name) writes, given its prefix and its additional suffix or suffix
// format (nil for the defaults): the prefix ("x", csplit's "xx"), then
// split's computed letters and the additional suffix, or csplit's
// format with each conversion computed ("%02d" by default; a format
// with none still gets a computed part after it).
func splitPieces(name string, prefix, suffix *shellcmd.Word) []string {
	text := map[string]string{"split": "x", "csplit": "xx"}[name]
	if prefix != nil {
		text = prefix.Text
	}
	src := shellPiece(shellcmd.Word{Kind: shellcmd.Static, Text: text})
	if prefix != nil {
		src = shellPiece(*prefix)
	}
	switch {
	case name == "split":
		src += "$_"
		if suffix != nil {
			src += shellPiece(*suffix)
		}
	case suffix == nil:
		src += "$_"
	case suffix.Kind != shellcmd.Static:
		src += "$_" + shellPiece(*suffix)
	default:
		src += formatPieces(suffix.Text)
	}
	return staticPieces(src)
}

// outputDirOption reads t, an option of a compressor, as one of names
// (its options naming the directory its files go into: a long name, as
// getopt_long takes it by a prefix, or a short letter): ok says it is,
// and dir is its value, nil when the line ends before it.
func outputDirOption(o *optionWords, t string, names []string) (dir *shellcmd.Word, ok bool) {
	for _, n := range names {
		if len(n) == 1 {
			if !strings.HasPrefix(t, "--") && len(t) > 1 && t[1] == n[0] {
				return o.value(t[2:], len(t) > 2), true
			}
			continue
		}
		if name, v, eq := strings.Cut(strings.TrimPrefix(t, "--"), "="); strings.HasPrefix(t, "--") && len(name) > 2 && longPrefix(name, n) {
			return o.value(v, eq), true
		}
	}
	return nil, false
}
