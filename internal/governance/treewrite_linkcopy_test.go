package governance

import "testing"

// TestDecideTreeLinkCopies checks that a recursive cp in a link mode (-l,
// -s, --link, --symbolic-link, or a prefix getopt_long takes for them) is
// decided as the tree copy it is: each link it puts beneath the
// destination replaces (with -f or --remove-destination) or makes the
// file there, and one landing on a protected file is refused; a link copy
// of a tree that puts nothing on a protected file runs.
// Its rows are in testdata/cases/tree_link_copies_lines.txt.
func TestDecideTreeLinkCopies(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	tests := lineDecisionCases(t, "tree_link_copies_lines.txt", map[string]string{"{{ROOT}}": root})
	checkLineDecisions(t, e, root, tests)
}
