//go:build !linux

package governance

import "io/fs"

// onProcfs reports whether dir is on a procfs mount. Outside Linux the
// per-process locations are known by name only (isMagicPath).
func onProcfs(dir string) bool { return false }

// hasLinks reports whether the file fi describes has more than one name;
// outside Linux it is not known, and hard links are not compared.
func hasLinks(fi fs.FileInfo) bool { return false }

// plainDir reports whether dir is a directory reached through no symlink
// in one lookup; outside Linux there is none, and it reports false.
func plainDir(dir string) bool { return false }
