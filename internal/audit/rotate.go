package audit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Rotation: with Options.MaxBytes set, the active file moves to the next
// numbered name (<path>.000001, .000002, ...) and a new file continues the
// chain. This file holds the move and the one listing of rotated files
// that Open, the OTLP exporter and audit serve share.

// rotateLocked moves the full active file (with everything buffered) to
// the next numbered name and starts a new one.
func (l *Log) rotateLocked() error {
	if err := l.writeLocked(); err != nil {
		return err
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("syncing audit log before rotation: %w", err)
	}
	l.f.Close()
	l.f = nil
	l.gen++
	name := rotatedName(l.path, l.rotated+1)
	if err := os.Rename(l.path, name); err != nil {
		return fmt.Errorf("rotating audit log: %w", err)
	}
	l.rotated++
	l.size = 0
	l.fi = nil
	l.unchecked = l.unchecked[:0]
	f, err := l.opts.openFile(l.path)
	if err != nil {
		return fmt.Errorf("opening audit log after rotation: %w", err)
	}
	l.setFileLocked(f)
	syncDir(l.path)
	return nil
}

// rotatedName is the name of the n-th rotated file of path.
func rotatedName(path string, n int) string { return RotatedName(path, n) }

// RotatedName is the name of the n-th rotated file of the log at path
// (<path>.000001 for the first).
func RotatedName(path string, n int) string {
	return fmt.Sprintf("%s.%06d", path, n)
}

type rotatedFile struct {
	name    string
	n       int
	regular bool
}

// rotatedFiles lists the rotated files of path, oldest first.
func rotatedFiles(path string) ([]rotatedFile, error) {
	out, err := scanRotated(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("opening audit log: %w", err)
	}
	return out, err
}

// RotatedNumbers returns the rotation numbers of path's rotated files
// (<path>.000001, <path>.000002, ...), oldest first: none when path's
// directory does not exist.
func RotatedNumbers(path string) ([]int, error) {
	files, err := scanRotated(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	ns := make([]int, len(files))
	for i, f := range files {
		ns[i] = f.n
	}
	return ns, err
}

// ClosedFiles returns the files of the log at path that it no longer
// writes: its rotated files, oldest first, then the files it moved aside
// on finding the live file tampered with (<path>.tampered-<time>), oldest
// first. Only regular files count; none when path's directory does not
// exist.
func ClosedFiles(path string) ([]string, error) {
	rotated, aside, err := scanDir(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	out := make([]string, 0, len(rotated)+len(aside))
	for _, f := range rotated {
		if f.regular {
			out = append(out, f.name)
		}
	}
	return append(out, aside...), err
}

// scanRotated lists the rotated files of path, oldest first; its error
// wraps os.ErrNotExist when path's directory does not exist.
func scanRotated(path string) ([]rotatedFile, error) {
	rotated, _, err := scanDir(path)
	return rotated, err
}

// tamperedInfix separates a log's path from the time in the name of a file
// it moved aside after tampering (watch.go).
const tamperedInfix = ".tampered-"

// scanDir lists, in one reading of path's directory, the rotated files of
// path (numerically) and the regular files moved aside after tampering (by
// name, which orders their times); its error wraps os.ErrNotExist when the
// directory does not exist.
func scanDir(path string) (rotated []rotatedFile, aside []string, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("listing rotated audit logs: %w", err)
	}
	for _, e := range entries {
		suffix, ok := strings.CutPrefix(e.Name(), base+".")
		if !ok {
			continue
		}
		if strings.HasPrefix("."+suffix, tamperedInfix) {
			if e.Type().IsRegular() {
				aside = append(aside, filepath.Join(dir, e.Name()))
			}
			continue
		}
		if len(suffix) < 6 {
			continue
		}
		n, err := strconv.Atoi(suffix)
		if err != nil || n <= 0 {
			continue
		}
		rotated = append(rotated, rotatedFile{filepath.Join(dir, e.Name()), n, e.Type().IsRegular()})
	}
	slices.SortFunc(rotated, func(a, b rotatedFile) int { return a.n - b.n })
	return rotated, aside, nil
}
