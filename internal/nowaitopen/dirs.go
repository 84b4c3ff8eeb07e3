package nowaitopen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrLinkedDir says a directory above one of the bridge's own files,
// beneath its working directory, is a symbolic link.
var ErrLinkedDir = errors.New("a symbolic link in the working directory above one of the bridge's own files: give the directory's own path")

// LinkedDir returns an error naming the first directory above name that
// lies beneath the process's working directory and is a symbolic link
// (matching ErrLinkedDir), nil when there is none. The working directory
// is where the bridge starts its agent, the workspace: a link there (audit
// in --audit audit/audit-log.jsonl, the parent of --cache-dir) may have
// been planted by an agent of an earlier session or by a cloned
// repository, and would move the file, and what the bridge writes in it,
// wherever the link leads. Directories above the working directory, and
// paths elsewhere, are the person's own (a ~/.cache that is a link) and
// are followed. A directory not there yet is no link; the bridge creates
// it.
func LinkedDir(name string) error {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	rel, err := filepath.Rel(wd, filepath.Dir(filepath.Clean(abs)))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil
	}
	cur := wd
	for _, el := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		if err != nil {
			return nil
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is %w", cur, ErrLinkedDir)
		}
	}
	return nil
}
