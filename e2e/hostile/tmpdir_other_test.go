//go:build !linux

package hostile

// runsTmpDir leaves TMPDIR alone: only on Linux does the suite look for a
// tmpfs (see tmpdir_linux_test.go).
func runsTmpDir() string { return "" }
