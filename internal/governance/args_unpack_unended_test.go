package governance

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestUnendedArchiveMembersUnknown: an archive that ends before its end
// marker (an empty file, or a tar cut after a member, as a file still
// being written is) has members that are not known, so extracting it into
// the directory holding the policy is refused, however it is compressed
// and whichever program extracts it; the same archive with its end marker
// is decided by its members as before.
func TestUnendedArchiveMembersUnknown(t *testing.T) {
	rules := "  default: ask\n  allow:\n    - Edit(./**)\n    - Bash(tar:*)\n    - Bash(python3:*)\n"
	whole := tarBytes(t, "", "sub/a.txt")
	cut := bytes.TrimRight(whole, "\x00")
	cut = cut[:len(cut)+(512-len(cut)%512)%512] // the member's data block, padded
	if len(cut) >= len(whole) || len(cut)%512 != 0 {
		t.Fatalf("cutting the end marker: %d of %d bytes", len(cut), len(whole))
	}
	files := map[string][]byte{
		"empty.tgz": nil,
		"cut.tar":   cut,
		"cut.tgz":   gzipBytes(t, cut),
		"whole.tar": whole,
		"whole.tgz": gzipBytes(t, whole),
	}
	root := tempTree(t, []string{"sub"}, nil)
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := rootPolicyEngine(t, root, rules)
	checkCommandRows(t, e, root, []commandRow{
		{"tar -xzf empty.tgz", Deny},
		{"tar -xf cut.tar", Deny},
		{"tar -xzf cut.tgz", Deny},
		{"python3 -m tarfile -e cut.tgz", Deny},
		{"python3 -m tarfile -e empty.tgz", Deny},
		{"tar -xf whole.tar", Allow},
		{"tar -xzf whole.tgz", Allow},
		{"python3 -m tarfile -e whole.tgz", Allow},
		// Elsewhere the unknown members are asked about, as before.
		{"tar -xf cut.tar -C sub", RequireApproval},
	})
}
