package governance

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// tarBytes returns a tar of members: a name ending in / is a directory,
// "link" a symlink to linkTarget, any other a regular file holding "x".
func tarBytes(t *testing.T, linkTarget string, members ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, m := range members {
		h := &tar.Header{Name: m, Mode: 0o644, Size: 1, Typeflag: tar.TypeReg}
		if strings.HasSuffix(m, "/") {
			h = &tar.Header{Name: m, Mode: 0o755, Typeflag: tar.TypeDir}
		}
		if m == "link" {
			h = &tar.Header{Name: m, Typeflag: tar.TypeSymlink, Linkname: linkTarget}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte("x")); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestUnpackedNames decides the files tar -x and unzip write: the members
// of the archive the line names, read when the request is decided, each
// below the directory it is extracted into. "tar -xf evil.tar" with a
// member .claude/settings.json writes Claude's settings, and was allowed
// under Bash(tar:*). An archive whose names cannot be known needs
// approval.
func TestUnpackedNames(t *testing.T) {
	root := tempTree(t, []string{"sub", "out"}, []string{"a.txt"})
	writeTar := func(name string, gz bool, members ...string) {
		b := tarBytes(t, ".claude", members...)
		if gz {
			b = gzipBytes(t, b)
		}
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeTar("evil.tar", false, ".claude/settings.json")
	writeTar("evil.tgz", true, "pkg/", "pkg/.envrc")
	writeTar("deep.tar", false, "top/GOVERNANCE.md")
	writeTar("link.tar", false, "link")
	writeTar("ok.tar", false, "src/", "src/main.go")
	writeZip(t, filepath.Join(root, "evil.zip"), "{}", ".vscode/tasks.json")
	e := rootPolicyEngine(t, root, "  allow: [Bash(tar:*), Bash(unzip:*), Bash(ls:*), Bash(cpio:*), Bash(7z:*), Bash(jar:*), Bash(ar:*), Bash(pax:*), Bash(dpkg-deb:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"tar -xf evil.tar", Deny},
		{"tar xf evil.tar", Deny},
		{"tar --extract --file=evil.tar", Deny},
		{"tar -xzf evil.tgz --strip-components=1", Deny},
		{"tar -C sub -xf evil.tar", Deny},
		{"tar -xf deep.tar --strip-components 1", Deny},
		{"unzip evil.zip", Deny},
		{"unzip -q evil.zip -d sub", Deny},
		{"tar -xf link.tar", Deny},
		{"tar -xf missing.tar", Deny}, // made before it runs, its names unknown: the root holds the policy
		{"tar -xzf - < evil.tgz", Deny},
		{"tar -xf ok.tar --transform=s/src/.claude/", Deny},
		{"tar -xf ok.tar && ls", Deny},
		{"tar -xf ok.tar", Allow},
		{"tar -xf deep.tar", Allow},
		{"cpio -idm < evil.cpio", Deny},
		{"7z x evil.7z", Deny},
		{"jar xf evil.jar", Deny},
		{"ar x evil.a", Deny},
		{"pax -r < evil.pax", Deny},
		{"dpkg-deb -x evil.deb .", Deny},
		{"7z l evil.7z", Allow},
		{"ar t evil.a", Allow},
		{"tar -tf evil.tar", Allow},
		{"unzip -l evil.zip", Allow},
	})
}

// emptyArchives writes an empty tar archive at root/a.tar and an empty zip
// archive at root/a.zip, which tar and unzip read as holding nothing.
func emptyArchives(t *testing.T, root string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "a.tar"), make([]byte, 1024), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(root, "a.zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.NewWriter(f).Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// FuzzUnpackOf reads tar and unzip command words and archive bytes: no
// panic, and a form that extracts names an archive or says it reads its
// input.
func FuzzUnpackOf(f *testing.F) {
	for _, s := range []string{"tar -xf a.tar", "tar xfC a.tar d", "tar --extract --file=a --strip-components=x", "unzip -jd d a.zip -x b", "tar -xC", "tar x", "unzip"} {
		f.Add(s, []byte("x"))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, line string, data []byte) {
		var form []shellcmd.Word
		for _, w := range strings.Fields(line) {
			form = append(form, shellcmd.Word{Kind: shellcmd.Static, Text: w})
		}
		u, ok := unpackOf(form)
		if !ok {
			return
		}
		p := filepath.Join(dir, "archive")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names, why := archiveNames(p, u.prog)
		if why != "" && names != nil {
			t.Fatalf("%q: names %q and a reason %q", line, names, why)
		}
	})
}
