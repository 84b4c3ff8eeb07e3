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
	checkCommandRows(t, e, root, []commandRow{
		{"wget -P .claude http://h/settings.json", Deny},
		{"wget -P.claude http://h/settings.json", Deny},
		{"wget --directory-prefix=.claude http://h/settings.json", Deny},
		{"wget --directory-p .claude http://h/settings.json?x=1", Deny},
		{"wget http://h/%2Eenvrc", Deny},
		{"wget -q -P sub/.zed http://h/settings.json", Deny},
		{"curl --output-dir .claude -O http://h/settings.json", Deny},
		{"curl --output-dir=.claude -sSLO http://h/settings.json", Deny},
		{"curl --output-dir .claude -o settings.json http://h/x", Deny},
		{"curl --output-dir .git -o config http://h/x", Deny},
		{"curl --remote-name-all --output-dir .claude http://h/settings.json", Deny},
		{"wget -r http://h/", RequireApproval},
		{"wget --mirror http://h/", RequireApproval},
		{"wget --content-disposition http://h/x", RequireApproval},
		{"curl -OJ http://h/x", RequireApproval},
		{"curl -O --remote-header-name http://h/x", RequireApproval},
		{`curl "http://h/{settings.json}" -o ".claude/#1"`, RequireApproval},
		{`curl --output-dir .claude -O "http://h/{settings.json,x}"`, RequireApproval},
		{`curl -g -O "http://h/[x].tgz"`, Allow},
		{"aria2c -d .claude -o settings.json http://h/x", Deny},
		{"aria2c --dir=.zed --out=settings.json http://h/x", Deny},
		{"aria2c http://h/x", RequireApproval},
		{"aria2c -o src/x.tgz http://h/x", Allow},
		{"wget http://h/pkg.tar.gz", Allow},
		{"wget -P src http://h/pkg.tar.gz", Allow},
		{"curl -sSLO http://h/pkg.tar.gz", Allow},
		{"curl -fsSL http://h/x -o src/x.json", Allow},
		{"curl http://h/settings.json", Allow},
	})
}
