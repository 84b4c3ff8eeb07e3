package governance

import "testing"

// TestModifiedOperandsRead: a program that changes the file an operand
// names (moves, compresses, edits in place, changes its mode) opens the
// file's content too, or gives it a name a rule does not cover: "mv .env
// x && cat x" reads .env under a policy that refuses reading .env and
// allows editing. Each such operand is decided as a read as well as a
// write; the destination mv writes into is only written.
func TestModifiedOperandsRead(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{".env", "a.txt"})
	p := testPolicy(t, "  default: allow\n  deny:\n    - Read(**/.env)\n  allow:\n    - Bash\n    - Read\n    - Edit\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, []namedLineCase{
		{"mv", "mv .env x", Deny},
		{"mv-then-read", "mv .env x && cat x", Deny},
		{"mv-into-dir", "mv .env sub/", Deny},
		{"mv-target-directory", "mv -t sub .env", Deny},
		{"mv-target-attached", "mv --target-directory=sub .env", Deny},
		{"mv-after-dashes", "mv -- .env x", Deny},
		{"gzip", "gzip .env", Deny},
		{"gzip-keep", "gzip -k .env", Deny},
		{"sed-in-place", "sed -i s/a/b/ .env", Deny},
		{"chmod", "chmod 644 .env", Deny},
		{"truncate", "truncate -s0 .env", Deny},
		{"mv-onto-secret-name", "mv a.txt .env", Allow},
		{"mv-other", "mv a.txt b.txt", Allow},
		{"gzip-other", "gzip a.txt", Allow},
		{"chmod-other", "chmod +x a.txt", Allow},
		{"sort-output", "sort -o .env a.txt", Allow},
	})
}
