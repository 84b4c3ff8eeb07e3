package governance

import (
	"fmt"
	"testing"
)

// TestGlobNamesAsTheShellReads decides command lines whose glob words the
// shell expands in another place than the pattern's text cleaned says, or
// to more names than the bridge expands: a pattern through a link and
// "..", which the kernel resolves in the directory the link leads to
// (bash's "cat l/../keys/id_*" reads keys/id_rsa beside the link's
// target, not beside the link), and a directory of more names than
// maxGlobMatches whose last is a link out of the workspace. Each is
// decided on the names the shell reaches, or refused as too many to
// check, never allowed on part of them.
func TestGlobNamesAsTheShellReads(t *testing.T) {
	outside := tempTree(t, nil, []string{"keys/id_rsa", "keys/notes.txt", "plain.txt"})
	files := []string{"sub/a.txt"}
	for i := range maxGlobMatches + 10 {
		files = append(files, fmt.Sprintf("crowd/f%04d", i))
	}
	root := t.TempDir()
	tree{files: files, links: map[string]string{"l": outside + "/keys", "crowd/zzz": outside + "/plain.txt"}}.make(t, root)
	e := NewEngine(testPolicy(t, "  allow: [Bash(cat:*), Bash(grep:*)]\n  deny: [Read(**/id_rsa*)]\n"), EngineOptions{Roots: []string{root}})
	checkCommandLines(t, e, root, "glob_names_lines.txt", nil)
}
