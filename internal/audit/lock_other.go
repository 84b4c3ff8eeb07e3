//go:build !unix

package audit

import "os"

// lockFile is a no-op where flock is not available: nothing stops two
// processes from extending the same chain there.
func lockFile(name string) (*os.File, error) { return nil, nil }
