//go:build !linux

package compress

import (
	"errors"
	"os"
)

// setDirectIO is not implemented here: the spool writes through the page
// cache.
func setDirectIO(*os.File, bool) error { return errors.ErrUnsupported }
