package governance

import "testing"

// TestChecksumCheckOtherNames: a checksum program's -c/--check reads the
// files its list names and says whether each matches, an oracle of their
// content, under every name the program goes by: coreutils installed with
// a "g" prefix (Homebrew's on macOS, where Zed runs), BLAKE3's b3sum,
// xxHash's xxhsum family and rhash. Each needs approval, as sha256sum -c
// does; hashing a file named on the line is decided as reading it.
func TestChecksumCheckOtherNames(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt", "SUMS"})
	p := testPolicy(t, "  default: allow\n  allow:\n    - Read\n    - Edit(./**)\n    - Bash\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	var tests []namedLineCase
	for _, prog := range []string{"gmd5sum", "gsha1sum", "gsha224sum", "gsha256sum", "gsha384sum", "gsha512sum", "gb2sum", "gcksum",
		"b3sum", "xxhsum", "xxh32sum", "xxh64sum", "xxh128sum", "xxh3sum", "rhash"} {
		tests = append(tests, namedLineCase{prog + " -c", prog + " -c SUMS", RequireApproval},
			namedLineCase{prog + " --check", prog + " --check SUMS", RequireApproval},
			namedLineCase{prog + " of a file", prog + " a.txt", Allow})
	}
	tests = append(tests, namedLineCase{"sha256sum -c, as before", "sha256sum -c SUMS", RequireApproval})
	checkNamedLines(t, e, root, tests)
}
