package governance

import "testing"

// TestProtectedRecursiveCompress: gzip -r (and gunzip, zstd, unzstd)
// replaces every file beneath a directory by its compressed form, so
// "gzip -r ." turns the audit log and the policy into .gz files: a
// recursive change of a directory holding a protected location, denied
// as "chmod -R 000 ." is.
func TestProtectedRecursiveCompress(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	checkNamedLines(t, e, root, []namedLineCase{
		{"gzip -r the root", "gzip -r .", Deny},
		{"gzip --recursive the audit directory", "gzip --recursive audit", Deny},
		{"gzip -r in a cluster", "gzip -9r .", Deny},
		{"gunzip -r", "gunzip -r .", Deny},
		{"zstd -r --rm", "zstd -r --rm .", Deny},
		{"chmod -R, as before", "chmod -R 000 .", Deny},
		{"gzip -r of a directory holding none", "gzip -r src/none", Allow},
	})
}
