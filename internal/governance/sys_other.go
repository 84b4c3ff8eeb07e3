//go:build !linux

package governance

import (
	"errors"
	"io/fs"
	"os"
)

// onProcfs reports whether dir is on a procfs mount. Outside Linux the
// per-process locations are known by name only (isMagicPath).
func onProcfs(dir string) bool { return false }

// hasLinks reports whether the file fi describes has more than one name;
// outside Linux it is not known, and hard links are not compared.
func hasLinks(fi fs.FileInfo) bool { return false }

// fileKey names a file by its identity when it has several names;
// outside Linux hard links are not compared, and it is "".
func fileKey(fi fs.FileInfo) string { return "" }

// lookupPlain looks p up following no symlink in one call; outside Linux
// there is no such call, and it reports errors.ErrUnsupported.
func lookupPlain(p string, dir bool) error { return errors.ErrUnsupported }

// statError returns the error os.Stat(p) returns.
func statError(p string) error {
	_, err := os.Stat(p)
	return err
}
