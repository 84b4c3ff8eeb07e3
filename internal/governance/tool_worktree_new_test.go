package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEnterWorktreeIsAChange decides Claude Code's EnterWorktree that
// makes a work tree (given a name, or nothing) as the change it is, a new
// directory below .claude/worktrees/ at the top of the repository (a cwd
// below the top counts there), so a policy asking about changes asks
// about it, as it asks about git worktree add; one given the path of a
// work tree that exists changes nothing and is decided as the read it is.
func TestEnterWorktreeIsAChange(t *testing.T) {
	root := t.TempDir()
	tree{files: []string{"README.md", "sub/a.go"}}.make(t, root)
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := testPolicy(t, "  default: allow\n  ask:\n    - Edit(./.claude/worktrees/**)\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	for _, c := range []struct {
		name, input, cwd string
		want             Value
		dir              string
	}{
		{"a name", `{"name":"wt1"}`, root, RequireApproval, filepath.Join(root, ".claude/worktrees/wt1")},
		{"no name", `{}`, root, RequireApproval, filepath.Join(root, ".claude/worktrees")},
		{"from below the top", `{"name":"wt1"}`, filepath.Join(root, "sub"), RequireApproval, filepath.Join(root, ".claude/worktrees/wt1")},
		{"a path", `{"path":"` + filepath.Join(root, ".claude/worktrees/old") + `"}`, root, Allow, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := ClaudeToolRequest("EnterWorktree", []byte(c.input), c.cwd)
			if err != nil {
				t.Fatal(err)
			}
			req.Roots = []string{root}
			if d := e.Decide(req); d.Value != c.want {
				t.Errorf("EnterWorktree %s in %s = %v (%s); want %v", c.input, c.cwd, d.Value, d.Reason, c.want)
			}
			var in map[string]any
			if c.dir != "" {
				in = map[string]any{}
				if c.input != "{}" {
					in["name"] = "wt1"
				}
			} else {
				in = map[string]any{"path": "x"}
			}
			if got := newWorktreeDir(in, c.cwd); got != c.dir {
				t.Errorf("newWorktreeDir = %q, want %q", got, c.dir)
			}
		})
	}
}

// TestNewWorktreeDirFromRealPath: a cwd reached through a link finds the
// repository git finds, from the directory's real path, not the one above
// the link's name.
func TestNewWorktreeDirFromRealPath(t *testing.T) {
	outer, inner := t.TempDir(), t.TempDir()
	tree{files: []string{"sub/a.go"}}.make(t, inner)
	for _, d := range []string{outer, inner} {
		if err := os.Mkdir(filepath.Join(d, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(outer, "link")
	if err := os.Symlink(filepath.Join(inner, "sub"), link); err != nil {
		t.Fatal(err)
	}
	realInner, err := filepath.EvalSymlinks(inner)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(realInner, ".claude/worktrees/wt1")
	if got := newWorktreeDir(map[string]any{"name": "wt1"}, link); got != want {
		t.Errorf("newWorktreeDir in %s = %q, want %q", link, got, want)
	}
}
