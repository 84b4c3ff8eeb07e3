//go:build !unix

package main

// noFollow and nonBlock are O_NOFOLLOW and O_NONBLOCK where the system
// has them.
const (
	noFollow = 0
	nonBlock = 0
)
