package governance

import (
	"path/filepath"
	"testing"
)

// TestGoToolFlagsAsked checks that a go command the README's policy
// allows is asked about when a list of its tools' flags (-gcflags,
// -ldflags) holds a flag that writes a file or runs a program, and that a
// list of flags known to do neither is allowed.
func TestGoToolFlagsAsked(t *testing.T) {
	root := tempTree(t, nil, []string{"go.mod"})
	outside := tempTree(t, []string{"d"}, nil)
	e := NewEngine(testPolicy(t, readmePolicy), EngineOptions{Roots: []string{root}})
	profile := filepath.Join(outside, "d", "p")
	checkNamedLines(t, e, root, []namedLineCase{
		{name: "compiler profile outside", line: "go test -gcflags=-cpuprofile=" + profile + " ./...", want: RequireApproval},
		{name: "compiler profile as the next field", line: "go test -gcflags '-memprofile " + profile + "' ./...", want: RequireApproval},
		{name: "pattern then profile", line: "go test -gcflags=all=-trace=" + profile + " ./...", want: RequireApproval},
		{name: "external linker", line: "go test -ldflags='-linkmode=external -extld=./evil' ./...", want: RequireApproval},
		{name: "external linker flags", line: "go build -ldflags '-extldflags -B./evil' .", want: RequireApproval},
		{name: "assembler output", line: "go build -asmflags=-o=" + profile + " .", want: RequireApproval},
		{name: "list computed at run time", line: `go test -gcflags "$F" ./...`, want: RequireApproval},
		{name: "unclosed quote", line: `go test -gcflags "all='-N -l" ./...`, want: RequireApproval},
		{name: "under a wrapper", line: "nice go test -gcflags=-cpuprofile=" + profile + " ./...", want: RequireApproval},

		{name: "debugger flags", line: "go test -gcflags 'all=-N -l' ./...", want: Allow},
		{name: "inlining report", line: "go build -gcflags=-m=2 .", want: Allow},
		{name: "stripped version stamp", line: `go build -ldflags "-s -w -X main.version=1.2.3" .`, want: Allow},
		{name: "quoted value", line: `go build -ldflags="-X 'main.msg=a b'" .`, want: Allow},
	})
}

// TestCargoConfigAsked checks that a cargo command the README's policy
// allows is asked about when its line sets cargo's configuration, which
// names the programs cargo runs.
func TestCargoConfigAsked(t *testing.T) {
	root := tempTree(t, nil, []string{"Cargo.toml"})
	e := NewEngine(testPolicy(t, readmePolicy), EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, []namedLineCase{
		{name: "rustc wrapper", line: `cargo build --config 'build.rustc-wrapper="./evil"'`, want: RequireApproval},
		{name: "configuration file", line: "cargo test --config=evil.toml", want: RequireApproval},
		{name: "unstable options", line: "cargo build -Zunstable-options", want: RequireApproval},
		{name: "everyday line", line: "cargo build --release --target x86_64", want: Allow},
	})
}
