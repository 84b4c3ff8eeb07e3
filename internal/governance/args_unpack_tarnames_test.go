package governance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// rawTarMember returns a ustar member of type flag named name holding
// body, its header written byte by byte (archive/tar writes no type it
// does not know).
func rawTarMember(name string, flag byte, body []byte) []byte {
	h := make([]byte, 512)
	copy(h, name)
	copy(h[100:], "0000644\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	copy(h[124:], fmt.Sprintf("%011o\x00", len(body)))
	copy(h[136:], "00000000000\x00")
	h[156] = flag
	copy(h[257:], "ustar\x0000")
	copy(h[148:], "        ")
	sum := 0
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
	b := append(h, body...)
	return append(b, make([]byte, (512-len(body)%512)%512)...)
}

// paxBody returns the pax records of the key and value pairs kv.
func paxBody(kv ...string) []byte {
	var b bytes.Buffer
	for i := 0; i+1 < len(kv); i += 2 {
		rec := " " + kv[i] + "=" + kv[i+1] + "\n"
		n := len(rec) + 1
		for len(fmt.Sprint(n))+len(rec) != n {
			n++
		}
		fmt.Fprintf(&b, "%d%s", n, rec)
	}
	return b.Bytes()
}

// rawTar returns the members given, ended by two zero blocks.
func rawTar(members ...[]byte) []byte {
	var b []byte
	for _, m := range members {
		b = append(b, m...)
	}
	return append(b, make([]byte, 1024)...)
}

// TestTarMemberNamesRead decides the names GNU tar and bsdtar give a tar
// member that Go's archive/tar does not: a header of a type the two read
// otherwise (GNU tar takes the Solaris 'X' as a pax header renaming the
// next member) needs approval, and every pax record naming a path
// (GNU.sparse.name, path, linkpath, GNU.volume.filename, in the member's
// header or a global one) is decided as a write. tar's --pax-option and
// --one-top-level, which rename what it writes, need approval.
func TestTarMemberNamesRead(t *testing.T) {
	root := tempTree(t, []string{"src", ".claude"}, []string{"src/a.txt"})
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := rawTarMember("src/ok.txt", '0', []byte("k\n"))
	withPax := func(flag byte, kv ...string) []byte {
		return rawTar(rawTarMember("PaxHeaders/ok.txt", flag, paxBody(kv...)), file)
	}
	write("solaris.tar", withPax('X', "path", "GOVERNANCE.md"))
	write("solaris.tgz", gzipBytes(t, withPax('X', "path", "GOVERNANCE.md")))
	write("solarisok.tar", withPax('X', "path", "src/fine.txt"))
	for _, flag := range "VMNDAEIXZ89" {
		write(fmt.Sprintf("type%c.tar", flag), rawTar(rawTarMember("src/ok.txt", byte(flag), []byte("k\n"))))
	}
	write("cont.tar", rawTar(rawTarMember("src/ok.txt", '7', []byte("k\n"))))
	write("sparse.tar", withPax('x', "GNU.sparse.name", "GOVERNANCE.md"))
	write("sparse.tgz", gzipBytes(t, withPax('x', "GNU.sparse.name", "GOVERNANCE.md")))
	write("sparsepath.tar", withPax('x', "path", "src/p.txt", "GNU.sparse.name", ".claude/settings.json"))
	write("pathsparse.tar", withPax('x', "GNU.sparse.name", "src/p.txt", "path", ".claude/settings.json"))
	write("linkpath.tar", withPax('x', "linkpath", "GOVERNANCE.md"))
	write("volume.tar", withPax('x', "GNU.volume.filename", "GOVERNANCE.md"))
	write("global.tar", withPax('g', "path", "GOVERNANCE.md"))
	write("globalsparse.tar", withPax('g', "GNU.sparse.name", "GOVERNANCE.md"))
	write("globalok.tar", withPax('g', "comment", "made here"))
	write("dumpdir.tar", rawTar(rawTarMember("PaxHeaders/d", 'x', paxBody("GNU.dumpdir", "Yx\x00\x00")), rawTarMember("src/d/", '5', nil)))
	write("records.tar", withPax('x', "SCHILY.xattr.user.a", "1", "LIBARCHIVE.symlinktype", "file", "mtime", "1.5", "uname", "GOVERNANCE.md"))
	write("pathok.tar", withPax('x', "path", "src/fine.txt"))
	write("ok.tar", rawTar(file))

	e := rootPolicyEngine(t, root, "  allow: [Bash(tar:*), Bash(bsdtar:*), Bash(gtar:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"tar -xf solaris.tar", Deny},
		{"tar xf solaris.tar", Deny},
		{"tar -xzf solaris.tgz", Deny},
		{"tar -xf solaris.tgz", Deny},
		{"gtar --extract --file=solaris.tar", Deny},
		{"bsdtar -xf solaris.tar", Deny},
		{"tar -xf solarisok.tar", Deny},
		{"tar -xf typeV.tar", Deny},
		{"tar -xf typeM.tar", Deny},
		{"tar -xf typeN.tar", Deny},
		{"tar -xf typeD.tar", Deny},
		{"tar -xf typeA.tar", Deny},
		{"tar -xf typeE.tar", Deny},
		{"tar -xf typeI.tar", Deny},
		{"tar -xf typeX.tar", Deny},
		{"tar -xf typeZ.tar", Deny},
		{"tar -xf type8.tar", Deny},
		{"tar -xf type9.tar", Deny},
		{"tar -xf dumpdir.tar", Deny},
		{"tar -xf sparse.tar", Deny},
		{"tar -xzf sparse.tgz", Deny},
		{"tar -xf sparse.tar -C .", Deny},
		{"tar -xf sparsepath.tar", Deny},
		{"tar -xf pathsparse.tar", Deny},
		{"tar -xf linkpath.tar", Deny},
		{"tar -xf volume.tar", Deny},
		{"tar -xf global.tar", Deny},
		{"tar -xf globalsparse.tar", Deny},
		{"tar --pax-option=path:=src/x.txt -xf ok.tar", Deny},
		{"tar -x --pax-option path:=src/x.txt -f ok.tar", Deny},
		{"tar --pax-o=path=src/x.txt -xf ok.tar", Deny},
		{"tar -x --one-top-level=.claude -f ok.tar", Deny},
		{"tar -xf ok.tar --one-top-level", Deny},
		{"tar -xf ok.tar --one-top", Deny},
		{"tar -xf cont.tar", Allow},
		{"tar -xf globalok.tar", Allow},
		{"tar -xf records.tar", Allow},
		{"tar -xf pathok.tar", Allow},
		{"tar -xf ok.tar", Allow},
		{"tar -xf ok.tar --one-file-system", Allow},
		{"tar -tf solaris.tar", Allow},
		{"tar -tf sparse.tar", Allow},
	})
}
