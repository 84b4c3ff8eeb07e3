//go:build unix

package auditweb

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/acp-bridge/acp-bridge/internal/nowaitopen"
)

// openRegular opens name for reading only if it is a regular file: not a
// symlink (O_NOFOLLOW), and not a FIFO or device, which O_NONBLOCK keeps
// from blocking the open and which are then refused.
func openRegular(name string) (*os.File, os.FileInfo, error) {
	f, fi, err := nowaitopen.OpenRegular(name, syscall.O_NOFOLLOW)
	if errors.Is(err, nowaitopen.ErrNotRegular) {
		return nil, nil, fmt.Errorf("%s is not a regular file", name)
	}
	return f, fi, err
}
