package governance

import "github.com/acp-bridge/acp-bridge/internal/shellcmd"

// Not every git command that puts work-tree entries in place may put a
// symlink there: "git checkout -b NAME" and "git switch -c NAME" with no
// start point leave the work tree as HEAD has it. A checkout or restore
// from the index is not among them, whatever the index holds now: a
// terminal the IDE has not run yet may put a symlink entry there first.

// gitStartsBranchAtHead reports whether a checkout or switch (sub, its
// words read as o) only makes a branch at HEAD (-b, switch -c) and
// moves to it: a branch option with no start point, and no option that
// rewrites the work tree's changed files (--force, --merge, --conflict,
// --discard-changes, --pathspec-from-file).
func gitStartsBranchAtHead(sub string, o shellcmd.GitArgs) bool {
	// -B, -C and --orphan merge the work tree as a checkout of the
	// start point does (and, under a sparse checkout, put back what its
	// patterns name): only -b and -c leave it alone.
	creates := []string{"b"}
	if sub == "switch" {
		creates = []string{"create"}
	}
	made := false
	for _, c := range creates {
		made = made || len(o.Values(c)) > 0
	}
	if !made || len(o.Operands) > 0 {
		return false
	}
	for _, x := range []string{"force", "merge", "conflict", "discard-changes", "pathspec-from-file", "patch"} {
		if o.Has(x) {
			return false
		}
	}
	return true
}
