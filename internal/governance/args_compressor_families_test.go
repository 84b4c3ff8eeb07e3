package governance

import (
	"testing"
)

// TestCompressorFamilies: every compressor and decompressor of
// compressorFamilies writes the file it is given without its suffix when it
// decompresses, and the file with its suffix when it compresses, in the
// directory an output-directory option names where it has one; a letter
// that sends the output to standard output, tests or lists writes none,
// and a letter that means something else for one program (lz4's -l, its
// legacy format) still writes.
func TestCompressorFamilies(t *testing.T) {
	root := tempTree(t, []string{"d"}, []string{"a.txt", "x.zst", "x.lz4", "x.br"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n  deny: [Edit(**/.env)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"unpigz .env.gz", Deny},
		{"pigz -d .env.gz", Deny},
		{"pigz -d .env.zz", Deny},
		{"zstd -d .env.zst", Deny},
		{"unzstd .env.zst", Deny},
		{"zstdmt -d .env.zst", Deny},
		{"zstd -T4 -d .env.zst", Deny},
		{"zstd -d x.env.zst --output-dir-flat d", Allow},
		{"zstd -d .env.zst --output-dir-flat d", Deny},
		{"zstd -d .env.zst --output-dir-flat=d", Deny},
		{"zstd -d d/.env.zst --output-dir-mirror d", Deny},
		{"lz4 -d .env.lz4", Deny},
		{"lz4 -dl .env.lz4", Deny},
		{"unlz4 .env.lz4", Deny},
		{"lz4 -d x.lz4 .env", Deny},
		{"brotli -d .env.br", Deny},
		{"brotli -q 5 -d .env.br", Deny},
		{"lzip -d .env.lz", Deny},
		{"lunzip .env.lz", Deny},
		{"plzip -d .env.tlz", Allow}, // writes .env.tar
		{"plzip -d .env.lz", Deny},
		{"pbzip2 -d .env.bz2", Deny},
		{"lbzip2 -d .env.bz2", Deny},
		{"lbzip2 -n 4 -d .env.bz2", Deny},
		{"uncompress .env.Z", Deny},
		{"uncompress .env.gz", Deny},
		{"compress -d .env.Z", Deny},
		{"lzop -d .env.lzo", Deny},
		{"lzop -d -pd d.env.lzo", Allow},
		{"lzop -d -p d .env.lzo", Deny},
		{"lzop -d --path=d .env.lzo", Deny},
		{"pixz -d .env.xz", Deny},
		{"bzip3 -d .env.bz3", Deny},
		{"snzip -d .env.sz", Deny},
		{"zstd --rm .env", Deny},
		{"zstd -d -c .env.zst", Allow},
		{"zstd -l x.zst", Allow},
		{"zstd -t x.zst", Allow},
		{"zstd a.txt", Allow},
		{"zstd -d x.zst", Allow},
		{"lz4 -d x.lz4", Allow},
		{"brotli -d x.br", Allow},
		{"lz4 -c -d x.lz4", Allow},
	})
}

// TestOtherExtractors: extractors whose archives the bridge does not read
// need approval when they extract, and not when they list or test;
// decoders that write the name their input holds (uudecode without -o,
// unshar) need approval too.
func TestOtherExtractors(t *testing.T) {
	root := tempTree(t, nil, []string{"a.lzh", "a.arj", "a.zpaq", "a.exe", "a.cpio", "a.zip", "a.cab", "a.gem", "a.sqfs", "f.uu", "x.shar", "a.tar.lrz"})
	e := rootPolicyEngine(t, root, "  allow: [Bash]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"lha x a.lzh", Deny},
		{"lha -xw=d a.lzh", Deny},
		{"arj x a.arj", Deny},
		{"unarj a.arj", Deny},
		{"zpaq x a.zpaq", Deny},
		{"innoextract a.exe", Deny},
		{"bsdcpio -i < a.cpio", Deny},
		{"atool -x a.zip", Deny},
		{"atool --extract-to=d a.zip", Deny},
		{"ark --batch a.zip", Deny},
		{"cabextract a.cab", Deny},
		{"gem unpack a.gem", Deny},
		{"unsquashfs a.sqfs", Deny},
		{"uudecode f.uu", Deny},
		{"uudecode < f.uu", Deny},
		{"unshar x.shar", Deny},
		{"lrzuntar a.tar.lrz", Deny},
		{"lha l a.lzh", Allow},
		{"zpaq l a.zpaq", Allow},
		{"innoextract -l a.exe", Allow},
		{"atool -l a.zip", Allow},
		{"cabextract -l a.cab", Allow},
		{"unsquashfs -l a.sqfs", Allow},
		{"uudecode -o out.txt f.uu", Allow},
		{"gem install rake", Allow},
	})
}
