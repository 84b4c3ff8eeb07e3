//go:build !unix

package main

// noFollow is O_NOFOLLOW where the system has it.
const noFollow = 0
