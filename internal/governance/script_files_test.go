package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScriptNamedFiles decides sed and awk lines whose script opens a file
// it names (sed's r, R, w and W commands and s///w; awk's getline <,
// print > and >>, ARGV, @include): the name is text inside the script, not
// a word the bridge decides as a path, so "sed 'r .env' a.txt" read .env
// and "sed -n 'w ../out.txt' a.txt" wrote outside the workspace under
// rules allowing sed. Each needs approval, whatever rule names the
// program; scripts that open no file stay allowed.
func TestScriptNamedFiles(t *testing.T) {
	root := tempTree(t, nil, []string{"a.txt"})
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("SECRET=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rows := []commandRow{
		{"sed 'r .env' a.txt", RequireApproval},
		{"sed 1R.env a.txt", RequireApproval},
		{"sed -n 'w ../out.txt' a.txt", RequireApproval},
		{"sed 's/a/b/w ../out.txt' a.txt", RequireApproval},
		{`awk 'BEGIN{while((getline l<".env")>0)print l}'`, RequireApproval},
		{`awk '{print > "../out.txt"}' a.txt`, RequireApproval},
		{`awk 'BEGIN{ARGV[1]=".env";ARGC=2}{print}' a.txt`, RequireApproval},
		{"sed -n 's/a/b/p' a.txt", Allow},
		{"sed -n '/^r/p' a.txt", Allow},
		{`awk '$1 > 2 {print $1}' a.txt`, Allow},
		{`awk '{print $1 > "/dev/stderr"}' a.txt`, Allow},
	}
	for _, p := range []struct{ name, rules string }{
		{"Bash allowed", "  allow: [Bash]\n  deny: [Read(**/.env)]\n"},
		{"sed and awk allowed", "  allow: [Bash(sed:*), Bash(awk:*)]\n  deny: [Read(**/.env)]\n"},
	} {
		t.Run(p.name, func(t *testing.T) {
			checkCommandRows(t, NewEngine(testPolicy(t, p.rules), EngineOptions{Roots: []string{root}}), root, rows)
		})
	}
}
