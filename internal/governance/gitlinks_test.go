package governance

import (
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
		in := &reqInfo{req: Request{Action: ActionTerminalCreate, Command: tt.line, Cwd: root}, roots: []string{root}, memo: &decisionMemo{}}
		got := false
		for _, a := range commandLines(in.req) {
			for _, c := range a.Commands {
				if _, ok := e.gitLinkWriteVerdict(in, a, c); ok {
					got = true
				}
			}
		}
		if got != tt.want {
			t.Errorf("gitLinkWriteVerdict(%q) asks = %v, want %v", tt.line, got, tt.want)
		}
	}
}
