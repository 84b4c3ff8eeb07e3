package governance

import "testing"

// TestBracketClassesExpanded: a bracket expression whose class holds "."
// (POSIX classes, ranges across "/") is expanded over the directory it
// names, as the shell expands it: the class rewritten for path.Match must
// not hold the "/" that splits a pattern into its elements, or
// "secrets/a[[:punct:]]key" would be split inside its brackets and match
// nothing, and the policy's rules would meet no file.
func TestBracketClassesExpanded(t *testing.T) {
	root := tempTree(t, []string{"secrets", "src"}, []string{"secrets/a.key", "src/a.txt", ".env"})
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: ['Edit(./secrets/*.key)', 'Read(**/.env)']\n")
	var rows []commandRow
	for _, class := range []string{"[[:punct:]]", "[[:graph:]]", "[[:print:]]", "[!-0]", "[--0]", "[[:punct:][:alpha:]]", "[!a-z]", "[^[:alnum:]]"} {
		rows = append(rows,
			commandRow{"cp src/a.txt secrets/a" + class + "key", Deny},
			commandRow{"cat " + class + "env", Deny},
			commandRow{"sed -i s/x/y/ secrets/a" + class + "key", Deny})
	}
	rows = append(rows, commandRow{"cp src/a.txt secrets/a[[:alpha:]]key", Allow}, commandRow{"cat [[:alpha:]]env", Allow})
	checkCommandRows(t, e, root, rows)
}
