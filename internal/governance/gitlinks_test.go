package governance

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGitLinkWriteVerdict checks which lines the rule for links git puts
// in the work tree asks about on its own, apart from the other rules a
// line meets (a git command rewriting a work tree that holds the bridge's
// files asks already): a git command that may put entries in place, with
// another command writing or redirecting beneath where it puts them or
// running a program from there. Its rows are in
// testdata/cases/git_link_asks_lines.txt.
func TestGitLinkWriteVerdict(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	checkGitLinkAsksLines(t, e, root, "git_link_asks_lines.txt", nil)
}

// TestLinksMadeByGit decides a git command that puts a symlink in place,
// which the test never runs, and then a later write through the link's
// name: an index entry of mode 120000 checked out (its target the blob's
// text), and a tracked link git mv moves, are kept as the links ln makes.
// Its rows are in testdata/cases/git_links_made_lines.txt.
func TestLinksMadeByGit(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	gitRun(t, root, "init", "-q")
	writeFile(t, filepath.Join(root, "f"), "keys/a.key")
	blob := strings.TrimSpace(gitRun(t, root, "hash-object", "-w", "f"))
	gitRun(t, root, "update-index", "--add", "--cacheinfo", "120000,"+blob+",l")
	writeFile(t, filepath.Join(root, "f"), "../keys/a.key")
	up := strings.TrimSpace(gitRun(t, root, "hash-object", "-w", "f"))
	gitRun(t, root, "update-index", "--add", "--cacheinfo", "120000,"+up+",sub/m")
	gitRun(t, root, "add", "links/kk", "a.txt")
	write := func(p string) Request {
		return Request{Action: ActionFSWrite, Paths: []string{root + "/" + p}, Cwd: root}
	}
	for _, c := range caseRows(t, "git_links_made_lines.txt", 3, map[string]string{"{{ROOT}}": root}) {
		first, later, want := c.fields[0], c.fields[1], Value(c.fields[2])
		e.made.forget()
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: first, Cwd: root}); d.Value != Allow {
			t.Fatalf("git_links_made_lines.txt:%d: Decide(%q) = %v (%s); want allow", c.line, first, d.Value, d.Reason)
		}
		if d := e.Decide(write(later)); d.Value != want || want == Deny && !strings.Contains(d.Reason, "keys/a.key") {
			t.Errorf("git_links_made_lines.txt:%d: after %q: write of %s = %v (%s); want %v", c.line, first, later, d.Value, d.Reason, want)
		}
	}
	e.made.forget()
}

// checkGitLinkAsks checks whether gitLinkWriteVerdict asks about a
// command of line, a terminal's command run in root, as want says.
func checkGitLinkAsks(t *testing.T, e *Engine, root, line string, want bool) {
	t.Helper()
	in := &reqInfo{req: Request{Action: ActionTerminalCreate, Command: line, Cwd: root}, roots: []string{root}, memo: &decisionMemo{}}
	got := false
	for _, a := range commandLines(in.req) {
		for _, c := range a.Commands {
			if _, ok := e.gitLinkWriteVerdict(in, a, c); ok {
				got = true
			}
		}
	}
	if got != want {
		t.Errorf("gitLinkWriteVerdict(%q) asks = %v, want %v", line, got, want)
	}
}

// checkGitLinkAsksLines checks each line of testdata/cases/name
// (LINE<TAB>ASKS, ASKS true or false) with checkGitLinkAsks, a terminal's
// command run in root, in a subtest named for where the case was read;
// vars are caseRows'.
func checkGitLinkAsksLines(t *testing.T, e *Engine, root, name string, vars map[string]string) {
	t.Helper()
	for _, c := range caseRows(t, name, 2, vars) {
		want, err := strconv.ParseBool(c.fields[1])
		if err != nil {
			t.Fatalf("%s:%d: %v", name, c.line, err)
		}
		t.Run(fmt.Sprintf("%s:%d", name, c.line), func(t *testing.T) { checkGitLinkAsks(t, e, root, c.fields[0], want) })
	}
}
