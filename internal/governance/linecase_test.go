package governance

import "testing"

// lineCase is a terminal command line and the decision it must get.
type lineCase struct {
	line string
	want Value
}

// namedLineCase is a lineCase with a name for its subtest.
type namedLineCase struct {
	name, line string
	want       Value
}

// checkLines decides each line as a terminal command run in root and
// checks its value.
func checkLines(t *testing.T, e *Engine, root string, tests []lineCase) {
	t.Helper()
	for _, tt := range tests {
		checkLine(t, e, root, tt.line, tt.want)
	}
}

// checkNamedLines is checkLines with a subtest for each case.
func checkNamedLines(t *testing.T, e *Engine, root string, tests []namedLineCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkLine(t, e, root, tt.line, tt.want) })
	}
}

// checkLine decides line as a terminal command run in root and checks that
// it gets want.
func checkLine(t *testing.T, e *Engine, root, line string, want Value) {
	t.Helper()
	d := e.Decide(Request{Action: ActionTerminalCreate, Command: line, Cwd: root})
	if d.Value != want {
		t.Errorf("Decide(%q) = %v (%s); want %v", line, d.Value, d.Reason, want)
	}
}
