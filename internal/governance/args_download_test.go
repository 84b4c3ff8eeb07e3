package governance

import (
	"testing"
)

// TestDownloadedNames decides the files wget and curl write under a name
// the line gives apart: the last segment of a URL (percent-decoded, as
// wget names it) in the directory wget -P or curl --output-dir names, and
// curl -o's name inside --output-dir. "wget -P .claude
// http://host/settings.json" writes .claude/settings.json, whose hooks
// Claude runs, though no word of the line names it. A name the server
// chooses (wget -r, -m, --content-disposition, --trust-server-names, -i;
// curl -J) may be any protected name (.envrc, .git/config) and needs
// approval.
func TestDownloadedNames(t *testing.T) {
	root := tempTree(t, []string{"src"}, []string{"a.txt"})
	e := NewEngine(testPolicy(t, "  allow: [Bash]\n"), EngineOptions{Roots: []string{root}})
	checkCommandLines(t, e, root, "downloaded_name_lines.txt", nil)
}
