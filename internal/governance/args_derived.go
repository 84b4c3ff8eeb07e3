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
// ("gunzip .env.gz" writes .env). derivedWrites gives the compressors'
// names as files written, and a split or csplit given its own prefix or
// format a name known only when the line runs (runtimeName).

// compressorSuffixes are the suffixes each compressor adds by default and
// strips (a "t" form, .tgz, becomes .tar).
var compressorSuffixes = map[string][]string{
	"gzip": {".gz", "-gz", ".z", "-z", "_z", ".tgz", ".taz"}, "bzip2": {".bz2", ".bz", ".tbz2", ".tbz"},
	"xz": {".xz", ".txz", ".lzma", ".tlz", ".lz"}, "lzma": {".lzma", ".tlz"},
}

// derivedWrites returns the names a split, csplit, compressor or
// decompressor form writes that no word of the line holds whole.
func derivedWrites(form []shellcmd.Word) []argWord {
	name := filepath.Base(form[0].Text)
	switch name {
	case "split", "csplit":
		return splitWrites(name, form)
	}
	base, decompress := name, false
	switch name {
	case "gunzip", "bunzip2", "unxz", "unlzma":
		base, decompress = map[string]string{"gunzip": "gzip", "bunzip2": "bzip2", "unxz": "xz", "unlzma": "lzma"}[name], true
	}
	sfxs, ok := compressorSuffixes[base]
	if !ok {
		return nil
	}
	w := operandWriters[name]
	var opts []string
	var suffix *shellcmd.Word
	o := optionWords{form: form}
	for o.next() {
		t := o.opt.Text
		opts = append(opts, t)
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
	add := func(n string) {
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: n}, text: n, write: true})
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
// names are computed from them.
func splitWrites(name string, form []shellcmd.Word) []argWord {
	valued := map[string]string{"split": "abClnt", "csplit": "fbn"}[name]
	given := ""
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
				o.value(v, eq)
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
			o.value(t[j+1:], j+1 < len(t))
			break
		}
	}
	if name == "split" && len(o.ops) >= 2 {
		given = "a prefix"
	}
	if given == "" {
		return nil
	}
	what := "the files " + name + " names after " + given
	out := []argWord{{word: shellcmd.Word{Kind: shellcmd.Dynamic, Text: what, Why: "computed by " + name}, text: what, write: true}}
	if p := o.ops; name == "split" && len(p) >= 2 && p[1].Kind == shellcmd.Static {
		// The pieces lie in the prefix's directory, a write there
		// whatever their suffix: "split f /etc/x" writes /etc/xaa.
		first := p[1].Text + "aa"
		out = append(out, argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: first}, text: first, write: true})
	}
	return out
}
