package governance

import (
	"fmt"
	"path/filepath"
	"testing"
)

// rootsHidesPolicy denies reading secrets, asks before reading ask.txt,
// escalates an edit of esc.txt and a read of escr.txt and allows commands, variables and a tool
// that read or may change the files they name.
const rootsHidesPolicy = `---
schema: governance.workspace/v1
name: roots-hides
title: secrets are denied
description: the secrets may not be read, by any name
version: 1.0.0
autonomy:
  level: 2
  defaultApproval: on-mutate
rules:
  deny:
    - Read(**/.env)
    - Read(./a/secret.txt)
  ask:
    - Read(./a/ask.txt)
  escalate:
    - Edit(./a/esc.txt)
    - Read(./a/escr.txt)
  allow:
    - Bash(cat:*)
    - Bash(grep:*)
    - Bash(echo:*)
    - Bash(make:*)
    - Bash(cd:*)
    - Bash(mytool:*)
    - Env(ENV_FILE)
    - Env(COVERAGE_FILE)
    - mcp__ide__open
---
`

// rootsHidesEngine makes the tree of TestRootsHidesRule beneath a
// temporary directory and returns the engine of rootsHidesPolicy with its
// workspace root and the directory outside it.
func rootsHidesEngine(t *testing.T) (e *Engine, root, out string) {
	tmp := t.TempDir()
	root, out = filepath.Join(tmp, "ws"), filepath.Join(tmp, "out")
	tree{
		dirs:  []string{"ws/a/b/c", "out", "out3"},
		files: []string{"ws/a/.env", "ws/a/secret.txt", "ws/a/ask.txt", "ws/a/esc.txt", "ws/a/escr.txt", "out/plain", "ask.txt"},
		links: map[string]string{"ws/d": "a/b/c", "out/env": root + "/a/.env", "out/secret": root + "/a/secret.txt",
			"out/ask": root + "/a/ask.txt", "out/esc": root + "/a/esc.txt", "out3/escr": root + "/a/escr.txt"},
	}.make(t, tmp)
	return engineOfPolicy(t, tmp, "GOVERNANCE.md", rootsHidesPolicy, root), root, out
}

// TestRootsHidesRule: a path written outside the workspace roots (a
// symlink there, or ".." after a symlink in the workspace) that leads to
// a file a rule denies or asks about is decided by that rule, not by the
// built-in deny of paths outside the roots, which the deciders of a read
// operand turn into a question and those of a variable's value, of a part
// of a word, of a tool's input and of a tree read pass over; so is a name that leads
// outside the roots in one place its command may run and to such a file
// in another.
func TestRootsHidesRule(t *testing.T) {
	e, root, out := rootsHidesEngine(t)
	for _, c := range caseRows(t, "roots_hides_lines.txt", 4, map[string]string{"$OUT": out, "$OUT3": out + "3"}) {
		t.Run(c.fields[0], func(t *testing.T) {
			where := fmt.Sprintf("roots_hides_lines.txt:%d", c.line)
			checkRuleOfLine(t, e, root, where, c.fields[1], Value(c.fields[2]), c.fields[3])
		})
	}
}

// TestRootsHidesRuleMentioned: a tool's input naming a file outside the
// roots that leads to a denied one is denied by the rule, to one asked
// about asked about: the strings of an input are held to rules, not to
// the workspace roots.
func TestRootsHidesRuleMentioned(t *testing.T) {
	e, root, out := rootsHidesEngine(t)
	checkMentioned(t, e, root, Deny, out+"/env", out+"/secret", root+"/d/../../secret.txt", root+"/a/.env")
	checkMentioned(t, e, root, RequireApproval, out+"/ask", root+"/d/../../ask.txt", root+"/a/ask.txt")
	checkMentioned(t, e, root, Allow, out+"/plain")
}
