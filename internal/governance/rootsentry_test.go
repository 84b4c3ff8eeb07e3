package governance

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// pathRulesEngine returns an engine whose path rules are the compact
// rules given (each "Read(...)" or "Edit(...)"), alternately deny and
// allow (a deny compares without case, an allow with it), over root /w.
func pathRulesEngine(tb testing.TB, texts ...string) *Engine {
	tb.Helper()
	var rules []*rule
	for i, text := range texts {
		r, err := parseRule(text, "/w", "/h")
		if err != nil {
			continue
		}
		r.value, r.where, r.ref = []Value{Deny, Allow}[i%2], fmt.Sprintf("test:%d", i), "r"+fmt.Sprint(i)
		rules = append(rules, r)
	}
	return NewEngine(&Policy{Default: RequireApproval, DefaultWhere: "test", rules: rules}, EngineOptions{Roots: []string{"/w"}, Home: "/h"})
}

// checkPathRuleMatches fails t unless pathRuleMatches of path p says, for
// every path rule of e, what matching the rule's pattern against p says
// (matchSubject and pathPattern.match), both when it computes the answer
// and when it finds it kept.
func checkPathRuleMatches(t *testing.T, e *Engine, p string) {
	t.Helper()
	in := e.info(Request{Action: ActionFSRead, Paths: []string{p}, Cwd: "/w"})
	s := newPathSubject(p)
	first := e.pathRuleMatches(in.rootsEnt, &s)
	again := e.pathRuleMatches(in.rootsEnt, &s)
	for i, r := range e.rulesFor(catPath) {
		want := r.path != nil && r.path.matchSubject(&s, in.roots, lowerAll(in.roots), r.fold())
		if slow := r.path != nil && r.path.match(p, in.roots, r.fold()); slow != want {
			t.Fatalf("%s on %q: matchSubject %v, match %v", r.text, p, want, slow)
		}
		if first.has(i) != want || again.has(i) != want {
			t.Fatalf("%s on %q: pathRuleMatches %v then %v, want %v", r.text, p, first.has(i), again.has(i), want)
		}
	}
}

// TestPathRuleMatches compares the kept matches of a path with matching
// each rule, for rules of every anchor and more than 64 of them (several
// words of bits), on paths of either case, inside and outside the root,
// and longer than what is kept.
func TestPathRuleMatches(t *testing.T) {
	texts := []string{"Read(**/.env)", "Read(**/.env)", "Edit(./src/**)", "Edit(./src/**)", "Read(//etc/**)", "Read(~/.ssh/**)",
		"Read(/GOVERNANCE.md)", "Edit(**/*.pem)", "Read(**/K)", "Read", "Edit(src/*.go)"}
	for i := 0; len(texts) < 150; i++ {
		texts = append(texts, fmt.Sprintf("Read(**/f%d.go)", i%40), fmt.Sprintf("Edit(./src/f%d.go)", i%40))
	}
	e := pathRulesEngine(t, texts...)
	if n := len(e.rulesFor(catPath)); n <= 128 {
		t.Fatalf("%d path rules, want more than 128", n)
	}
	paths := []string{"/w/.env", "/w/a/.ENV", "/W/src/f3.go", "/w/src/f3.go", "/w/src/F3.GO", "/etc/passwd", "/h/.ssh/id",
		"/w/GOVERNANCE.md", "/w/governance.md", "/w/\u212a", "/w/k", "/w/src/a/f39.go", "/w", "/",
		"/w/" + strings.Repeat("a/", maxMatchedForm) + ".env"}
	for range 2 {
		for _, p := range paths {
			checkPathRuleMatches(t, e, p)
		}
	}
	in := e.info(Request{Action: ActionFSRead, Cwd: "/w"})
	if n := len(in.rootsEnt.matches); n != len(paths)-1 {
		t.Errorf("%d forms kept, want %d (all but the one too long)", n, len(paths)-1)
	}
}

// TestPathRuleMatchesBounded holds the kept forms to maxMatchedForms:
// past it the cache starts again, and still answers right.
func TestPathRuleMatchesBounded(t *testing.T) {
	e := pathRulesEngine(t, "Read(**/.env)", "Read(./src/**)")
	for i := range maxMatchedForms + 10 {
		checkPathRuleMatches(t, e, fmt.Sprintf("/w/src/%d/.env", i))
	}
	in := e.info(Request{Action: ActionFSRead, Cwd: "/w"})
	if n := len(in.rootsEnt.matches); n == 0 || n > maxMatchedForms {
		t.Errorf("%d forms kept, want 1 to %d", n, maxMatchedForms)
	}
}

// TestDecideKeptMatchesSame decides the soak's calls and a set of paths
// twice with one engine (the second time from kept matches) and once
// with a new engine per request: every decision is the same.
func TestDecideKeptMatchesSame(t *testing.T) {
	cwd := t.TempDir()
	e := soakEngine(t, cwd)
	reqs := soakCallList(cwd)
	for _, p := range []string{".env", "src/.env", "SRC/A.PEM", "go.mod", "policies/x", ".git/config", "internal/a.go"} {
		for _, a := range []string{ActionFSRead, ActionFSWrite} {
			reqs = append(reqs, Request{Action: a, Paths: []string{cwd + "/" + p}, Cwd: cwd, Roots: []string{cwd}})
		}
	}
	for _, req := range reqs {
		want := soakEngine(t, cwd).Decide(req)
		for range 2 {
			if got := e.Decide(req); !reflect.DeepEqual(got, want) {
				t.Fatalf("%+v:\n got %+v\nwant %+v", req, got, want)
			}
		}
	}
}

// FuzzPathRuleMatches checks the kept matches against matching each rule,
// for any pattern among fixed ones and any path.
func FuzzPathRuleMatches(f *testing.F) {
	f.Add("Read(**/.env)", "/w/a/.ENV")
	f.Add("Edit(./src/**/*.go)", "/w/src/a/b.go")
	f.Add("Read(//etc/*)", "/etc/passwd")
	f.Add("Read(~/.ssh/**)", "/h/.ssh/id")
	f.Add("Read(./k)", "/w/\u212a")
	f.Fuzz(func(t *testing.T, text, p string) {
		e := pathRulesEngine(t, text, "Read(**/.env)", text, "Edit(./src/**)")
		checkPathRuleMatches(t, e, p)
		checkPathRuleMatches(t, e, p)
	})
}
