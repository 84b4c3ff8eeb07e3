package governance

import (
	"os"
	"path/filepath"
	"testing"
)

// testPolicy loads a policy whose "rules:" mapping is rules (YAML lines,
// each indented by two spaces), from a file of its own outside any
// workspace.
func testPolicy(t *testing.T, rules string) *Policy {
	t.Helper()
	return writePolicy(t, t.TempDir()+"/GOVERNANCE.md", rules)
}

// testdataPolicy loads testdata/policy/GOVERNANCE.md, the realistic
// policy of the engine's tests and benchmarks.
func testdataPolicy(tb testing.TB) *Policy {
	tb.Helper()
	p, err := LoadPolicy("testdata/policy/GOVERNANCE.md")
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// writePolicy writes a policy whose rules are rules (YAML lines, each
// indented by two spaces) at pol and loads it.
func writePolicy(t *testing.T, pol, rules string) *Policy {
	t.Helper()
	text := "---\nschema: governance.workspace/v1\nname: test-policy\ntitle: Test policy\ndescription: A test policy.\nversion: 1.0.0\nrules:\n" + rules + "---\n"
	if err := os.WriteFile(pol, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPolicy(pol)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testRule parses text as a rule of a policy for the workspace root (home
// /home/u) and gives it the value and the place (where, ref) the policy
// would.
func testRule(tb testing.TB, text, root string, value Value, where, ref string) *rule {
	tb.Helper()
	r, err := parseRule(text, root, "/home/u")
	if err != nil {
		tb.Fatal(err)
	}
	r.value, r.where, r.ref = value, where, ref
	return r
}

// rootPolicyEngine writes a policy whose rules are rules (YAML lines, each
// indented by two spaces) as root's GOVERNANCE.md, and returns an engine
// for root that protects it and the extra locations given.
func rootPolicyEngine(t *testing.T, root, rules string, extra ...ProtectedPath) *Engine {
	t.Helper()
	pol := filepath.Join(root, "GOVERNANCE.md")
	p := writePolicy(t, pol, rules)
	protected := append([]ProtectedPath{{Path: pol, What: "the governance policy"}}, extra...)
	return NewEngine(p, EngineOptions{Roots: []string{root}, Protected: protected})
}
