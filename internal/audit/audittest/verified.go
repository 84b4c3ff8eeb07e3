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
	verify(tb, path)
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// VerifiedEntries is Verified returning the log's entries
// (audit.ReadEntries).
func VerifiedEntries(tb testing.TB, path string) []audit.Entry {
	tb.Helper()
	verify(tb, path)
	entries, err := audit.ReadEntries(path)
	if err != nil {
		tb.Fatal(err)
	}
	return entries
}

// verify fails tb unless the audit log at path verifies.
func verify(tb testing.TB, path string) {
	tb.Helper()
	if _, err := audit.Verify(path); err != nil {
		tb.Fatalf("the audit log does not verify: %v", err)
	}
}
