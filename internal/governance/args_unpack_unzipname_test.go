package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnzipArchiveNames decides the archives unzip reads for a name that
// is not a zip it opens: the name with .zip or .ZIP added ("unzip -o
// z/evil" reads z/evil.zip) and, for a name holding a wildcard, which
// unzip matches itself when the shell leaves it, every file of its
// directory the wildcard matches.
func TestUnzipArchiveNames(t *testing.T) {
	root := tempTree(t, []string{"z", "w", "n", "n/dir", "many"}, []string{"w/ok.txt"})
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("z/evil.zip", zipBytes(t, "GOVERNANCE.md", nil))
	write("z/up.ZIP", zipBytes(t, ".claude/settings.json", nil))
	write("n/dir.zip", zipBytes(t, "GOVERNANCE.md", nil))
	write("n/notzip", []byte("not a zip"))
	write("n/notzip.zip", zipBytes(t, "GOVERNANCE.md", nil))
	write("ok.zip", zipBytes(t, "w/fine.txt", nil))
	for i := 0; i < 70; i++ { // more than maxUnzipMatches
		write(filepath.Join("many", string(rune('a'+i%26))+string(rune('a'+i/26))+".zip"), zipBytes(t, "w/fine.txt", nil))
	}

	e := rootPolicyEngine(t, root, "  allow: [Bash(unzip:*)]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"unzip -o z/evil", Deny},
		{"unzip z/evil -d .", Deny},
		{"unzip -qo z/up", Deny},
		{"unzip n/dir", Deny},
		{`unzip -o "z/ev*"`, Deny},
		{"unzip -o 'z/e?il.zip'", Deny},
		{"unzip 'z/*'", Deny},
		{"unzip 'z/[e]vil.zip'", Deny},
		{"unzip 'z/[!x]vil.zip'", Deny},
		{"unzip n/notzip", Deny},
		{"unzip 'many/*.zip'", Deny},
		{"unzip -o z/missing", Allow},
		{"unzip ok", Allow},
		{"unzip ok.zip", Allow},
		{"unzip '*.zip'", Allow},
		{"unzip 'w/*.zip'", Allow},
		{"unzip 'many/a?.zip'", Allow},
		{"unzip 'z/e?il'", Allow},      // no match: unzip tries z/e?il.zip as it is
		{`unzip 'z/\evil.zip'`, Allow}, // no wildcard: the name as it is
		{"unzip 'z/u?'", Allow},        // up.ZIP does not match
		{"unzip -l z/evil", Allow},
		{"unzip -l 'z/*'", Allow},
	})
}
