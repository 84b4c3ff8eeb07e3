package governance

import (
	"reflect"
	"strings"
	"testing"
)

// withoutRuns returns a copy of list with no run marked: the loops over
// it then compare every location, as they did before runs.
func withoutRuns(list []protected) []protected {
	out := append([]protected(nil), list...)
	for i := range out {
		out[i].run = tailRun{}
	}
	return out
}

// TestTailRunsMarked checks that a request's protected list has the agent
// configuration beneath its root marked as runs, so that the fast paths
// the fuzz targets below compare are taken at all.
func TestTailRunsMarked(t *testing.T) {
	e, root, _ := protectedWorkspace(t)
	list := e.protectedFor(e.info(Request{Action: ActionFSWrite, Paths: []string{root + "/src/a.go"}, Cwd: root}))
	longest := 0
	for i, pr := range list {
		longest = max(longest, pr.run.n)
		if pr.run.n > 0 && (!pr.tail || pr.Rotated || i+pr.run.n > len(list)) {
			t.Fatalf("%s: run %+v on a location that is not plain tail, or past the list's end", pr.Path, pr.run)
		}
	}
	if longest < len(agentConfig)/2 {
		t.Fatalf("longest run %d locations; the agent configuration has %d", longest, len(agentConfig))
	}
	for _, pr := range list {
		if pr.run.n != longest {
			continue
		}
		if !pr.run.passes(elementStarts(root + "/src/a.go")) {
			t.Errorf("%s/src/a.go does not pass the agent configuration's run", root)
		}
		if pr.run.passes(elementStarts(root + "/sub/.git/config")) {
			t.Errorf("%s/sub/.git/config passes the agent configuration's run", root)
		}
		return
	}
}

// configWorkspace returns an engine whose only protected locations are
// the agent configuration beneath its root (no file of the bridge's is
// in it, as in the soak's workspace), and the root: it holds an .envrc
// with a second name, src/env-hard.
func configWorkspace(t testing.TB) (*Engine, string) {
	t.Helper()
	root := t.TempDir() + "/ws"
	tree{
		files:     []string{"src/a.go", ".envrc", "sub/.git/config", "lib/x"},
		hardLinks: map[string]string{"src/env-hard": ".envrc"},
	}.make(t, root)
	return NewEngine(&Policy{Default: Allow, DefaultWhere: "test"}, EngineOptions{Roots: []string{root}}), root
}

// FuzzTailRuns compares protectedHitOf with protectedHitOfEvery, and
// linkedProtected and commandPlaceHit on a list with runs marked with the
// same on the list without them, for paths and command directories below,
// beside and above a workspace holding the bridge's files and one holding
// only agent configuration, for a change, a delete and a read, and every
// index a command line's text may name.
func FuzzTailRuns(f *testing.F) {
	for _, s := range []string{"src/a.go", "GOVERNANCE.md", "audit/audit-log.jsonl.000002", "audit", ".git/hooks/pre-commit",
		"sub/.git/config", "sub/.CLAUDE/settings.json", "lefthook.yml", "x/lefthook-local.yaml/y", ".envrc", "a/.zed/tasks.json",
		"src/hard.md", "src/policy-link", "src/env-hard", ".", "..", "../..", "../cache/offload/x", "/", "/etc/passwd", "sub/.husky",
		"lib/x", "Lefthook.JSONC", "sub"} {
		f.Add(s, 0)
		f.Add(s, 45)
	}
	e1, root1, _ := protectedWorkspace(f)
	e2, root2 := configWorkspace(f)
	f.Fuzz(func(t *testing.T, rel string, named int) {
		for _, w := range []struct {
			e    *Engine
			root string
		}{{e1, root1}, {e2, root2}} {
			p := rel
			if !strings.HasPrefix(rel, "/") {
				p = w.root + "/" + rel
			}
			for _, req := range []Request{
				{Action: ActionFSWrite, Paths: []string{p}, Cwd: w.root},
				{Action: ActionToolCall, Kind: "delete", Paths: []string{p}, Cwd: w.root},
				{Action: ActionFSRead, Paths: []string{p}, Cwd: w.root},
				{Action: ActionTerminalCreate, Command: "true", Cwd: w.root},
			} {
				tailRunsAgree(t, w.e, req, p, named)
			}
		}
	})
}

// tailRunsAgree fails t unless the loops over req's protected list find
// the same in it with runs marked as without, for the path p and the
// index named.
func tailRunsAgree(t *testing.T, e *Engine, req Request, p string, named int) {
	t.Helper()
	in := e.info(req)
	list := e.protectedFor(in)
	plain := withoutRuns(list)
	gotPr, gotRes, gotOK := linkedProtected(in, p, list)
	wantPr, wantRes, wantOK := linkedProtected(in, p, plain)
	gotPr.run, wantPr.run = tailRun{}, tailRun{}
	if gotOK != wantOK || gotRes != wantRes || !reflect.DeepEqual(gotPr, wantPr) {
		t.Fatalf("linkedProtected(%s) = %s %q %v; every location compared: %s %q %v", p, gotPr.Path, gotRes, gotOK, wantPr.Path, wantRes, wantOK)
	}
	facts := in.facts(p)
	if facts.refusal != nil {
		return
	}
	mutates, removes := in.mutates(), req.Kind == "delete"
	// Both point into list when they hit.
	if got, want := protectedHitOf(list, facts, mutates, removes), protectedHitOfEvery(list, facts, mutates, removes); got != want {
		t.Fatalf("%s (%s %s): hit %+v, every location compared %+v", p, req.Action, req.Kind, got, want)
	}
	lcwd := facts.lowerForms()
	for _, n := range []int{named, -1, named % 64} {
		hit, pf, inside := commandPlaceHit(list, lcwd, n)
		whit, wpf, winside := commandPlaceHit(plain, lcwd, n)
		if (hit == nil) != (whit == nil) || pf != wpf || inside != winside || hit != nil && hit.Path != whit.Path {
			t.Fatalf("commandPlaceHit(%s, %d) = %v %q %v; every location compared: %v %q %v", p, n, hit, pf, inside, whit, wpf, winside)
		}
	}
}
