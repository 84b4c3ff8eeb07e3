package governance

import (
	"bytes"
	"compress/zlib"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// zlibBytes returns b compressed as a loose object is.
func zlibBytes(b []byte) []byte {
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

// FuzzReadLooseBlob checks that any bytes stored as a loose object file
// read without a panic, and that a text read is at most maxLinkBlobBytes
// long, not empty and free of NULs.
func FuzzReadLooseBlob(f *testing.F) {
	for _, s := range []string{"blob 10\x00keys/a.key", "blob 3\x00abc", "blob 4\x00abc", "blob 0\x00", "tree 3\x00abc",
		"blob -1\x00", "blob 3\x00a\x00c", "blob 99999999999999999999\x00x", strings.Repeat("blob 5000\x00"+strings.Repeat("a", 5000), 1)} {
		f.Add(zlibBytes([]byte(s)))
	}
	f.Add([]byte("not zlib"))
	f.Add(zlibBytes([]byte("blob 3\x00abc"))[:6])
	f.Fuzz(func(t *testing.T, data []byte) {
		objects := t.TempDir()
		var oid [20]byte
		oid[0] = 0xab
		if err := os.MkdirAll(filepath.Join(objects, "ab"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(objects, "ab", strings.Repeat("00", 19)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		text, ok := readLooseBlob(objects, oid)
		if !ok {
			return
		}
		if len(text) > maxLinkBlobBytes || text == "" || strings.IndexByte(text, 0) >= 0 {
			t.Fatalf("read %d bytes %q; want 1..%d without a NUL", len(text), text, maxLinkBlobBytes)
		}
	})
}

// FuzzReadLinkOptions checks that reading any cp or ln form's options
// never panics, and that a prefix of --symbolic (ln) or --symbolic-link
// (cp) that getopt_long takes for it, given first, makes the form
// symbolic whatever follows.
func FuzzReadLinkOptions(f *testing.F) {
	for _, s := range []string{"-s a b", "--sym a b", "-S .s a b", "--suffix=x -s a", "-t d -rs a", "--re a b", "--s a b",
		"--symbolic-link a b", "-- -s b", "--link a b", "-lSs a b", "--target-directory d a"} {
		f.Add(true, s, uint8(3))
		f.Add(false, s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, ln bool, line string, cut uint8) {
		prog, long := "cp", "symbolic-link"
		if ln {
			prog, long = "ln", "symbolic"
		}
		form := []shellcmd.Word{{Kind: shellcmd.Static, Text: prog}}
		for _, w := range strings.Fields(line) {
			form = append(form, shellcmd.Word{Kind: shellcmd.Static, Text: w})
		}
		readLinkOptions(form)
		p := long[:1+int(cut)%len(long)]
		if linkerLong(prog, p) != long {
			return // ambiguous, or another option's prefix
		}
		given := append([]shellcmd.Word{form[0], {Kind: shellcmd.Static, Text: "--" + p}}, form[1:]...)
		if !readLinkOptions(given).symbolic {
			t.Fatalf("%s --%s %s: not symbolic", prog, p, line)
		}
	})
}

// FuzzYqLoadReads checks that reading any yq expression for the files it
// loads never panics, that what it reads lies in the expression, and
// that a plain load("F") literal is a read of F.
func FuzzYqLoadReads(f *testing.F) {
	for _, s := range []string{`load("a.yaml")`, `.a = load_str(".env")`, `load(strenv(X))`, `load("a\"b")`, `strload( "x" )`,
		`load_xml("f") * load("g")`, `load(`, `load("`, `.a | load_base64("k")`} {
		f.Add(s, "f.yaml")
	}
	f.Fuzz(func(t *testing.T, expr, name string) {
		form := []shellcmd.Word{{Kind: shellcmd.Static, Text: "yq"}, {Kind: shellcmd.Static, Text: "eval"}, {Kind: shellcmd.Static, Text: expr}}
		for _, a := range yqLoadReads(form) {
			if !strings.Contains(expr, a.text) {
				t.Fatalf("%q: read %q is not in the expression", expr, a.text)
			}
		}
		if strings.ContainsAny(name, "\"\\") {
			return
		}
		form[2].Text = `load("` + name + `")`
		reads := yqLoadReads(form)
		if len(reads) != 1 || reads[0].text != name || reads[0].unplaced != "" {
			t.Fatalf("%s: read as %+v; want one read of %q", form[2].Text, reads, name)
		}
	})
}
