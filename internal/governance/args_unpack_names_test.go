package governance

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// zipBytes returns a zip archive holding one member under name, whose
// extra fields (in its local header and its central directory entry)
// are extra.
func zipBytes(t *testing.T, name string, extra []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("x"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// gzipBytes returns b compressed by gzip, with no name stored.
func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	z := gzip.NewWriter(&out)
	if _, err := z.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// unicodePathExtra returns an Info-ZIP Unicode Path extra field naming
// real, of the version given, checked against the name sum.
func unicodePathExtra(version byte, sum, real string) []byte {
	b := binary.LittleEndian.AppendUint16(nil, 0x7075)
	b = binary.LittleEndian.AppendUint16(b, uint16(5+len(real)))
	b = append(b, version)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE([]byte(sum)))
	return append(b, real...)
}

// replaceAt returns b with its first (or, when last, its last)
// occurrence of old replaced by new, of the same length.
func replaceAt(b []byte, old, new string, last bool) []byte {
	i := bytes.Index(b, []byte(old))
	if last {
		i = bytes.LastIndex(b, []byte(old))
	}
	out := append([]byte(nil), b...)
	copy(out[i:], new)
	return out
}

// TestUnpackedNamesElsewhere decides the names an extractor gives a
// member that are not the one the bridge lists first: a zip member's
// Info-ZIP Unicode Path (0x7075, whatever its version or checksum, in the
// central directory or the local header), its local header's name, and
// a tar member after the archive's end marker, which GNU tar -i
// (--ignore-zeros) extracts.
func TestUnpackedNamesElsewhere(t *testing.T) {
	root := tempTree(t, []string{"src", ".claude"}, []string{"src/a.txt"})
	const fake, real = "src/zzzzzzzzzzzzz.txt", ".claude/settings.json" // of one length
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	both := zipBytes(t, fake, unicodePathExtra(1, fake, real))
	write("u.zip", both)
	write("ucrc.zip", zipBytes(t, fake, unicodePathExtra(1, "other", real)))
	write("uv2.zip", zipBytes(t, fake, unicodePathExtra(2, fake, real)))
	write("ugov.zip", zipBytes(t, fake, unicodePathExtra(1, fake, "GOVERNANCE.md")))
	write("ulocal.zip", replaceAt(both, "\x75\x70\x1a\x00", "\x76\x70\x1a\x00", true))
	write("ucentral.zip", replaceAt(both, "\x75\x70\x1a\x00", "\x76\x70\x1a\x00", false))
	write("lname.zip", replaceAt(zipBytes(t, fake, nil), fake, real, false))
	write("cname.zip", replaceAt(zipBytes(t, real, nil), real, fake, false))
	write("uempty.zip", zipBytes(t, fake, unicodePathExtra(1, fake, "")))
	write("uok.zip", zipBytes(t, fake, unicodePathExtra(1, fake, "src/b.txt")))
	write("uout.zip", zipBytes(t, fake, unicodePathExtra(1, fake, "../out.txt")))
	write("ushort.zip", zipBytes(t, fake, append([]byte{0x75, 0x70, 0x40, 0}, real...)))

	tarOf := func(pad int, members ...string) []byte {
		return append(tarBytes(t, "GOVERNANCE.md", members...), make([]byte, pad)...)
	}
	cat := append(tarOf(0, "src/b.txt"), tarOf(0, real)...)
	write("cat.tar", cat)
	write("catpad.tar", append(tarOf(9216, "src/b.txt"), tarOf(0, "GOVERNANCE.md")...))
	write("cat.tgz", gzipBytes(t, cat))
	write("cat2.tgz", append(gzipBytes(t, tarOf(0, "src/b.txt")), gzipBytes(t, tarOf(0, real))...))
	write("catlink.tar", append(tarOf(0, "src/b.txt"), tarOf(0, "link")...))
	write("okcat.tar", append(tarOf(0, "src/b.txt"), tarOf(0, "src/c.txt")...))
	write("padded.tar", tarOf(9216, "src/b.txt"))
	write("junk.tar", append(tarOf(0, "src/b.txt"), []byte("not a tar member")...))
	lone := tarOf(0, "src/b.txt")
	write("lone.tar", append(lone[:len(lone)-512], tarOf(0, real)...))
	write("junk.tgz", append(gzipBytes(t, tarOf(0, "src/b.txt")), []byte("trailing garbage")...))

	e := rootPolicyEngine(t, root, "  allow: [Bash(tar:*), Bash(bsdtar:*), Bash(unzip:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"unzip -o u.zip", Deny},
		{"unzip ucrc.zip", Deny},
		{"unzip uv2.zip", Deny},
		{"unzip ugov.zip", Deny},
		{"unzip ulocal.zip", Deny},
		{"unzip ucentral.zip", Deny},
		{"unzip lname.zip", Deny},
		{"unzip cname.zip", Deny},
		{"unzip -q -o ucrc.zip -d .", Deny},
		{"unzip uout.zip", Deny},
		{"unzip uempty.zip", Allow},
		{"unzip uok.zip", Allow},
		{"unzip ushort.zip", Allow}, // the field overruns the extra fields: unzip stops reading them
		{"unzip -l u.zip", Allow},

		{"tar xif cat.tar", Deny},
		{"tar -x -i -f cat.tar", Deny},
		{"tar -xif cat.tar", Deny},
		{"tar --extract --ignore-zeros --file cat.tar", Deny},
		{"tar --extract --ignore-z -f cat.tar", Deny},
		{"tar xf cat.tar", Deny},
		{"bsdtar -xf cat.tar", Deny},
		{"tar xif catpad.tar", Deny},
		{"tar xizf cat.tgz", Deny},
		{"tar -xzif cat2.tgz", Deny},
		{"tar xif catlink.tar", Deny},
		{"tar xif junk.tar", Deny},
		{"tar xif lone.tar", Deny},
		{"tar xif okcat.tar", Allow},
		{"tar xf padded.tar", Allow},
		{"tar xzf junk.tgz", Allow},
		{"tar -tif cat.tar", Allow},
	})
}
