package governance

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// treeReadWorkspace builds a workspace holding a denied .env at its root,
// a src directory without secrets, a directory with a link to .env inside
// (lnk/env), a directory linked to one holding a secret (keys -> vault),
// a read-protected audit log beneath audit/, and a directory with a link
// to a file outside the workspace (away/s.txt -> ../../outside/secret.txt)
// beside one with a link to that file's directory (awaydir/o).
func treeReadWorkspace(t *testing.T) (*Engine, string) {
	t.Helper()
	tmp, root := tempWorkspace(t)
	tree{
		dirs:  []string{"clean/sub"},
		files: []string{".env", "src/a.go", "src/b/c.go", "lnk/readme", "vault/.env", "vault/deep/x", "audit/audit-log.jsonl", "clean/x.txt", "away/a.txt", "awaydir/a.txt"},
		links: map[string]string{"lnk/env": "../.env", "clean/sub/keys": "../../vault", "src/up": "../vault/deep",
			"away/s.txt": "../../outside/secret.txt", "awaydir/o": "../../outside"},
	}.make(t, root)
	writeFile(t, filepath.Join(tmp, "outside", "secret.txt"), "x")
	p := testPolicy(t, "  default: allow\n  allow: [Read, Edit, Bash]\n  deny:\n    - Read(**/.env)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{
		{Path: root + "/audit/audit-log.jsonl", What: "the audit log", Read: true, Rotated: true}}})
	return e, root
}

// TestDecideTreeRead checks that a command reading everything beneath a
// directory is decided as reading the refused files found there, as the
// reader walks (symlinks followed only by readers that follow them), and
// that one reading a directory without such files is not refused.
// Its rows are in testdata/cases/tree_read_lines.txt.
func TestDecideTreeRead(t *testing.T) {
	e, root := treeReadWorkspace(t)
	tests := dirLineDecisionCases(t, "tree_read_lines.txt", map[string]string{"{{ROOT}}": root})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLineDecision(t, e, filepath.Join(root, tt.cwd), tt.line, tt.want, tt.what) })
	}
}

// TestDecideTreeReadBounded checks that a directory with as many entries
// as are walked is walked whole, and that one with more is asked about, not
// half checked. The bound is lowered to 300 so that the test creates
// hundreds of files, not 20,000; the walk counts the same way at any bound.
func TestDecideTreeReadBounded(t *testing.T) {
	defer func(n int) { maxTreeEntries = n }(maxTreeEntries)
	maxTreeEntries = 300
	e, root := treeReadWorkspace(t)
	create := func(i int) {
		writeFile(t, filepath.Join(root, "big", "f"+strings.Repeat("x", i%5)+strconv.Itoa(i)), "")
	}
	for i := range maxTreeEntries {
		create(i)
	}
	grep := Request{Action: ActionTerminalCreate, Command: "grep -r foo big", Cwd: root}
	if d := e.Decide(grep); d.Value != Allow {
		t.Errorf("grep -r of %d files, as many as are walked: %v (%s); want allow", maxTreeEntries, d.Value, d.Reason)
	}
	create(maxTreeEntries)
	d := e.Decide(grep)
	if d.Value != RequireApproval || !strings.Contains(d.Reason, "too large to check") {
		t.Errorf("grep -r of %d files: %v (%s); want require-approval as too large to check", maxTreeEntries+1, d.Value, d.Reason)
	}
}

// FuzzTreeReadOf checks that reading any command's words as a tree reader
// never panics.
func FuzzTreeReadOf(f *testing.F) {
	for _, s := range []string{"grep -r x .", "tar cf - .", "tar -C", "cp -r -t", "git -C", "rg -e", "zip -r", "tar cfC",
		"diff -r a b", "diff --from-file", "diff --to-file=x -- a", "git -C d diff --no-index -- a b", "git diff --no-index"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var form []shellcmd.Word
		for _, w := range strings.Fields(line) {
			form = append(form, shellcmd.Word{Kind: shellcmd.Static, Text: w})
		}
		treeReadOf(form)
	})
}
