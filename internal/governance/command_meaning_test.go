package governance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRulesMeanTheirOptions: a restricting prefix rule that names options
// or a subcommand matches every spelling a program reads as the same
// options, so that under a policy that allows the rest, "rm -r -f x",
// "rm --recursive --force x" and "git -C . push --force" are refused as
// "rm -rf:*" and "git push --force:*" say; spellings that mean something
// else are not.
func TestRulesMeanTheirOptions(t *testing.T) {
	root := tempTree(t, nil, []string{"x"})
	e := rootPolicyEngine(t, root, "  default: allow\n"+
		"  deny: [Bash(rm -rf:*), Bash(git push --force:*), Bash(kubectl delete:*), Bash(curl -X POST:*), "+
		"Bash(npm publish:*), Bash(docker run --privileged:*)]\n"+
		"  ask: [Bash(git reset --soft:*)]\n")
	checkCommandLines(t, e, root, "option_meaning_lines.txt", nil)
}

// TestAllowRulesStillWordForWord: an allow rule vouches only for the words
// it names; the meaning of options widens restricting rules alone.
func TestAllowRulesStillWordForWord(t *testing.T) {
	root := tempTree(t, nil, []string{"x"})
	e := rootPolicyEngine(t, root, "  default: ask\n  allow: [Bash(rm -rf:*), Bash(git push --force:*)]\n")
	for _, line := range []string{"rm -r -f x", "rm --recursive --force x", "git -C . push --force"} {
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root, Paths: []string{root}}); d.Value != RequireApproval {
			t.Errorf("%q = %v (%s); want require-approval: no allow rule names these words", line, d.Value, d.Reason)
		}
	}
}

// FuzzRuleMeaning: any restricting prefix rule is read without a panic,
// and a command that spells the rule's own words, or those followed by
// operands, matches it.
func FuzzRuleMeaning(f *testing.F) {
	for _, s := range [][2]string{
		{"rm -rf", "x"}, {"git push --force", "origin"}, {"curl -X POST", "u"}, {"npm publish", "pkg"},
		{"kubectl delete", "pod"}, {"git push -- --force", "x"}, {"x -", "-"}, {"tar --to-command=sh", "f"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rule, operands string) {
		p, err := compileCommandPattern(rule + ":*")
		if err != nil || p.meaning == nil || p.glob {
			return
		}
		if l := p.matchForm(ruleWords(p.words, false), true); l != doesMatch {
			t.Fatalf("%q does not match its own words: %v", rule, l)
		}
		for _, w := range p.words {
			if name, _, _ := strings.Cut(strings.TrimPrefix(w, "--"), "="); strings.HasPrefix(w, "--") && len(name) == 1 {
				return // a long option of one letter reads as that letter
			}
		}
		more := strings.Fields(operands)
		for _, w := range more {
			if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
				return // an option may take one of the rule's back
			}
		}
		with := ruleWords(append(append([]string(nil), p.words...), more...), false)
		if l := p.meaning.match(with); l != doesMatch {
			t.Fatalf("%q does not match %q: %v", rule, joinWords(with, false), l)
		}
	})
}

// FuzzDecideUnderOptionRules: any line is decided, completely, under
// restricting rules that name options and subcommands, and one that ends
// in the words of a deny rule's own spelling is never allowed.
func FuzzDecideUnderOptionRules(f *testing.F) {
	root := f.TempDir()
	pol := filepath.Join(root, "GOVERNANCE.md")
	text := "---\nschema: governance.workspace/v1\nname: test-policy\ntitle: Test policy\ndescription: A test policy.\nversion: 1.0.0\n" +
		"rules:\n  default: allow\n" +
		"  deny: [Bash(rm -rf:*), Bash(git push --force:*), Bash(kubectl delete:*), Bash(curl -X POST:*), Bash(npm publish:*)]\n---\n"
	if err := os.WriteFile(pol, []byte(text), 0o644); err != nil {
		f.Fatal(err)
	}
	p, err := LoadPolicy(pol)
	if err != nil {
		f.Fatal(err)
	}
	e := NewEngine(p, EngineOptions{Roots: []string{root}, Protected: []ProtectedPath{{Path: pol, What: "the governance policy"}}})
	for _, s := range []string{"rm -r -f x", "git -C . push -f", "kubectl -n a delete b", "curl -XPOST u", "npm publ", "echo $X -- -rf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root, Roots: []string{root}})
		if d.Value == "" || d.Rule == "" {
			t.Fatalf("%q: incomplete decision %+v", line, d)
		}
		for _, denied := range []string{"rm -rf x", "git push --force"} {
			if strings.HasPrefix(strings.TrimSpace(line), denied+" ") && !strings.ContainsAny(line, "\n;&|#`$()<>\\'\"{}*?[]=~!") && d.Value == Allow {
				t.Fatalf("%q is allowed past the rule it spells", line)
			}
		}
	})
}

// TestRuleNamingProgramByPath: a restricting rule that names a program by
// its path also refuses the program run by its name (a search of PATH may
// lead there) or by another path to a file of that name, in every
// spelling of its options; before, Bash(/usr/bin/rm -rf:*) let rm -rf x
// run.
func TestRuleNamingProgramByPath(t *testing.T) {
	root := tempTree(t, nil, []string{"x"})
	e := rootPolicyEngine(t, root, "  default: allow\n  deny: [Bash(/usr/bin/rm -rf:*)]\n")
	for _, c := range []struct {
		line string
		want Value
	}{
		{"/usr/bin/rm -rf x", Deny},
		{"rm -rf x", Deny},
		{"/bin/rm -r -f x", Deny},
		{"rm --recursive --force x", Deny},
		{"rm -f x", Allow},
		{"echo rm -rf x", Allow},
	} {
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: root, Roots: []string{root}}); d.Value != c.want {
			t.Errorf("%q = %v (%s); want %v", c.line, d.Value, d.Reason, c.want)
		}
	}
}
