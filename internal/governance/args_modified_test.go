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
	checkPolicyLines(t, root, "modified_operand_lines.txt", nil,
		"  default: allow\n  deny:\n    - Read(**/.env)\n  allow:\n    - Bash\n    - Read\n    - Edit\n")
}
