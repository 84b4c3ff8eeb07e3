package governance

import (
	"path/filepath"
	"strings"
)

// recheckRoot looks the workspace root form r up again for resolvedRoot,
// as refreshRoot does, with one lookup where that says enough: a clean
// absolute directory that the kernel reaches through no symlink at all
// (plainDir) resolves to itself, which is what resolveDir's walk, one
// lstat per element, finds of it. Anything else (a link on the way, a
// missing element, a per-process location under /proc or /dev, a system
// without the lookup) is walked by refreshRoot.
func recheckRoot(r string) {
	if !plainRoot(r) {
		refreshRoot(r)
		return
	}
	if v, ok := resolvedRoots.Load(r); !ok || v.(string) != r {
		resolvedRoots.Store(r, r)
	}
}

// plainRoot reports whether r is a clean absolute directory reached
// through no symlink, outside /proc and /dev (where isMagicPath refuses
// what the walk meets).
func plainRoot(r string) bool {
	return strings.HasPrefix(r, "/") && r == filepath.Clean(r) &&
		!strings.HasPrefix(r, "/proc") && !strings.HasPrefix(r, "/dev") && plainDir(r)
}
