package governance

import "testing"

// readmePolicy is the README's example policy (ask: [Edit], allow: [Read,
// Bash(go test:*)]) with the allow rules of a newcomer's other everyday
// lines.
const readmePolicy = "  default: ask\n  deny: [Read(**/.env), Bash(git push --force:*)]\n  ask: [Edit]\n" +
	"  allow: [Read, Bash(go test:*), Bash(go build:*), Bash(go run:*), Bash(cargo build:*), Bash(cargo test:*), Bash(npm test:*), Bash(make:*), Bash(make test:*)]\n"

// TestOptionsAreNotCreated checks that an everyday allowed line's options,
// and the values of options the bridge knows are never files the program
// creates, are not asked about as names the command may create under the
// README's policy, while an option's value that may be such a file, a word
// after an option the bridge does not know, words after "--" and the
// built-in protections are decided as before.
func TestOptionsAreNotCreated(t *testing.T) {
	root := tempTree(t, []string{"private", "--x"}, []string{"go.mod", ".env"})
	outside := tempTree(t, []string{"x"}, nil)
	checkPolicyLines(t, root, "option_words_lines.txt", map[string]string{"$OUT": outside}, readmePolicy)
}

// TestRuleNamedWordsOfEveryAllowingRule checks that when two allow rules
// match a command, the words each names literally count, not only the
// first rule's.
func TestRuleNamedWordsOfEveryAllowingRule(t *testing.T) {
	root := tempTree(t, nil, []string{"go.mod"})
	e := NewEngine(testPolicy(t, "  default: ask\n  ask: [Edit]\n  allow: [Read, Bash(go:*), Bash(go test:*)]\n"), EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, []namedLineCase{
		{name: "second rule's words", line: "go test ./...", want: Allow},
		{name: "second rule's words with options", line: "go test -v ./...", want: Allow},
		{name: "word neither rule names", line: "go vet ./...", want: RequireApproval},
		{name: "word after both rules' words", line: "go test x", want: RequireApproval},
	})
}
