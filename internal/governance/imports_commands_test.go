package governance

import "testing"

// TestInstructionWritesByCommands: a command's write of a file an agent
// loads as instructions needs approval (its text is not known when it is
// decided, and an '@' in it imports a file into the model's context); a
// read of one, a command's write of another file, and a tool's write whose
// text the request holds are decided as before.
func TestInstructionWritesByCommands(t *testing.T) {
	root := t.TempDir()
	tree{files: []string{"GEMINI.md", "notes.md", "x.md"}, dirs: []string{".claude/rules"}}.make(t, root)
	e := NewEngine(testPolicy(t, "  default: allow\n"), EngineOptions{Roots: []string{root}})
	for _, tc := range []struct {
		line string
		want Value
	}{
		{`printf 'Settings: \100.env\n' >> GEMINI.md`, RequireApproval},
		{"echo hi > CLAUDE.md", RequireApproval},
		{"tee -a claude.local.md < x.md", RequireApproval},
		{"sed -i s/a/b/ AGENTS.md", RequireApproval},
		{"cp x.md .claude/rules/a.md", RequireApproval},
		{"cat GEMINI.md", Allow},
		{"echo x > notes.md", Allow},
	} {
		if d := e.Decide(Request{Action: ActionTerminalCreate, Command: tc.line, Cwd: root}); d.Value != tc.want {
			t.Errorf("%q = %v (%s); want %v", tc.line, d.Value, d.Reason, tc.want)
		}
	}
	if d := e.Decide(Request{Action: ActionToolCall, Tool: "Write", Kind: "edit", Paths: []string{root + "/CLAUDE.md"}, Cwd: root}); d.Value != Allow {
		t.Errorf("a Write of CLAUDE.md = %v (%s); want allow (its text is judged by its imports)", d.Value, d.Reason)
	}
}
