package governance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// protectedWorkspace makes a workspace whose policy allows every edit and
// read, holding the bridge's own files: the policy (with a parent it
// extends and a POLICY.md), the manifest, the audit log and a rotated
// file, a cache directory outside the root and a hook socket directory.
func protectedWorkspace(t testing.TB) (*Engine, string, string) {
	t.Helper()
	tmp, root := tempWorkspace(t)
	cache := filepath.Join(tmp, "cache")
	hook := filepath.Join(tmp, "hook")
	tree{
		texts: map[string]string{
			"ws/GOVERNANCE.md": "---\nschema: governance.workspace/v1\nname: ws\ntitle: t\ndescription: d\nversion: 1.0.0\n" +
				"extends: ../base/GOVERNANCE.md\nrules:\n  default: allow\n  allow: [Read, Edit, Write, Bash]\n---\n",
			"base/GOVERNANCE.md":              "---\nschema: governance.workspace/v1\nname: base\ntitle: t\ndescription: d\nversion: 1.0.0\nextends: ../missing/GOVERNANCE.md\n---\n",
			"ws/ACP.md":                       "manifest",
			"ws/audit/audit-log.jsonl":        "{}\n",
			"ws/audit/audit-log.jsonl.000001": "{}\n",
			"ws/src/a.go":                     "package a",
			"cache/offload/1.txt":             "offloaded",
			"hook/hook.sock":                  "",
		},
		links: map[string]string{
			"ws/src/policy-link": root + "/GOVERNANCE.md",
			"ws/src/cache-link":  cache + "/offload/new.txt", // dangling into the cache
		},
		hardLinks: map[string]string{
			"ws/src/hard.md":     "ws/GOVERNANCE.md",
			"ws/src/old-log.txt": "ws/audit/audit-log.jsonl.000001",
		},
	}.make(t, tmp)
	p, err := LoadPolicy(root + "/GOVERNANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	prot := SelfProtected(p, nil)
	prot = append(prot,
		ProtectedPath{Path: root + "/ACP.md", What: "the ACP.md manifest"},
		ProtectedPath{Path: root + "/audit/audit-log.jsonl", What: "the audit log", Read: true, Rotated: true},
		ProtectedPath{Path: cache, What: "the compression cache"})
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: prot})
	e.Protect(ProtectedPath{Path: hook, What: "the hook socket", Read: true})
	return e, root, tmp
}

// protectedCase is a request and what self-protection decides for it.
type protectedCase struct {
	name string
	req  Request
	want Value
	what string // substring of the reason when denied
}

// protectedLine is a terminal command line run in the workspace root and
// what self-protection decides about it: want, and when denied a
// substring of the reason.
type protectedLine struct {
	line string
	want Value
	what string
}

// protectedLines makes a protected case of each line, named by the line
// and run in root.
func protectedLines(root string, lines []protectedLine) []protectedCase {
	tests := make([]protectedCase, 0, len(lines))
	for _, c := range lines {
		tests = append(tests, protectedCase{name: c.line, req: Request{Action: ActionTerminalCreate, Command: c.line, Cwd: root}, want: c.want, what: c.what})
	}
	return tests
}

// protectedLineCases reads testdata/cases/name (caseRows) into protected
// lines: LINE<TAB>DECISION<TAB>WHAT, WHAT "" when the line is allowed.
func protectedLineCases(t *testing.T, name string, vars map[string]string) []protectedLine {
	t.Helper()
	return readCases(t, name, 3, vars, func(c caseRow) protectedLine {
		return protectedLine{line: c.fields[0], want: Value(c.fields[1]), what: c.fields[2]}
	})
}

// checkProtectedLines checks each line, run in root, as checkProtected
// checks a case named by the line.
func checkProtectedLines(t *testing.T, e *Engine, root string, lines []protectedLine) {
	t.Helper()
	checkProtected(t, e, root, protectedLines(root, lines))
}

// protectedCases reads testdata/cases/name (caseRows) into protected
// cases: NAME<TAB>REQUEST<TAB>DECISION<TAB>WHAT, the request a Request as
// JSON (no member it does not have).
func protectedCases(t *testing.T, name string, vars map[string]string) []protectedCase {
	t.Helper()
	var out []protectedCase
	for _, c := range caseRows(t, name, 4, vars) {
		var req Request
		dec := json.NewDecoder(strings.NewReader(c.fields[1]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			t.Fatalf("%s:%d: %v", name, c.line, err)
		}
		out = append(out, protectedCase{name: c.fields[0], req: req, want: Value(c.fields[2]), what: c.fields[3]})
	}
	return out
}

// checkProtected decides each case with e, in root when the request names
// no cwd, and checks its value and, for a deny, that self-protection denied
// it for what.
func checkProtected(t *testing.T, e *Engine, root string, tests []protectedCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.Cwd == "" {
				tt.req.Cwd = root
			}
			d := e.Decide(tt.req)
			if d.Value != tt.want || tt.want == Deny && (d.Ref != "self-protection" || !strings.Contains(d.Reason, tt.what)) {
				t.Errorf("Decide(%+v) = %v (ref %s, %s); want %s about %q", tt.req, d.Value, d.Ref, d.Reason, tt.want, tt.what)
			}
		})
	}
}

func TestDecideProtected(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	checkProtected(t, e, root, protectedCases(t, "protected.txt", map[string]string{"$ROOT": root, "$TMP": tmp}))
}

// TestImplicitRules checks the rules self-protection shows in `policy
// check` and hands to the agents' native rules.
func TestImplicitRules(t *testing.T) {
	e, root, tmp := protectedWorkspace(t)
	got := strings.Join(e.ImplicitRules(), "\n")
	for _, want := range []string{
		"deny Edit(/" + root + "/GOVERNANCE.md) (built-in: the governance policy)",
		"deny Write(/" + tmp + "/base/GOVERNANCE.md) (built-in: the governance policy)",
		"deny Read(/" + root + "/audit/audit-log.jsonl) (built-in: the audit log)",
		"deny Read(/" + root + "/audit/audit-log.jsonl.*) (built-in: the audit log)",
		"deny Edit(/" + root + "/audit/.audit-log.jsonl.*) (built-in: the audit log)",
		"deny Edit(/" + tmp + "/cache/**) (built-in: the compression cache)",
		"deny Read(/" + tmp + "/hook/**) (built-in: the hook socket)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("implicit rules lack %q; got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Read(/"+root+"/GOVERNANCE.md)") || strings.Contains(got, "Read(/"+tmp+"/cache") {
		t.Errorf("implicit rules deny reads of what may be read:\n%s", got)
	}
	// Each implicit rule is a rule the policy syntax accepts.
	for _, line := range e.ImplicitRules() {
		text := strings.TrimPrefix(line[:strings.LastIndex(line, " (")], "deny ")
		if _, err := parseRule(text, root, "/home/u"); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// FuzzProtectedCommand checks that the self-protection of commands never
// panics, and that a command line holding a protected file's absolute path
// as a plain word is always denied, whatever surrounds it.
func FuzzProtectedCommand(f *testing.F) {
	for _, s := range []string{"rm {P}", "echo x > {P}", "cat '{P}'", "ls && mv {P} /tmp", "$(cat {P})", "x=\"{P}\"; rm $x",
		"cp /dev/null GOVERN*", "echo 'unterminated", "`", "rm -rf .", "sed -i s/a/b/ \"GOVERN\"\"ANCE.md\"",
		"cat GOVERN${X}ANCE.md", "cat GOVERNANCE.m$'d'", `cat GOVERNANCE.m$"d"`, `cat GOVERNANCE$"x"`, "cat $(x)$(y)ANCE.md${z}", "ln GOV{ER,}NANCE.md h"} {
		f.Add(s)
	}
	dir := f.TempDir()
	policy := dir + "/GOVERNANCE.md"
	if err := os.WriteFile(policy, []byte("x"), 0o644); err != nil {
		f.Fatal(err)
	}
	allow := testRule(f, "Bash", dir, Allow, "fuzz:1", "fuzz")
	e := NewEngine(&Policy{Default: Allow, DefaultWhere: "fuzz", rules: []*rule{allow}},
		EngineOptions{Roots: []string{dir}, Protected: []ProtectedPath{{Path: policy, What: "the governance policy"}}})
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "{P}", policy)
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: dir})
		if d.Value == "" || d.Rule == "" {
			t.Fatalf("%q: incomplete decision %+v", line, d)
		}
		for _, w := range strings.Fields(line) {
			if w == policy && d.Value != Deny {
				t.Fatalf("%q names %s and was not denied: %v", line, policy, d)
			}
		}
	})
}

// BenchmarkDecideProtected measures what self-protection adds to a file
// read and a command: ten protected locations against none.
func BenchmarkDecideProtected(b *testing.B) {
	root := b.TempDir()
	if err := os.MkdirAll(root+"/src", 0o755); err != nil {
		b.Fatal(err)
	}
	var prot []ProtectedPath
	for i := 0; i < 10; i++ {
		prot = append(prot, ProtectedPath{Path: filepath.Join(root, "p", strconv.Itoa(i), "GOVERNANCE.md"), What: "the governance policy"})
	}
	for _, withProt := range []bool{false, true} {
		opts := EngineOptions{Roots: []string{root}}
		name := "none"
		if withProt {
			opts.Protected, name = prot, "ten"
		}
		e := NewEngine(nil, opts)
		for kind, req := range map[string]Request{
			"write":   {Action: ActionFSWrite, Paths: []string{root + "/src/main.go"}, Cwd: root},
			"command": {Action: ActionTerminalCreate, Command: "go test ./... && git status", Cwd: root},
		} {
			b.Run(kind+"/"+name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					e.Decide(req)
				}
			})
		}
	}
}
