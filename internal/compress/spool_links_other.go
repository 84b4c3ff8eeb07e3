//go:build !unix

package compress

import "os"

// noFollow is O_NOFOLLOW where the system has it.
const noFollow = 0

// linkedElsewhere reports whether the file st describes has more than one
// name: never known here, and the spool links no archive (os.Link fails
// or is not used), so false.
func linkedElsewhere(os.FileInfo) bool { return false }

// nonBlock is O_NONBLOCK where the system has it.
const nonBlock = 0
