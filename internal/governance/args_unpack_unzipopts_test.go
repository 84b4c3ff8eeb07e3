package governance

import (
	"path/filepath"
	"testing"
)

// TestUnzipOptions decides unzip lines whose directory comes in a cluster
// or after the archive, read as UnZip 6.00 reads them: src/a.zip holds a.key
// and b, so extracting into secrets writes secrets/a.key, which the
// policy denies editing.
func TestUnzipOptions(t *testing.T) {
	root := tempTree(t, []string{"src", "secrets", "out"}, nil)
	writeZip(t, filepath.Join(root, "src", "a.zip"), "x", "a.key", "b")
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Edit(./secrets/*.key)]\n  allow: [Bash(unzip:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"unzip -oqd secrets src/a.zip", Deny},
		{"unzip --t -o -d secrets src/a.zip", Deny},
		{"unzip -o --l -d secrets src/a.zip", Deny},
		{"unzip -o -q-t -d secrets src/a.zip", Deny},
		{"unzip -oq --z -d secrets src/a.zip", Deny},
		{"unzip -t -d secrets src/a.zip", Allow},
		{"unzip -qod secrets src/a.zip", Deny},
		{"unzip -qodsecrets src/a.zip", Deny},
		{"unzip -odsecrets src/a.zip", Deny},
		{"unzip -ojd secrets src/a.zip", Deny},
		{"unzip -o -q -d secrets src/a.zip", Deny},
		{"unzip -dsecrets src/a.zip", Deny},
		{"unzip -qo src/a.zip -x b -d secrets", Deny},
		{"unzip -qo src/a.zip -x b -dsecrets", Deny},
		{"unzip -o src/a.zip -x -d secrets", Deny},
		{"unzip -o src/a.zip a.key -d secrets", Deny},
		{"unzip -o src/a.zip -- -d secrets", Deny},
		{"unzip -o -- src/a.zip -d secrets", Deny},
		{"unzip -o src/a.zip -d secrets -x b", Deny},
		{"unzip -oPpw -d secrets src/a.zip", Deny},
		{"unzip -oP pw -d secrets src/a.zip", Deny},
		{"unzip -o src/a.zip -x b -qd secrets", Deny},
		{"unzip -od out src/a.zip -d secrets", RequireApproval},
		{"unzip -oPd secrets src/a.zip", Allow}, // d is the password; secrets the archive, missing
		{"unzip src/a.zip", Allow},
		{"unzip -l src/a.zip", Allow},
		{"unzip -d out src/a.zip", Allow},
		{"unzip -o src/a.zip -d out", Allow},
		{"unzip -oqd out src/a.zip", Allow},
		{"unzip -q src/a.zip -x b -d out", Allow},
		{"unzip -lv src/a.zip", Allow},
		{"unzip -p src/a.zip a.key", Allow},
	})
}
