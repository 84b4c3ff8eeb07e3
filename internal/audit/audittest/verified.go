package audittest

import (
	"os"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/audit"
)

// Verified checks that the audit log at path verifies (audit.Verify: its
// chain is whole) and returns its bytes, for a test that then looks for
// the records it expects.
func Verified(tb testing.TB, path string) []byte {
	tb.Helper()
	return verified(tb, path, os.ReadFile)
}

// VerifiedEntries is Verified returning the log's entries
// (audit.ReadEntries).
func VerifiedEntries(tb testing.TB, path string) []audit.Entry {
	tb.Helper()
	return verified(tb, path, func(p string) ([]audit.Entry, error) { return audit.ReadEntries(p) })
}

// verified fails tb unless the audit log at path verifies, then returns
// what read makes of it.
func verified[T any](tb testing.TB, path string, read func(string) (T, error)) T {
	tb.Helper()
	if _, err := audit.Verify(path); err != nil {
		tb.Fatalf("the audit log does not verify: %v", err)
	}
	v, err := read(path)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}
