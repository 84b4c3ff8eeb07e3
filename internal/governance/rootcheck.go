package governance

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// A path with no symlink on it resolves to itself. The kernel tells that
// in one lookup (lookupPlain), where resolving a path element by element
// costs an lstat each. Both shortcuts below answer exactly what the walk
// would, and only where the lookup leaves no doubt; anything else (a link
// on the way, a path that is not clean, a per-process place under /proc
// or /dev, a system without the lookup) is walked.

// plainCandidate reports whether p is a clean absolute path other than
// "/" outside /proc and /dev (where isMagicPath refuses what the walk
// meets): one whose plain lookup can stand for the walk.
func plainCandidate(p string) bool {
	return len(p) > 1 && cleanAbsolute(p) && !strings.HasPrefix(p, "/proc") && !strings.HasPrefix(p, "/dev")
}

// cleanAbsolute reports whether p is absolute and filepath.Clean leaves
// it as it is: no empty, "." or ".." element, and no "/" at the end
// unless p is "/".
func cleanAbsolute(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if p == "/" {
		return true
	}
	// strings.IndexByte, not strings.Cut: Cut's separator is a string,
	// searched for through the general Index, twice as slow on a path.
	for rest := p[1:]; ; {
		i := strings.IndexByte(rest, '/')
		e := rest
		if i >= 0 {
			e = rest[:i]
		}
		if e == "" || e == "." || e == ".." {
			return false
		}
		if i < 0 {
			return true
		}
		rest = rest[i+1:]
	}
}

// rootIsPlain reports whether the workspace root form r resolves to
// itself now (has no link in it), so that a walk may start below it
// without looking at its elements: looked up afresh for every walk that
// would start there, since a root the agent can reach (one inside
// another, or below a directory it may write) may be a directory at one
// decision and a link out of the workspace at the next.
func rootIsPlain(r string) bool {
	if plainCandidate(r) && lookupPlain(r, true) == nil {
		return true
	}
	return resolveDir(r) == r
}

// resolvePlain is resolveLooked's answer for raw when the kernel finds no
// symlink on it: raw itself, with the file's lstat when it exists, or
// missing when an element of it does not (nothing beneath a missing
// element can be a link). ok is false when it cannot tell: then raw is
// walked. raw equal to the first root is that root, as the walk answers
// it (saying nothing of the file); raw equal to a later one, which an
// earlier root may hold, is left to the walk.
func resolvePlain(raw string, roots []string) (res string, last lookup, ok bool) {
	if !plainCandidate(raw) {
		return "", lookup{}, false
	}
	root := false
	for i, r := range roots {
		if raw == r && i > 0 {
			return "", lookup{}, false
		}
		root = root || raw == r
	}
	switch err := lookupPlain(raw, false); {
	case root && (err == nil || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR)):
		// The walk starts at a root with no link in it, or one that is
		// missing (resolveDir finds it as written), and ends there.
		return raw, lookup{}, true
	case err == nil:
		fi, err := os.Lstat(raw)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return "", lookup{}, false // changed since: walk it
		}
		return raw, lookup{fi: fi}, true
	case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR):
		return raw, lookup{missing: true}, true
	}
	return "", lookup{}, false
}
