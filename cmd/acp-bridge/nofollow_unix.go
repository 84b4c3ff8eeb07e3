//go:build unix

package main

import "syscall"

// noFollow keeps the bridge from opening its own files (--log-file,
// --record) through a symbolic link put at their path, which would have
// it create and extend whatever file the link leads to.
const noFollow = syscall.O_NOFOLLOW
