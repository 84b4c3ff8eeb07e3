package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBridgeAskShowsWhatIsJudged: the bridge's own permission request about
// an agent's terminal/create or fs/* request shows in its title everything
// the request is judged on, since Zed shows an execute or edit call's title
// and never its rawInput: the variables it sets, the line a shell-running
// IDE runs (command and args joined unquoted), the directory it runs in,
// and where a path leads. The person is asked, rejects, and the agent gets
// the refusal; the audit record of the answer holds the title shown.
func TestBridgeAskShowsWhatIsJudged(t *testing.T) {
	cases := []struct {
		name, request string
		want          []string
	}{
		{"env", `{"jsonrpc":"2.0","id":50,"method":"terminal/create","params":{"sessionId":"s1","command":"ls","args":[],"env":[{"name":"PATH","value":"%[1]s/evilbin"}],"cwd":"%[1]s"}}`,
			[]string{"Run `ls`", "with `PATH=%[1]s/evilbin`"}},
		{"args joined", `{"jsonrpc":"2.0","id":51,"method":"terminal/create","params":{"sessionId":"s1","command":"echo","args":["x;","touch","z"],"cwd":"%[1]s"}}`,
			[]string{"Run `echo x; touch z`", "(as argv: `echo 'x;' touch z`)"}},
		{"cwd", `{"jsonrpc":"2.0","id":52,"method":"terminal/create","params":{"sessionId":"s1","command":"git commit -m x","cwd":"%[1]s/docs"}}`,
			[]string{"Run `git commit -m x` in `docs`"}},
		{"cwd through a link", `{"jsonrpc":"2.0","id":53,"method":"terminal/create","params":{"sessionId":"s1","command":"git commit -m x","cwd":"%[1]s/d"}}`,
			[]string{"in `d` (leads to `docs`)"}},
		{"write through a link", `{"jsonrpc":"2.0","id":54,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"%[1]s/notes.md","content":"x"}}`,
			[]string{"Write `notes.md` (leads to `docs/plan.md`)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			if err := os.MkdirAll(filepath.Join(h.root, "docs"), 0o755); err != nil {
				t.Fatal(err)
			}
			for name, target := range map[string]string{"notes.md": "docs/plan.md", "d": "docs"} {
				if err := os.Symlink(target, filepath.Join(h.root, name)); err != nil {
					t.Fatal(err)
				}
			}
			h.agent("%s", h.rooted(c.request))
			ask := h.nextAtIDE()
			if ask["method"] != "session/request_permission" {
				t.Fatalf("IDE got %v, want the bridge's own permission request", ask)
			}
			title, _ := get(ask, "params", "toolCall", "title").(string)
			for _, w := range c.want {
				if w = h.rooted(w); !strings.Contains(title, w) {
					t.Errorf("title %q does not show %q", title, w)
				}
			}
			h.ide(`{"jsonrpc":"2.0","id":%q,"result":{"outcome":{"outcome":"selected","optionId":"reject"}}}`, get(ask, "id"))
			if m := h.nextAtAgent(); m["error"] == nil {
				t.Fatalf("agent got %v, want the refusal", m)
			}
			evs := h.rec.find("approval.recorded", "")
			if len(evs) != 1 || evs[0].ev.Metadata["shownTitle"] != title {
				t.Errorf("approval records %+v, want one holding the title shown %q", evs, title)
			}
		})
	}
}

// TestClientAskTitle pins the title's form: the path as written relative
// to the session's cwd, what it leads to, the line, the argv when it reads
// otherwise, the directory and the variables, each in a code span.
func TestClientAskTitle(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		name, method string
		p            clientCallParams
		want         string
	}{
		{"read", "fs/read_text_file", clientCallParams{Path: root + "/a.txt"}, "Read `a.txt` (policy: require-approval)"},
		{"write outside", "fs/write_text_file", clientCallParams{Path: "/elsewhere/a.txt"}, "Write `/elsewhere/a.txt` (policy: require-approval)"},
		{"line", "terminal/create", clientCallParams{Command: "make test", Cwd: root}, "Run `make test` (policy: require-approval)"},
		{"plain args", "terminal/create", clientCallParams{Command: "make", Args: []string{"test"}, Cwd: root}, "Run `make test` (policy: require-approval)"},
		{"quoted args", "terminal/create", clientCallParams{Command: "printf", Args: []string{"a b"}, Cwd: root},
			"Run `printf a b` (as argv: `printf 'a b'`) (policy: require-approval)"},
		{"backticks", "terminal/create", clientCallParams{Command: "echo `id`", Cwd: root}, "Run `` echo `id` `` (policy: require-approval)"},
		{"env", "terminal/create", clientCallParams{Command: "make", Cwd: root, Env: []EnvVar{{Name: "A", Value: "1"}, {Name: "PAGER", Value: "sh -c x"}}},
			"Run `make` with `A=1`, `PAGER=sh -c x` (policy: require-approval)"},
		{"newline in a value", "terminal/create", clientCallParams{Command: "make", Cwd: root, Env: []EnvVar{{Name: "LESS", Value: "+!x\n"}}},
			"Run `make` with `LESS=+!x\\n` (policy: require-approval)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := clientAskTitle(c.method, c.p, root, []string{root}, RequireApproval); got != c.want {
				t.Errorf("clientAskTitle = %q, want %q", got, c.want)
			}
		})
	}
}
