package governance

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// The symlinks a git command a decided line runs may put in place, kept
// for later requests as the links ln makes are (links_made.go), where the
// bridge can read them without running git (whose configuration may run
// commands): a git mv of a symlink, or of a directory holding one, puts
// it at its new name, leading where it leads now; git checkout-index,
// checkout and restore of a path put each index entry of mode 120000
// beneath it in place as a link whose target is its blob's text, read
// from the repository's loose objects. An entry whose blob the bridge
// cannot read is kept as a link to a place known only when it runs.

// maxLinkBlobBytes bounds the text of a symlink's blob read (its target).
const maxLinkBlobBytes = 4096

// gitModeSymlink is an index entry's mode for a symlink.
const gitModeSymlink = 0o120000

// gitMadeLinks returns the links the git form (a whole command, "git ...")
// run in dir may put in place that the bridge can read.
func gitMadeLinks(form []shellcmd.Word, dir string) []madeLink {
	f, _, rdir, ok := gitRemover(form, dir)
	if !ok {
		return nil
	}
	switch f[0].Text {
	case "mv":
		return copiedFormLinks("mv", f, rdir)
	case "checkout-index", "checkout", "restore":
		return indexLinks(f, rdir)
	}
	return nil
}

// indexLinks returns the symlinks the index holds beneath the pathspecs
// of a checkout-index, checkout or restore form f (from the subcommand
// on) run in dir, each at its place in the work tree and leading where
// its blob's text says.
func indexLinks(f []shellcmd.Word, dir string) []madeLink {
	sub := f[0].Text
	o := shellcmd.ReadGitArgs(sub, f[1:])
	if o.Computed || sub == "checkout-index" && len(o.Values("prefix")) > 0 {
		return nil // the prefix's files are decided by checkoutIndexWrites
	}
	r, ok := findGitRepo(dir)
	if !ok || r.movesWorkTree() {
		return nil
	}
	entries, ok := readGitIndexEntries(filepath.Join(r.gitDir, "index"))
	if !ok {
		return nil
	}
	top, rel := checkoutIndexTop(dir)
	all := sub == "checkout-index" && o.Has("all")
	var specs []string
	for _, w := range o.Operands {
		t := w.Text
		if strings.ContainsAny(t, "*?[") || strings.HasPrefix(t, ":") {
			t = "." // a pattern git matches itself: every entry beneath
		}
		specs = append(specs, filepath.Clean(rel+"/"+t))
	}
	objects := filepath.Join(gitCommonDir(r.gitDir), "objects")
	var out []madeLink
	for _, en := range entries {
		if en.mode&0o170000 != gitModeSymlink || !(all && underSpec(en.path, filepath.Clean(rel)) || matchesSpec(en.path, specs)) {
			continue
		}
		name := filepath.Clean(top + "/" + en.path)
		text, ok := readLooseBlob(objects, en.oid)
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

// gitCommonDir returns the directory a git directory shares its objects
// from: the one its "commondir" file names, else itself.
func gitCommonDir(gitDir string) string {
	c, err := readRegular(filepath.Join(gitDir, "commondir"), maxConfigFileBytes)
	if err != nil {
		return gitDir
	}
	common := strings.TrimSpace(string(c))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	return common
}

// readLooseBlob returns the text of the blob oid stored as a loose object
// beneath objects; ok is false when it is not one (packed, another type),
// cannot be read, or is larger than maxLinkBlobBytes or holds a NUL.
func readLooseBlob(objects string, oid [20]byte) (string, bool) {
	h := hex.EncodeToString(oid[:])
	fh, _, err := openRegular(filepath.Join(objects, h[:2], h[2:]))
	if err != nil {
		return "", false
	}
	defer fh.Close()
	z, err := zlib.NewReader(io.LimitReader(fh, 2*maxLinkBlobBytes+64))
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
func gitFormLinks(form []shellcmd.Word, dirs []string) []madeLink {
	var out []madeLink
	for _, d := range dirs {
		out = append(out, gitMadeLinks(form, d)...)
	}
	return out
}
