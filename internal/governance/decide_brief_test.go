package governance

import (
	"reflect"
	"testing"
)

// briefMatches fails t unless decideBrief's decision of req is Decide's
// with no Subjects: the same value, rule, ref, reason and advisories.
func briefMatches(t *testing.T, e *Engine, req Request) {
	t.Helper()
	want := e.Decide(req)
	want.Subjects = nil
	if got := e.decideBrief(req); !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v:\ndecideBrief %+v\nDecide      %+v", req, got, want)
	}
}

// TestDecideBriefGolden compares decideBrief with Decide on the decision
// corpus (TestDecisionsGolden's requests and policies) and on every
// command of the command corpus, as a Bash tool call and as a terminal.
func TestDecideBriefGolden(t *testing.T) {
	for _, file := range []string{"testdata/decisions/repo/GOVERNANCE.md", "testdata/policy/GOVERNANCE.md"} {
		t.Run(file, func(t *testing.T) {
			e, root := decisionEngine(t, file)
			for _, req := range decisionRequests(root) {
				briefMatches(t, e, req)
			}
			for _, req := range soakCallList(root) {
				briefMatches(t, e, req)
			}
		})
	}
	e, root := corpusEngine(t)
	for _, c := range loadCommandCases(t) {
		briefMatches(t, e, Request{Action: ActionToolCall, Tool: "Bash", Kind: "execute", Command: c.command, Cwd: root})
		briefMatches(t, e, Request{Action: ActionTerminalCreate, Command: c.command, Cwd: root})
	}
}

// FuzzDecideBrief compares decideBrief with Decide on any command line
// and path, as a tool call of each kind, as a terminal, and as a command
// that may also run in the path.
func FuzzDecideBrief(f *testing.F) {
	for _, c := range loadCommandCases(f) {
		f.Add(c.command, "src/a.go")
	}
	f.Add("cat .env > .git/config", ".env")
	f.Add("", "../x")
	e, root := corpusEngine(f)
	f.Fuzz(func(t *testing.T, line, p string) {
		for _, kind := range []string{"execute", "read", "edit", "other"} {
			briefMatches(t, e, Request{Action: ActionToolCall, Kind: kind, Title: kind + " " + p, Command: line, Paths: []string{p}, Cwd: root})
		}
		briefMatches(t, e, Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
		// A command that may run in another directory too (decide_cwds.go).
		briefMatches(t, e, Request{Action: ActionToolCall, Kind: "execute", Command: line, Paths: []string{root}, Cwd: root, OtherCwds: []string{p}})
	})
}
