package governance

import (
	"fmt"
	"testing"
)

// lineCase is a terminal command line and the decision it must get, read
// at file:line at.
type lineCase struct {
	line string
	want Value
	at   string
}

// lineCases reads testdata/cases/name (caseRows) into line cases:
// LINE<TAB>DECISION.
func lineCases(t *testing.T, name string, vars map[string]string) []lineCase {
	t.Helper()
	return readCases(t, name, 2, vars, func(c caseRow) lineCase {
		return lineCase{line: c.fields[0], want: Value(c.fields[1]), at: fmt.Sprintf("%s:%d", name, c.line)}
	})
}

// namedLineCase is a terminal command line, the decision it must get and
// the name of its subtest.
type namedLineCase struct {
	name, line string
	want       Value
}

// namedLineCases reads testdata/cases/name (caseRows) into named line
// cases: NAME<TAB>LINE<TAB>DECISION.
func namedLineCases(t *testing.T, name string, vars map[string]string) []namedLineCase {
	t.Helper()
	return readCases(t, name, 3, vars, func(c caseRow) namedLineCase {
		return namedLineCase{name: c.fields[0], line: c.fields[1], want: Value(c.fields[2])}
	})
}

// lineDecisionCases reads testdata/cases/name (caseRows) into line
// decisions: NAME<TAB>LINE<TAB>DECISION<TAB>WHAT, WHAT "" when the line is
// allowed.
func lineDecisionCases(t *testing.T, name string, vars map[string]string) []lineDecision {
	t.Helper()
	return readCases(t, name, 4, vars, func(c caseRow) lineDecision {
		return lineDecision{name: c.fields[0], line: c.fields[1], want: Value(c.fields[2]), what: c.fields[3]}
	})
}

// dirLineDecision is a line decision run in cwd, a directory relative to
// the workspace's top.
type dirLineDecision struct {
	name, line, cwd string
	want            Value
	what            string
}

// dirLineDecisionCases reads testdata/cases/name (caseRows) into line
// decisions run in a directory: NAME<TAB>LINE<TAB>CWD<TAB>DECISION<TAB>WHAT,
// CWD relative to the workspace's top ("." for the top), WHAT "" when the
// line is allowed.
func dirLineDecisionCases(t *testing.T, name string, vars map[string]string) []dirLineDecision {
	t.Helper()
	return readCases(t, name, 5, vars, func(c caseRow) dirLineDecision {
		return dirLineDecision{name: c.fields[0], line: c.fields[1], cwd: c.fields[2], want: Value(c.fields[3]), what: c.fields[4]}
	})
}

// checkLines decides each line as a terminal command run in root and
// checks its value, in a subtest named for where the case was read.
func checkLines(t *testing.T, e *Engine, root string, tests []lineCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.at, func(t *testing.T) { checkLine(t, e, root, tt.line, tt.want) })
	}
}

// checkNamedLines is checkLines for named cases.
func checkNamedLines(t *testing.T, e *Engine, root string, tests []namedLineCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLine(t, e, root, tt.line, tt.want) })
	}
}

// checkPolicyLines decides the named lines of testdata/cases/name
// (namedLineCases, vars replaced) as terminal commands run in root, under
// a policy whose "rules:" mapping is rules (testPolicy) with root as its
// workspace root, and checks each line's value (checkNamedLines).
func checkPolicyLines(t *testing.T, root, name string, vars map[string]string, rules string) {
	t.Helper()
	e := NewEngine(testPolicy(t, rules), EngineOptions{Roots: []string{root}})
	checkNamedLines(t, e, root, namedLineCases(t, name, vars))
}

// checkLine decides line as a terminal command run in dir and checks that
// it gets want.
func checkLine(t *testing.T, e *Engine, dir, line string, want Value) {
	t.Helper()
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: dir})
	if d.Value != want {
		t.Errorf("Decide(%q) in %s = %v (%s); want %v", line, dir, d.Value, d.Reason, want)
	}
}

// commandRow is a terminal command line and the decision it must get.
type commandRow struct {
	line string
	want Value
}

// checkCommandRows decides each row's line as a terminal command run in
// root, with root as the request's path, and checks its value.
func checkCommandRows(t *testing.T, e *Engine, root string, rows []commandRow) {
	t.Helper()
	for _, c := range rows {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: root, Paths: []string{root}})
		if d.Value != c.want {
			t.Errorf("%q: %v (ref %s: %s); want %v", c.line, d.Value, d.Ref, d.Reason, c.want)
		}
	}
}

// checkCommandLines decides each line of testdata/cases/name (lineCases:
// LINE<TAB>DECISION) as checkCommandRows does its rows, a terminal command
// run in root with root as the request's path, and checks its value.
func checkCommandLines(t *testing.T, e *Engine, root, name string, vars map[string]string) {
	t.Helper()
	for _, c := range lineCases(t, name, vars) {
		d := e.Decide(Request{Action: ActionTerminalCreate, Command: c.line, Cwd: root, Paths: []string{root}})
		if d.Value != c.want {
			t.Errorf("%s: %q = %v (ref %s: %s); want %s", c.at, c.line, d.Value, d.Ref, d.Reason, c.want)
		}
	}
}
