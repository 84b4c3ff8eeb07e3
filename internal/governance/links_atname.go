package governance

import (
	"path/filepath"
	"strings"
)

// A line that makes a link or copies into a directory that exists puts it
// beneath the directory, unless the directory is gone by the time the line
// runs: terminals run side by side, and many programs may remove a
// directory first (rm, rmdir, mv, find -delete, git clean, rsync --delete,
// trash, a script), so the link is kept at the directory's name as well
// (madeLink). Not where the destination as written can name nothing but a
// directory that is there: "." or "..", a name ending in "/" (ln and cp
// refuse it once the directory is gone), or the directory the line runs
// in or one above it, which the line cannot replace with a link.

// mayTakeDirName reports whether a link or copy the line run in dir makes
// with the destination dest (as written), a directory now, may be made at
// that name instead, should the directory be removed first.
func mayTakeDirName(dest, dir string) bool {
	if dest == "." || dest == ".." || strings.HasSuffix(dest, "/") || strings.HasSuffix(dest, "/.") || strings.HasSuffix(dest, "/..") {
		return false
	}
	d := dest
	if !filepath.IsAbs(d) {
		d = filepath.Join(dir, d)
	}
	_, holdsCwd := cutDir(filepath.Clean(d), filepath.Clean(dir))
	return !holdsCwd
}
