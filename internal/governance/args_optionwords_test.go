package governance

import (
	"path/filepath"
	"testing"
)

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
	e := NewEngine(testPolicy(t, readmePolicy), EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, []namedLineCase{
		{name: "go test -v", line: "go test -v ./...", want: Allow},
		{name: "go test -run value", line: "go test -run TestX ./...", want: Allow},
		{name: "go test -timeout value", line: "go test -timeout 30s ./...", want: Allow},
		{name: "go test attached values", line: "go test -count=1 -run=TestX -race ./...", want: Allow},
		{name: "go test options after the packages", line: "go test ./... -run TestX -v", want: Allow},
		{name: "go test double dash option", line: "go test --count 2 ./...", want: Allow},
		{name: "cargo build --release", line: "cargo build --release", want: Allow},
		{name: "cargo build --target value", line: "cargo build --release --target x86_64", want: Allow},
		{name: "cargo build -j cluster", line: "cargo build -vj4 -p core", want: Allow},
		{name: "cargo build --target=value", line: "cargo build --target=x86_64-unknown-linux-gnu", want: Allow},
		{name: "npm test --silent", line: "npm test --silent --workspace web", want: Allow},
		{name: "bash -c", line: `bash -c "go test ./..."`, want: Allow},
		{name: "sh -c with options inside", line: `sh -ec "go test -v -run TestX ./..."`, want: Allow},
		{name: "bash -lc of a one-word rule", line: `bash -lc "make test"`, want: Allow},
		{name: "under a wrapper", line: "nice go test -run TestX ./...", want: Allow},
		{name: "under timeout", line: "timeout -k 5s 300 go test -v ./...", want: Allow},
		{name: "under nice -n", line: "nice -n 10 go test ./...", want: Allow},
		{name: "word after timeout's command", line: "timeout 300 go test x", want: RequireApproval},
		{name: "make with a flag", line: "make test -s", want: Allow},

		{name: "go test operand", line: "go test x", want: RequireApproval},
		{name: "go test denied operand", line: "go test .env", want: Deny},
		{name: "go test -o protected missing", line: "go test -c -o .mcp.json", want: Deny},
		{name: "go test -o new file", line: "go test -c -o t.bin", want: RequireApproval},
		{name: "go test -coverprofile=", line: "go test -coverprofile=c.out ./...", want: RequireApproval},
		{name: "go test -exec program", line: "go test -exec ./evil ./...", want: RequireApproval},
		{name: "go build -o an option-looking name", line: "go build -o -v .", want: RequireApproval},
		{name: "go attached value of an unknown flag", line: "go test -o.env", want: Deny},
		{name: "go test -args", line: "go test ./... -args -count 3", want: RequireApproval},
		{name: "go run program's words", line: "go run . -count 3", want: RequireApproval},
		{name: "go test after --", line: "go test -- -v", want: RequireApproval},
		{name: "cargo --manifest-path outside", line: "cargo build --manifest-path " + filepath.Join(outside, "x", "Cargo.toml"), want: Deny},
		{name: "cargo --target-dir outside", line: "cargo build --target-dir " + filepath.Join(outside, "x", "t"), want: Deny},
		{name: "cargo unknown letter's attached value", line: "cargo build -o.env", want: Deny},
		{name: "cargo test after --", line: "cargo test -- --nocapture", want: RequireApproval},
		{name: "word after an unknown option", line: "make -o -x", want: RequireApproval},
		{name: "option word holding a path", line: "make --x/../new.txt", want: RequireApproval},
		{name: "value after an unknown option", line: "make -j 4 test", want: RequireApproval},
		{name: "bash -c's positional words", line: `bash -c "go test ./..." x out.txt`, want: RequireApproval},
		{name: "bash -c denied inside", line: `bash -c "go test .env"`, want: Deny},
		{name: "denied outside the roots", line: "go test -run TestX " + filepath.Join(outside, "x", "new"), want: Deny},
	})
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
