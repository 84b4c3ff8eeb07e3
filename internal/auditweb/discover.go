package auditweb

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// rotatedSuffix matches the suffix a rotated audit file gets
// (audit.jsonl.000001).
var rotatedSuffix = regexp.MustCompile(`\.[0-9]{6}$`)

// baseOf is the active path of the log a file belongs to.
func baseOf(path string) string {
	if loc := rotatedSuffix.FindStringIndex(path); loc != nil {
		return path[:loc[0]]
	}
	return path
}

// discover turns the paths given on the command line into logs: a file
// stands for its log (the active file and its rotations, whichever was
// named), a directory for every audit log in it. Files in a directory
// whose first line is not an audit event (a wire trace, a lock file) are
// left out; a named file that is not an audit log is an error.
func discover(paths []string) ([]string, error) {
	var bases []string
	seen := make(map[string]bool)
	add := func(base string) {
		if !seen[base] {
			seen[base] = true
			bases = append(bases, base)
		}
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("audit serve: %v", err)
		}
		if !fi.IsDir() {
			// A name given may be a symlink the user made; what it
			// points to is the log.
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return nil, fmt.Errorf("audit serve: %v", err)
			}
			if err := isAuditLog(real); err != nil {
				return nil, fmt.Errorf("audit serve: %s: %v", p, err)
			}
			add(filepath.Clean(baseOf(real)))
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("audit serve: %v", err)
		}
		found := false
		for _, ent := range ents {
			if !ent.Type().IsRegular() {
				continue
			}
			f := filepath.Join(p, ent.Name())
			if info, err := ent.Info(); err != nil || info.Size() == 0 && !strings.HasSuffix(ent.Name(), ".jsonl") {
				continue // an empty lock file is not a log
			}
			if isAuditLog(f) != nil {
				continue
			}
			add(filepath.Clean(baseOf(f)))
			found = true
		}
		if !found {
			return nil, fmt.Errorf("audit serve: %s: no audit log in this directory", p)
		}
	}
	return bases, nil
}

// isAuditLog reports why path is not an audit log (nil when its first
// line is an audit event, or it is empty).
func isAuditLog(path string) error {
	f, _, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return audit.SniffLog(f)
}

// chainFiles lists the files of the log whose active path is base: its
// rotations in numbered order, then the active file when it exists.
func chainFiles(base string) ([]string, error) {
	ns, err := audit.RotatedNumbers(base)
	if err != nil {
		return nil, err
	}
	matches := make([]string, 0, len(ns)+1)
	for _, n := range ns {
		matches = append(matches, audit.RotatedName(base, n))
	}
	matches = append(matches, base)
	// Only regular files: a symlink or a FIFO planted as a rotated
	// file is not part of the log (refresh opens them with openRegular
	// too, against a swap after this check).
	return slices.DeleteFunc(matches, func(p string) bool {
		fi, err := os.Lstat(p)
		return err != nil || !fi.Mode().IsRegular()
	}), nil
}
