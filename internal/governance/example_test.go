package governance_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/acp-bridge/acp-bridge/internal/governance"
)

func Example() {
	dir, _ := os.MkdirTemp("", "governance-example")
	defer os.RemoveAll(dir)
	policy := `---
schema: governance.workspace/v1
name: example
title: Example
description: Reads are fine except secrets; tests may run; pushing is denied.
version: 1.0.0
rules:
  default: ask
  deny: [Read(**/.env), Bash(git push:*)]
  allow: [Read, Bash(npm run test:*)]
---
`
	file := filepath.Join(dir, "GOVERNANCE.md")
	_ = os.WriteFile(file, []byte(policy), 0o644)
	p, err := governance.LoadPolicy(file)
	if err != nil {
		fmt.Println(err)
		return
	}
	e := governance.NewEngine(p, governance.EngineOptions{Roots: []string{"/work/app"}})
	for _, req := range []governance.Request{
		{Action: governance.ActionFSRead, Paths: []string{"/work/app/src/main.go"}},
		{Action: governance.ActionFSRead, Paths: []string{"/work/app/src/../.env"}},
		{Action: governance.ActionTerminalCreate, Command: "npm run test && git push", Cwd: "/work/app"},
		{Action: governance.ActionTerminalCreate, Command: "make", Cwd: "/work/app"},
	} {
		d := e.Decide(req)
		fmt.Println(d.Value, d.Ref)
	}
	// Output:
	// allow rules-allow-1
	// deny rules-deny-1
	// deny rules-deny-2
	// require-approval default
}

func ExampleClaudeToolRequest() {
	req, _ := governance.ClaudeToolRequest("Bash", []byte(`{"command":"sudo rm -rf /tmp/x","description":"clean"}`), "/work/app")
	fmt.Println(req.Action, req.Kind, req.Command)
	req, _ = governance.ClaudeToolRequest("Read", []byte(`{"file_path":"/work/app/.env"}`), "/work/app")
	fmt.Println(req.Action, req.Kind, req.Paths)
	// Output:
	// tool.call execute sudo rm -rf /tmp/x
	// tool.call read [/work/app/.env]
}
