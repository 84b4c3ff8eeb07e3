//go:build unix

package main

import "syscall"

// noFollow and nonBlock keep the bridge from opening its own files
// (--log-file, --record) through a symbolic link put at their path, which
// would have it create and extend whatever file the link leads to, or
// from waiting on a named pipe put there (see openOwnFile).
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)
