package governance

import (
	"archive/tar"
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// writeArchive creates the file at p, has fill write an archive into it
// through the writer it returns, and closes both.
func writeArchive(t *testing.T, p string, fill func(f *os.File) (io.Closer, error)) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w, err := fill(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeLinkTar writes a tar at p holding one symlink member name -> target.
func writeLinkTar(t *testing.T, p, name, target string) {
	t.Helper()
	writeArchive(t, p, func(f *os.File) (io.Closer, error) {
		tw := tar.NewWriter(f)
		return tw, tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: target, Mode: 0o777})
	})
}

// writeLinkZip writes a zip at p holding one symlink member name -> target.
func writeLinkZip(t *testing.T, p, name, target string) {
	t.Helper()
	writeArchive(t, p, func(f *os.File) (io.Closer, error) {
		zw := zip.NewWriter(f)
		h := &zip.FileHeader{Name: name}
		h.SetMode(os.ModeSymlink | 0o777)
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write([]byte(target))
		}
		return zw, err
	})
}

// writeZip writes a zip at p holding a file of text body under each of
// names.
func writeZip(t *testing.T, p, body string, names ...string) {
	t.Helper()
	writeArchive(t, p, func(f *os.File) (io.Closer, error) {
		zw := zip.NewWriter(f)
		for _, n := range names {
			w, err := zw.Create(n)
			if err != nil {
				return zw, err
			}
			if _, err := w.Write([]byte(body)); err != nil {
				return zw, err
			}
		}
		return zw, nil
	})
}

// TestDecideArchiveLinks checks that an archive extracted while its names
// are not decided (the line runs other commands, or it holds a link) is
// refused when a link it holds leads out of the workspace or onto a file a
// rule protects, and only asked about otherwise.
func TestDecideArchiveLinks(t *testing.T) {
	e, root, other := treeWriteWorkspace(t)
	writeLinkTar(t, filepath.Join(root, "out.tar"), "lv", other+"/f")
	writeLinkTar(t, filepath.Join(root, "key.tar"), "sub/lk", "../keys/a.key")
	writeLinkTar(t, filepath.Join(root, "plain.tar"), "ln", "a.txt")
	writeLinkZip(t, filepath.Join(root, "out.zip"), "lv", other+"/f")
	checkLineDecisions(t, e, root, []lineDecision{
		{"a tar holding a link out of the workspace", "tar -xf out.tar", Deny, "outside the workspace"},
		{"then written through", "tar -xf out.tar && cat a.txt > lv", Deny, "outside the workspace"},
		{"a tar holding a link to a key", "tar -xf key.tar && cp a.key sub/lk", Deny, "keys/a.key"},
		{"a zip holding a link out of the workspace", "unzip out.zip && cat a.txt > lv", Deny, "outside the workspace"},
		{"a tar holding a plain link is asked about", "tar -xf plain.tar && cat ln", RequireApproval, "not known"},
	})
}
