package governance

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGitLinkWriteVerdict checks which lines the rule for links git puts
// in the work tree asks about on its own, apart from the other rules a
// line meets (a git command rewriting a work tree that holds the bridge's
// files asks already): a git command that may put entries in place, with
// another command writing or redirecting beneath where it puts them or
// running a program from there.
func TestGitLinkWriteVerdict(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	tests := []struct {
		line string
		want bool
	}{
		{"git reset --hard && sed -i s/a/b/ a.txt", true},
		{"git pull && ./run.sh", true},
		{"git stash pop && echo x > a.txt", true},
		{"git merge topic && cp a.txt b.txt", true},
		{"git checkout main && echo x > src/a.go", true},
		{"git read-tree -mu HEAD && echo x > l", true},
		{"git submodule update --init && echo x > m/l", true},
		{"git apply p.diff && echo x > l", true},
		{"git -C d2 checkout-index l && echo x > d2/l", true},
		{"git checkout-index l && cat a.txt > $F", true},
		{"git checkout-index l && $P a.txt", true},
		{"git --work-tree=/elsewhere checkout main && echo x > a.txt", true},
		{"git checkout-index l && sponge l < a.txt", true},

		{"git checkout main && go test ./...", false},
		{"git pull && npm install", false},
		{"git checkout main && git pull", false},
		{"git clone -q https://example.com/r.git d9 && cd d9 && make", false},
		{"git pull 2>/dev/null && make test", false},
		{"git reset && echo x > a.txt", false},
		{"git restore --staged a.txt && echo x > a.txt", false},
		{"git apply --check p.diff && echo x > a.txt", false},
		{"git stash list && echo x > a.txt", false},
		{"git clone --bare r r.git && echo x > r.git/l", false},
		{"git log && echo x > a.txt", false},
		{"git checkout-index l", false},
	}
	for _, tt := range tests {
		checkGitLinkAsks(t, e, root, tt.line, tt.want)
	}
}

// TestLinksMadeByGit decides a git command that puts a symlink in place,
// which the test never runs, and then a later write through the link's
// name: an index entry of mode 120000 checked out (its target the blob's
// text), and a tracked link git mv moves, are kept as the links ln makes.
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
	tests := []struct {
		first, later string
		want         Value
	}{
		{"git checkout-index l", "l", Deny},
		{"git -C sub checkout-index -a", "sub/m", Deny},
		{"git checkout -- l", "l", Deny},
		{"git restore sub", "sub/m", Deny},
		{`git restore '\l'`, "l", Deny},
		{"git restore " + root + "/l", "l", Deny},
		{"git checkout-index -f -- sub/m", "sub/m", Deny},
		{"git mv links/kk k4", "k4", Deny},
		{"git checkout-index a.txt", "l", Allow},
		{"git mv a.txt b.txt", "b.txt", Allow},
	}
	for _, tt := range tests {
		e.made.forget()
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: tt.first, Cwd: root}); d.Value != Allow {
			t.Fatalf("Decide(%q) = %v (%s); want allow", tt.first, d.Value, d.Reason)
		}
		if d := e.Decide(write(tt.later)); d.Value != tt.want || tt.want == Deny && !strings.Contains(d.Reason, "keys/a.key") {
			t.Errorf("after %q: write of %s = %v (%s); want %v", tt.first, tt.later, d.Value, d.Reason, tt.want)
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
