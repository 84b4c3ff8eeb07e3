package governance

import "strings"

// compressorFamily is a compressor: the suffixes it adds (the first) and
// strips when it decompresses (a "t" form, .tzst, becomes .tar), the
// letters that make it write no file (standard output, test, list), the
// options that take a value, those that name the directory it writes
// into, and the programs that only decompress.
type compressorFamily struct {
	suffixes      []string
	noWrite       string
	opts          optSet
	outputDirs    []string // options naming where its files go, instead of beside each operand
	decompressors []string
}

var gzipSuffixes = []string{".gz", "-gz", ".z", "-z", "_z", ".tgz", ".taz"}
var bzip2Suffixes = []string{".bz2", ".bz", ".tbz2", ".tbz"}

// compressorFamilies are the compressors by the name of the program that
// compresses. Each replaces every file it names by its compressed or
// decompressed form (or writes it beside, keeping the file), so
// "zstd -d secrets/a.key.zst" writes secrets/a.key. An option letter
// missing from opts is read as taking no value, so a value glued to it
// ("-T4") stays one word, as these programs read it.
var compressorFamilies = map[string]compressorFamily{
	"gzip":  {suffixes: gzipSuffixes, noWrite: "ctl", opts: gzipOpts, decompressors: []string{"gunzip"}},
	"pigz":  {suffixes: append(gzipSuffixes[:len(gzipSuffixes):len(gzipSuffixes)], ".zz"), noWrite: "ctl", opts: gzipNameOpts, decompressors: []string{"unpigz"}},
	"bzip2": {suffixes: bzip2Suffixes, noWrite: "ctl", decompressors: []string{"bunzip2"}},
	// pbzip2's -l is its load average, lbzip2's -n its thread count.
	"pbzip2": {suffixes: bzip2Suffixes, noWrite: "ct"},
	"lbzip2": {suffixes: bzip2Suffixes, noWrite: "ct", opts: optSet{shortValue: "n"}},
	"xz":     {suffixes: []string{".xz", ".txz", ".lzma", ".tlz", ".lz"}, noWrite: "ctl", opts: xzOpts, decompressors: []string{"unxz"}},
	"lzma":   {suffixes: []string{".lzma", ".tlz"}, noWrite: "ctl", opts: xzOpts, decompressors: []string{"unlzma"}},
	// pixz's -t means the input is not a tarball; "pixz in out" writes
	// out, which every operand being written covers.
	"pixz": {suffixes: []string{".xz", ".tpxz", ".txz"}, noWrite: "l", opts: optSet{shortValue: "iopq"}},
	"zstd": {suffixes: []string{".zst", ".tzst"}, noWrite: "ctl", opts: optSet{shortValue: "oD", longValue: map[string]bool{
		"output-dir-flat": true, "output-dir-mirror": true, "filelist": true}},
		outputDirs: []string{"output-dir-flat", "output-dir-mirror"}, decompressors: []string{"unzstd"}},
	// lz4's -l is its legacy format, not a list.
	"lz4":    {suffixes: []string{".lz4"}, noWrite: "ct", decompressors: []string{"unlz4"}},
	"brotli": {suffixes: []string{".br"}, noWrite: "ct", opts: optSet{shortValue: "oqwSD", longValue: map[string]bool{"output": true, "quality": true, "lgwin": true, "suffix": true, "dictionary": true}}},
	"lzip":   {suffixes: []string{".lz", ".tlz"}, noWrite: "ctl", opts: optSet{shortValue: "bmnos", longValue: map[string]bool{"output": true, "member-size": true, "match-length": true, "threads": true, "volume-size": true}}, decompressors: []string{"lunzip"}},
	"plzip":  {suffixes: []string{".lz", ".tlz"}, noWrite: "ctl", opts: optSet{shortValue: "Bbmnos", longValue: map[string]bool{"output": true, "data-size": true, "member-size": true, "match-length": true, "threads": true, "dictionary-size": true}}},
	"lzop": {suffixes: []string{".lzo", ".tzo"}, noWrite: "ctl", opts: optSet{shortValue: "opS", longValue: map[string]bool{"output": true, "path": true, "suffix": true}},
		outputDirs: []string{"p", "path"}},
	// Debian's uncompress is gzip's script, which strips gzip's suffixes
	// as well as .Z.
	"compress": {suffixes: append([]string{".Z", ".taz"}, gzipSuffixes...), noWrite: "c", opts: optSet{shortValue: "b"}, decompressors: []string{"uncompress"}},
	"bzip3":    {suffixes: []string{".bz3"}, noWrite: "ct", opts: optSet{shortValue: "bj", longValue: map[string]bool{"block": true, "jobs": true}}},
	"snzip":    {suffixes: []string{".sz"}, noWrite: "c", opts: optSet{shortValue: "tb"}},
}

// compressorOf returns the family of the program name (a compressor or a
// decompressor of one), its compressing program's name, and whether name
// only decompresses.
func compressorOf(name string) (fam compressorFamily, base string, decompress, ok bool) {
	if f, ok := compressorFamilies[name]; ok {
		return f, name, false, true
	}
	for b, f := range compressorFamilies {
		for _, d := range f.decompressors {
			if d == name {
				return f, b, true, true
			}
		}
	}
	if b, ok := strings.CutSuffix(name, "mt"); ok && b == "zstd" { // zstdmt is zstd -T0
		return compressorFamilies[b], b, false, true
	}
	return compressorFamily{}, "", false, false
}

// init lists every compressor and decompressor among the programs that
// write the files they are given (operandWriters) and those that replace
// every file beneath a directory given -r (recursiveCompressors).
func init() {
	for base, f := range compressorFamilies {
		for _, name := range append([]string{base}, f.decompressors...) {
			operandWriters[name] = compressor(f.opts, f.noWrite)
			recursiveCompressors[name] = true
		}
	}
	operandWriters["zstdmt"] = operandWriters["zstd"]
	recursiveCompressors["zstdmt"] = true
}
