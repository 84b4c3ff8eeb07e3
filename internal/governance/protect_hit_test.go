package governance

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// protectedHitOfEvery is protectedHitOf as its definition states it: the
// first location (in list order) that one of the path's forms (in order)
// reaches, comparing every form with every location, with none of the
// filters (element starts, runs of locations) protectedHitOf skips them
// by. It is the reference its fast path is compared with.
func protectedHitOfEvery(list []protected, facts *pathFacts, mutates, removes bool) protectedHit {
	forms, lforms := facts.forms, facts.lowerForms()
	linked := facts.links()
	for k := range list {
		pr := &list[k]
		if !mutates && !pr.Read {
			continue
		}
		for i, f := range forms {
			lf := lforms[i]
			reaches := func(pf string) bool {
				return beneath(pf, lf) || pr.Rotated && rotatedSiblingLower(pf, lf) || removes && beneath(lf, pf) ||
					pr.lrel != "" && nestedConfig(pf, pr.lrel, lf)
			}
			if slices.ContainsFunc(pr.lower, reaches) || linked[i] != nil && sameFile(linked[i], *pr) {
				return protectedHit{pr: pr, form: f, ok: true}
			}
		}
	}
	return protectedHit{}
}

// FuzzProtectedHitOf compares protectedHitOf with protectedHitOfEvery on
// paths below, beside and above a workspace holding the bridge's files,
// for every kind of request: a change, a delete or move, and a read.
func FuzzProtectedHitOf(f *testing.F) {
	for _, s := range []string{"src/a.go", "GOVERNANCE.md", "audit/audit-log.jsonl.000002", "audit", ".git/hooks/pre-commit",
		"sub/.git/config", "sub/.CLAUDE/settings.json", "lefthook.yml", "x/lefthook-local.yaml/y", ".envrc", "a/.zed/tasks.json",
		"src/hard.md", "src/policy-link", ".", "..", "../cache/offload/x", "src/.gemini/policies/p.toml", "/", "/etc/passwd",
		"sub/.husky", ".idea/runConfigurations/x.xml", "Lefthook.JSONC", "../.git/config"} {
		f.Add(s)
	}
	e, root, _ := protectedWorkspace(f)
	f.Fuzz(func(t *testing.T, rel string) {
		p := rel
		if !strings.HasPrefix(rel, "/") {
			p = root + "/" + rel
		}
		for _, req := range []Request{
			{Action: ActionFSWrite, Paths: []string{p}, Cwd: root},
			{Action: ActionToolCall, Kind: "delete", Paths: []string{p}, Cwd: root},
			{Action: ActionFSRead, Paths: []string{p}, Cwd: root},
		} {
			in := e.info(req)
			facts := in.facts(p)
			if facts.refusal != nil {
				return
			}
			list := e.protectedFor(in)
			mutates, removes := in.mutates(), req.Kind == "delete"
			got := protectedHitOf(list, facts, mutates, removes)
			want := protectedHitOfEvery(list, facts, mutates, removes)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s (%s %s): hit %+v, every location compared %+v", p, req.Action, req.Kind, got, want)
			}
		}
	})
}

// TestTailFar checks the lemma the fast paths of protectedHitOf,
// linkedProtected and protectedCommand stand on: a path beneath a tail
// location (protected.tail) has an element starting with the first byte
// of its rel, on random paths and rels that meet.
func TestTailFar(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	alpha := []string{"/", "/", "a", "l", ".", ".a", "lefthook", "..", "/."}
	word := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) {
			b.WriteString(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	tails := 0
	for range 200000 {
		root, lrel := "/"+word(4), word(4)
		pf := strings.TrimSuffix(root, "/") + "/" + lrel
		if !configTail([]string{pf}, lrel) {
			continue
		}
		tails++
		x := pf + word(4)
		if r.IntN(2) == 0 {
			x = word(8)
		}
		if beneath(pf, x) && !elementStarts(x).has(lrel[0]) {
			t.Fatalf("%q is beneath %q (rel %q), yet no element of it starts with %q", x, pf, lrel, lrel[0])
		}
		if nestedConfig(pf, lrel, x) && !elementStarts(x).has(lrel[0]) {
			t.Fatalf("%q holds %q below %q, yet no element of it starts with %q", x, lrel, root, lrel[0])
		}
	}
	if tails < 1000 {
		t.Fatalf("only %d tail locations generated", tails)
	}
}
