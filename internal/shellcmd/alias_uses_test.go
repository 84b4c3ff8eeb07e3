package shellcmd

import "testing"

// TestAliasUsesExpanded: a command word naming an alias the line defined
// is read as the shell expands it, the alias's text and the words after
// it together (dash runs rm x for each line that says so); an alias whose
// text names itself is expanded once. Its rows are in
// testdata/cases/alias_use_lines.txt.
func TestAliasUsesExpanded(t *testing.T) {
	for _, r := range caseRows(t, "alias_use_lines.txt", 2) {
		checkRunsRm(t, r.Fields[0], caseBool(t, r, 1))
	}
}
