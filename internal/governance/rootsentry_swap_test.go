package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRootSwappedBetweenDecisions: a workspace root the agent can reach (a
// second root inside the first, as a session's additionalDirectories may
// name) that is a directory at one decision and a symlink out of the
// workspace at the next is decided where it leads at the second: nothing
// kept from the first (the roots' resolved forms, which roots are free of
// links, the path rules a form matched) answers for it.
func TestRootSwappedBetweenDecisions(t *testing.T) {
	for _, tc := range []struct {
		name       string
		configured bool
		depFirst   bool
	}{{"session roots", false, false}, {"session roots, the inner first", false, true}, {"configured roots", true, false}, {"configured roots, the inner first", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			ws, out := t.TempDir(), t.TempDir()
			dep := filepath.Join(ws, "dep")
			if err := os.Mkdir(dep, 0o755); err != nil {
				t.Fatal(err)
			}
			p := testPolicy(t, "  default: allow\n  deny: [Read(**/.env), Edit(**/.env)]\n")
			roots := []string{ws, dep}
			if tc.depFirst {
				roots = []string{dep, ws}
			}
			opts := EngineOptions{}
			if tc.configured {
				opts.Roots = roots
			}
			e := NewEngine(p, opts)
			write := Request{Action: ActionFSWrite, Paths: []string{filepath.Join(dep, "x")}, Cwd: ws, Roots: roots}
			read := Request{Action: ActionFSRead, Paths: []string{filepath.Join(dep, "notes")}, Cwd: ws, Roots: roots}
			run := Request{Action: ActionTerminalCreate, Command: "touch x", Cwd: dep, Roots: roots}
			for _, req := range []Request{write, read, run} {
				if d := e.Decide(req); d.Value != Allow {
					t.Fatalf("before the swap: %+v = %v (%s); want allow", req, d.Value, d.Reason)
				}
			}
			// The agent replaces the directory with a link out of the
			// workspace.
			if err := os.Remove(dep); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, dep); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "notes"), []byte("outside\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, req := range []Request{write, read, run} {
				if d := e.Decide(req); d.Value == Allow {
					t.Errorf("after %s became a link to %s: %+v = allow (%s); want it decided outside the workspace", dep, out, req, d.Reason)
				}
			}
			// And back: a directory again is inside again.
			if err := os.Remove(dep); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dep, 0o755); err != nil {
				t.Fatal(err)
			}
			if d := e.Decide(write); d.Value != Allow {
				t.Errorf("after %s became a directory again: write = %v (%s); want allow", dep, d.Value, d.Reason)
			}
		})
	}
}
