package governance

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestStoredNames decides the file gzip, gunzip, pigz and unpigz write
// when they restore the name a compressed file stores (-N, --name, or
// the GZIP variable): the stored name's last element, in the operand's
// directory. An operand that is not there stands for the files gzip and
// pigz look for with a suffix added (-S's, .gz, .z, -z, .Z and more), and
// a directory given -r for every file beneath it. lzop restoring names
// needs approval.
func TestStoredNames(t *testing.T) {
	root := tempTree(t, []string{"sub", ".claude", "rec/deep", "rec.gz"}, []string{"a.txt"})
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gz := func(stored string, extra []byte) []byte {
		var out bytes.Buffer
		z := gzip.NewWriter(&out)
		z.Name, z.Extra = stored, extra
		z.Write([]byte("x"))
		z.Close()
		return out.Bytes()
	}
	write("gov.gz", gz("GOVERNANCE.md", nil))
	write("govx.gz", gz("GOVERNANCE.md", []byte("an extra field")))
	write(".claude/s.gz", gz("some/where/settings.json", nil))
	write("sub/trav.gz", gz("../../GOVERNANCE.md", nil))
	write("ok.gz", gz("a.txt", nil))
	write("plain.gz", gz("", nil))
	write("dir.gz", gz("sub/", nil))
	write("bad.gz", gz("GOVERNANCE.md", nil)[:12])
	write("gov.zip", zipBytes(t, "GOVERNANCE.md", nil))
	for _, suffix := range []string{".z", "-z", ".Z", "_z", "-gz", ".zz", ".bin"} {
		write("g"+suffix, gz("GOVERNANCE.md", nil))
	}
	write("rec/deep/k.gz", gz("a.key", nil))
	write("rec/k.gz", gz("a.key", nil))
	write("rec.gz/k.gz", gz("a.key", nil))

	e := rootPolicyEngine(t, root, "  allow: [Bash(gzip:*), Bash(gunzip:*), Bash(pigz:*), Bash(unpigz:*), Bash(lzop:*), Bash(zcat:*), Bash(ls:*)]\n  deny: [Edit(./rec/**/a.key), Edit(./rec.gz/a.key)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"gunzip -fN gov.gz", Deny},
		{"gunzip -N gov.gz", Deny},
		{"uncompress -fN gov.gz", Deny},
		{"gunzip --name gov.gz", Deny},
		{"gzip -dN gov.gz", Deny},
		{"gzip -Nd gov.gz", Deny},
		{"gzip -dfN gov.gz", Deny},
		{"gzip -d --name gov.gz", Deny},
		{"gzip -d --na gov.gz", Deny},
		{"gzip --decompress --name gov.gz", Deny},
		{"gzip -d -S .gz -N gov.gz", Deny},
		{"gunzip -N govx.gz", Deny},
		{"GZIP=-N gunzip gov.gz", Deny},
		{"gunzip gov.gz", Deny}, // the GZIP variable may hold -N
		{"gunzip -N .claude/s.gz", Deny},
		{"pigz -dN gov.gz", Deny},
		{"unpigz -N gov.gz", Deny},
		{"unpigz --name gov.gz", Deny},
		{"pigz -dN gov.zip", Deny},
		{"gunzip -N bad.gz", RequireApproval},
		{"gunzip -N dir.gz", RequireApproval},
		{"gunzip -N ok.gz && ls", RequireApproval},
		{"lzop -dN a.lzo", RequireApproval},
		{"lzop -x a.lzo", RequireApproval},
		{"gunzip -N sub/trav.gz", Allow}, // sub/GOVERNANCE.md
		{"gunzip -N ok.gz", Allow},
		{"gunzip -N plain.gz", Allow},
		{"gunzip -N g", Deny}, // gzip tries g.gz, g.z, g-z, g.Z; other versions and pigz more
		{"gunzip -fN g", Deny},
		{"gzip -dN g", Deny},
		{"unpigz -N g", Deny},
		{"gunzip -N -S .bin g", Deny},
		{"gunzip -N --suffix=.bin g", Deny},
		{"gunzip -N --suffix .bin g", Deny},
		{"gunzip -N --suf=.bin g", Deny},
		{"gunzip -NS.bin g", Deny},
		{"gunzip -NS .bin g", Deny},
		{"gzip -dNS .bin g", Deny},
		{"gunzip -rN rec", Deny},
		{"gunzip -N -r rec", Deny},
		{"gunzip --recursive --name rec", Deny},
		{"gzip -drN rec", Deny},
		{"gunzip -rN rec/", Deny},
		{"gunzip -rN ./rec", Deny},
		{"gunzip -rN rec/deep", Deny},
		{"unpigz -N rec", Deny}, // the PIGZ variable may hold -r
		{"gunzip -rN rec.gz", Deny},
		{"gunzip -N rec", Allow},
		{"gunzip -N -S .gz rec", Allow},
		{"gunzip -rN sub", Allow},
		{"gunzip -N missing.gz", Allow}, // .gz is a suffix gzip knows: it looks for nothing else
		{"gunzip -N missing", Allow},
		{"gunzip -N sub", Allow},
		{"gunzip ok.gz && ls", Allow},
		{"gunzip -cN gov.gz", Allow},
		{"gzip -dc --name gov.gz", Allow},
		{"gunzip -tN gov.gz", Allow},
		{"gunzip -lN gov.gz", Allow},
		{"zcat gov.gz", Allow},
		{"gzip -N a.txt", Allow},
		{"lzop -d a.lzo", Allow},
	})
}
