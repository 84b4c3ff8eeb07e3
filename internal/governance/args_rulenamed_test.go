package governance

import (
	"path/filepath"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// TestRuleNamedWordsAreNotCreated checks that the words a command's
// allowing rule names literally ("test" of Bash(go test:*)) are not asked
// about as names the command may create, under the README's policy, while
// the words the command runs with after them, an existing file a rule
// refuses and the built-in protections are decided as before.
func TestRuleNamedWordsAreNotCreated(t *testing.T) {
	root := tempTree(t, []string{"sub", "private"}, []string{"sub/test", "go.mod"})
	p := testPolicy(t, "  default: ask\n  deny: [Read(**/.env), Bash(git push --force:*), Read(**/sub/test), Read(./private), Edit(**/secret.txt)]\n  ask: [Edit]\n"+
		"  allow: [Read, Bash(go test:*), Bash(make test:*), Bash(npm test), Bash(cargo build:*), Bash(touch:*)]\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, namedLineCases(t, "rule_named_lines.txt", nil))
	// An existing file a rule refuses, named by the rule's own word.
	checkNamedLines(t, e, filepath.Join(root, "sub"), []namedLineCase{
		{name: "existing denied file named by the rule's word", line: "go test", want: Deny},
	})
}

// TestRuleNamedWordsFollowTheAllowingRule checks that only the rule that
// decided the command names its words: Bash(go:*) names "go" alone.
func TestRuleNamedWordsFollowTheAllowingRule(t *testing.T) {
	root := tempTree(t, nil, []string{"go.mod"})
	p := testPolicy(t, "  default: ask\n  ask: [Edit]\n  allow: [Read, Bash(go:*), Bash(npm run *)]\n")
	e := NewEngine(p, EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, []namedLineCase{
		{name: "subcommand after the rule's words", line: "go test", want: RequireApproval},
		{name: "words before a trailing star", line: "npm run", want: Allow},
		{name: "word the star matches", line: "npm run build", want: RequireApproval},
	})
}

// TestGoPackagePattern checks which words of a go command are package
// patterns go never creates a file for.
func TestGoPackagePattern(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool // the last word is a package pattern
	}{
		{"go test ./...", true},
		{"go test -v ./...", true},
		{"go test -run X ./internal/...", true},
		{"go test -count=1 ./...", true},
		{"go build -o ./...", false},
		{"go test -coverprofile ./...", false},
		{"go test -args ./...", false},
		{"go test ./x -- ./...", false},
		{"go test ./x", false},
		{"go test -o...", false},
	} {
		a := shellcmd.Analyze(tt.line, shellcmd.Options{})
		form := a.Commands[0].Forms[0]
		if got := goPackagePattern(form, len(form)-1); got != tt.want {
			t.Errorf("goPackagePattern(%q) = %v; want %v", tt.line, got, tt.want)
		}
	}
	checkFunc(t, "goPatternDir", goPatternDir, map[string]string{"./...": ".", "...": ".", "./internal/...": "./internal",
		"../x/y...": "../x", "/etc/...": "/etc", "/...": "/", "example.com/m/...": "example.com/m"})
}
