//go:build unix

package audit

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// lockFile takes an exclusive advisory lock on name (created 0600), so that
// two processes never extend the same chain. The kernel releases it when
// the process dies. A symbolic link put at name is not followed: the
// bridge would create the file it leads to; a file with another name (a
// hard link) is refused as the log would be.
func lockFile(name string) (*os.File, error) {
	f, err := nowaitopen.SoleFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the audit log's lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (lock file %s)", ErrInUse, name)
		}
		return nil, fmt.Errorf("locking the audit log: %w", err)
	}
	return f, nil
}
