package governance

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The symlinks a git command a decided line runs may put in place, kept
// for later requests as the links ln makes are (links_made.go), where the
// bridge can read them without running git (whose configuration may run
// commands): a git mv of a symlink, or of a directory holding one, puts
// it at its new name, leading where it leads now; git checkout-index,
// checkout and restore of a path put each index entry of mode 120000
// beneath it in place as a link whose target is its blob's text, read
// from the repository's loose objects (beneath its top or a workspace
// root, never through a symlinked object file). An entry whose blob the
// bridge cannot read is kept as a link to a place known only when it
// runs.

// maxLinkBlobBytes bounds the text of a symlink's blob read (its target).
const maxLinkBlobBytes = 4096

// gitModeSymlink is an index entry's mode for a symlink.
const gitModeSymlink = 0o120000

// gitMadeLinks returns the links the git form (a whole command, "git ...")
// run in dir may put in place that the bridge can read; a blob is read
// only from an objects directory beneath the repository's top or one of
// roots (readLinkBlob).
func gitMadeLinks(form []shellcmd.Word, dir string, roots []string) []madeLink {
	f, _, rdir, ok := gitRemover(form, dir)
	if !ok {
		return nil
	}
	switch f[0].Text {
	case "mv":
		return copiedFormLinks("mv", f, rdir)
	case "checkout-index", "checkout", "restore":
		return indexLinks(f, rdir, roots)
	}
	return nil
}

// indexLinks returns the symlinks the index holds beneath the pathspecs
// of a checkout-index, checkout or restore form f (from the subcommand
// on) run in dir, each at its place in the work tree and leading where
// its blob's text says.
func indexLinks(f []shellcmd.Word, dir string, roots []string) []madeLink {
	sub := f[0].Text
	o := shellcmd.ReadGitArgs(sub, f[1:])
	if o.Computed || sub == "checkout-index" && len(o.Values("prefix")) > 0 {
		return nil // the prefix's files are decided by checkoutIndexWrites
	}
	sl, ok := indexSymlinks(f, o, dir)
	if !ok {
		return nil
	}
	var out []madeLink
	for _, en := range sl.entries {
		name := filepath.Clean(sl.top + "/" + en.path)
		text, ok := readLinkBlob(sl.repo, roots, en.oid)
		if !ok {
			out = append(out, madeLink{name: name})
			continue
		}
		l := madeLink{name: name, target: text, op: text}
		if !strings.HasPrefix(text, "/") {
			l.target = filepath.Dir(name) + "/" + text
		}
		out = append(out, l)
	}
	return out
}

// indexSymlinkSet is what indexSymlinks finds: the repository, the top
// of its work tree as the command's directory spells it, and the index
// entries of mode 120000 beneath the pathspecs.
type indexSymlinkSet struct {
	repo    gitRepo
	top     string
	entries []gitIndexEntry
}

// indexSymlinks returns the index entries of mode 120000 that a
// checkout-index, checkout or restore form f (from the subcommand on, its
// words read as o) run in dir takes from beneath its pathspecs; ok is
// false when the repository or its index cannot be read, or it moves its
// work tree. A pathspec git expands itself (a wildcard, ":" magic) or a
// word known only when the line runs counts as the whole index.
func indexSymlinks(f []shellcmd.Word, o shellcmd.GitArgs, dir string) (indexSymlinkSet, bool) {
	r, ok := findGitRepo(dir)
	if !ok || r.movesWorkTree() {
		return indexSymlinkSet{}, false
	}
	entries, ok := readGitIndexEntries(filepath.Join(r.gitDir, "index"))
	if !ok {
		return indexSymlinkSet{}, false
	}
	top, rel := checkoutIndexTop(dir)
	all := f[0].Text == "checkout-index" && o.Has("all")
	var specs []string
	for _, w := range o.Operands {
		t := w.Text
		if w.Kind != shellcmd.Static || !plainPathspec(t) {
			// git's own match (a glob, ':' magic, a '\' escape), an
			// absolute path, or not known: every entry.
			specs = append(specs, ".")
			continue
		}
		specs = append(specs, filepath.Clean(rel+"/"+t))
	}
	set := indexSymlinkSet{repo: r, top: top}
	for _, en := range entries {
		if en.mode&0o170000 == gitModeSymlink && (all && underSpec(en.path, filepath.Clean(rel)) || matchesSpec(en.path, specs)) {
			set.entries = append(set.entries, en)
		}
	}
	return set, true
}

// plainPathspec reports whether the pathspec t names a path relative to
// the command's directory that git matches as the text it is: letters,
// digits and . _ - + @ / only (no glob, escape or ':' magic, not
// absolute).
func plainPathspec(t string) bool {
	if t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, ":") {
		return false
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+@/", r)) {
			return false
		}
	}
	return true
}

// matchesSpec reports whether the index path p is or lies beneath one of
// specs (paths from the top, "." for all).
func matchesSpec(p string, specs []string) bool {
	for _, s := range specs {
		if underSpec(p, s) {
			return true
		}
	}
	return false
}

// underSpec reports whether the index path p is or lies beneath spec.
func underSpec(p, spec string) bool {
	return spec == "." || p == spec || strings.HasPrefix(p, spec+"/")
}

// readLinkBlob returns the text of the blob oid of the repository r, read
// as a loose object (readLooseBlob) from its objects directory (its
// common directory's) as the file system resolves it, and only when that
// lies beneath r's top or one of roots: a symlinked objects directory or
// a commondir leading elsewhere would have the bridge read, and keep as a
// link's target, a file anywhere on the machine. ok is false otherwise.
func readLinkBlob(r gitRepo, roots []string, oid [20]byte) (string, bool) {
	objects, err := filepath.EvalSymlinks(filepath.Join(r.common, "objects"))
	if err != nil || !beneathResolved(objects, append([]string{r.top}, roots...)) {
		return "", false
	}
	return readLooseBlob(objects, oid)
}

// beneathResolved reports whether the resolved path p is or lies beneath
// one of bases, each as the file system resolves it.
func beneathResolved(p string, bases []string) bool {
	for _, b := range bases {
		rb, err := filepath.EvalSymlinks(b)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(rb, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}

// readLooseBlob returns the text of the blob oid stored as a loose object
// beneath objects (a resolved directory); ok is false when it is not one
// (packed, another type), its fan-out directory or file is a symlink,
// it cannot be read, or it is larger than maxLinkBlobBytes or holds a
// NUL.
func readLooseBlob(objects string, oid [20]byte) (string, bool) {
	h := hex.EncodeToString(oid[:])
	if fi, err := os.Lstat(filepath.Join(objects, h[:2])); err != nil || !fi.IsDir() {
		return "", false
	}
	fh, _, err := nowaitopen.OpenRegular(filepath.Join(objects, h[:2], h[2:]), syscall.O_NOFOLLOW)
	if err != nil {
		return "", false
	}
	defer fh.Close()
	return looseBlobText(fh)
}

// looseBlobText reads a loose object's bytes from r (zlib, "blob SIZE\0"
// and the text) as readLooseBlob reads them.
func looseBlobText(r io.Reader) (string, bool) {
	z, err := zlib.NewReader(io.LimitReader(r, 2*maxLinkBlobBytes+64))
	if err != nil {
		return "", false
	}
	data, err := io.ReadAll(io.LimitReader(z, maxLinkBlobBytes+32))
	if err != nil && len(data) == 0 {
		return "", false
	}
	head, body, ok := bytes.Cut(data, []byte{0})
	size, cut := strings.CutPrefix(string(head), "blob ")
	n, err := strconv.Atoi(size)
	if !ok || !cut || err != nil || n != len(body) || n > maxLinkBlobBytes || n == 0 || bytes.IndexByte(body, 0) >= 0 {
		return "", false
	}
	return string(body), true
}

// gitFormLinks returns the links the git form may put in place in each
// of dirs (gitMadeLinks).
func gitFormLinks(form []shellcmd.Word, dirs, roots []string) []madeLink {
	var out []madeLink
	for _, d := range dirs {
		out = append(out, gitMadeLinks(form, d, roots)...)
	}
	return out
}
