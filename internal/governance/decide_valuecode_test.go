package governance

import "testing"

// TestValuesRunAsCommandLines decides variables whose value a program
// runs as a command line under a name no list holds: make takes every
// variable of its environment and every NAME=VALUE operand as a make
// variable, and its built-in rule for a C file runs "$(CC) $(CFLAGS) ...
// -o $@" through sh, running "$(shell ...)" as it expands a value. Before,
// "CC='rm x;' make a" was asked about for CC and the person's approval ran
// rm, which the policy denies; "make CFLAGS='$(shell rm x)' a" was allowed
// by Bash(make:*). A value that looks like a command line has its commands
// decided as the line's own; text ("-O2 -g", "hello world") does not.
func TestValuesRunAsCommandLines(t *testing.T) {
	root := tempTree(t, nil, []string{"a.c", "x"})
	e := rootPolicyEngine(t, root, "  deny: [Bash(rm:*)]\n  allow: [Bash(make:*), Bash(git status), Env]\n")
	checkCommandRows(t, e, root, []commandRow{
		{"CC='rm x;' make a", Deny},
		{"CFLAGS='-O2; rm x' make a", Deny},
		{"export STEP='rm x'; make", Deny},
		{"env STEP='rm x' make", Deny},
		{"STEP='$(shell rm x)' make", Deny},
		{"make CC='rm x;' a", Deny},
		{"make CFLAGS='$(shell rm x)' a", Deny},
		{"make 'CFLAGS:=${shell rm x}' a", Deny},
		{"gmake STEP+='x; rm x' all", Deny},
		{"MSG='rm it' git status", Deny},
		{"CFLAGS='-O2 -g' make a", Allow},
		{"make CFLAGS='-O2 -g' a", Allow},
		{"MSG='hello world' make", Allow},
		{"X='select * from t' make", Allow},
		{"make V=1 a", Allow},
	})
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: "make", Argv: []string{"a"}, Cwd: root, Paths: []string{root},
		Env: []EnvVar{{Name: "CFLAGS", Value: "-O2; rm x;"}}})
	if d.Value != Deny {
		t.Errorf("make a with the request's CFLAGS='-O2; rm x;': %v (%s); want deny", d.Value, d.Reason)
	}
}
