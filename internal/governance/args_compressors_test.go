package governance

import (
	"path/filepath"
	"testing"
)

// TestCompressorsWriteOperands: gzip, bzip2 and xz (and their
// decompressors) replace each file they name by its compressed (or
// decompressed) form, removing it unless -k keeps it; unzip writes into
// the directory -d names. Each is a write of what it names, denied
// outside the workspace as "rm OUT/f" is, not a read that is asked about;
// -c (to standard output), -t and -l write nothing.
func TestCompressorsWriteOperands(t *testing.T) {
	root := tempTree(t, []string{"sub"}, []string{"a.txt", "a.zip"})
	emptyArchives(t, root) // real archives: the names extracted are decided
	out := tempTree(t, nil, []string{"victim.txt", "victim.txt.gz", "victim.txt.xz", "victim.txt.bz2"})
	v := filepath.Join(out, "victim.txt")
	p := testPolicy(t, "  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, []namedLineCase{
		{"gzip outside", "gzip " + v, Deny},
		{"gzip -9 outside", "gzip -9 " + v, Deny},
		{"gzip -S value", "gzip -S .z " + v, Deny},
		{"gunzip outside", "gunzip " + v + ".gz", Deny},
		{"bzip2 -k outside", "bzip2 -k " + v, Deny},
		{"bunzip2 outside", "bunzip2 " + v + ".bz2", Deny},
		{"xz -T value outside", "xz -T 2 " + v, Deny},
		{"unxz outside", "unxz " + v + ".xz", Deny},
		{"xz -d outside", "xz -d " + v + ".xz", Deny},
		{"unzip -d outside", "unzip -o a.zip -d " + out, Deny},
		{"unzip -d in the word", "unzip a.zip -d" + out, Deny},
		{"gzip -c reads only", "gzip -c " + v, RequireApproval},
		{"gzip --stdout reads only", "gzip --stdout " + v, RequireApproval},
		{"gzip -t reads only", "gzip -t " + v + ".gz", RequireApproval},
		{"xz -l reads only", "xz -l " + v + ".xz", RequireApproval},
		{"zcat reads only", "zcat " + v + ".gz", RequireApproval},
		{"gzip inside", "gzip -k a.txt", Allow},
		{"unzip -d inside", "unzip a.zip -d sub", Allow},
	})
}
