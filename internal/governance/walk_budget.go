package governance

import (
	"io/fs"
	"path/filepath"
)

// walkBudget walks root as filepath.WalkDir does, calling fn for each
// entry, and takes one from *left for each entry it reads, across the
// walks of one decision that share it: past zero it stops and reports
// false, as the bridge cannot tell what the rest of the tree holds.
func walkBudget(root string, left *int, fn fs.WalkDirFunc) bool {
	within := true
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if *left--; *left < 0 {
			within = false
			return filepath.SkipAll
		}
		return fn(p, d, err)
	})
	return within
}
