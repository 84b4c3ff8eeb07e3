package governance

import "testing"

// TestSegmentReads: the parts of a word of a program the bridge does not
// know ("if=F", "OPEN:F", "x,F") are read as files the way a whole word
// is, so a rule refusing to read one refuses the command, and a part that
// names no file, a URL's path, or a file outside the roots runs as before.
func TestSegmentReads(t *testing.T) {
	root := tempTree(t, []string{"secrets", "drafts", "sub"}, []string{".env", "sub/.env", "secrets/a.key", "drafts/d.txt", "a.txt"})
	out := tempTree(t, nil, []string{"victim.txt"})
	checkPolicyLines(t, root, "segment_reads_lines.txt", map[string]string{"$OUT": out},
		"  default: allow\n  deny:\n    - Read(**/.env)\n    - Edit(./secrets/*.key)\n  ask:\n    - Read(./drafts/**)\n")
}
