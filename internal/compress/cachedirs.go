package compress

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ownDirs makes each of dirs with mode 0700 where missing, the first with
// its parents, each one inside the one before, and checks, before making
// the next, that none is a symbolic link (ownDir): the cache directory and
// the directories the store names inside it (offloaded/, conversations/)
// are the bridge's own, and a link planted at one before the bridge
// started (a workspace's cache/offloaded leading to ~/.config, say) would
// have the bridge write what the agent sent wherever it leads.
func ownDirs(dirs ...string) error {
	for i, d := range dirs {
		mk := os.Mkdir
		if i == 0 {
			mk = os.MkdirAll
		}
		if err := mk(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if err := ownDir(d); err != nil {
			return err
		}
	}
	return nil
}

// ownDir returns an error unless d is a directory, and not a symbolic
// link to one.
func ownDir(d string) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link: the bridge keeps its cache only in directories of its own", d)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", d)
	}
	return nil
}
