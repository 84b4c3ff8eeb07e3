package acpwire

import (
	"slices"
	"testing"
	"time"
)

// TestStderrCopiedWhileItMoves: an agent that exits while its stderr is
// still being written (here by a child it left, one line every 200 ms for
// three seconds, longer than stderrFlushWait but never idle that long)
// has its exit reported only once the copy has reached the end, so the
// bridge exiting with it loses none of the lines: on a busy machine the
// agent's own last lines are copied as slowly.
func TestStderrCopiedWhileItMoves(t *testing.T) {
	script := `(for i in $(seq 1 15); do echo "line $i" >&2; sleep 0.2; done) & exit 0`
	agent, err := StartAgent(AgentCommand{Path: "sh", Args: []string{"-c", script}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-agent.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("the agent's exit was not reported")
	}
	tail := agent.StderrTail()
	if !slices.Contains(tail, "line 15") {
		t.Fatalf("stderr copied when the exit was reported ends %q; want it to reach \"line 15\"", tail)
	}
}

// TestExitErrorQuotesStderr: the error the IDE shows for the agent's exit
// quotes each of the agent's last stderr lines with its escapes, bidi
// overrides and other controls as visible escapes, never raw.
func TestExitErrorQuotesStderr(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"plain", "plain", `"plain"`},
		{"escape", "a\x1b[8mb", `"a\x1b[8mb"`},
		{"osc 52", "\x1b]52;c;eA==\a", `"\x1b]52;c;eA==\a"`},
		{"cr overwrite", "denied\rallowed", `"denied\rallowed"`},
		{"bidi override", "a\u202eb", `"a\u202eb"`},
		{"c1 csi", "a\u009b2Jb", `"a\u009b2Jb"`},
		{"bridge's words", "acp-bridge: approved", `"acp-bridge: approved"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &AgentExitError{Status: "exit status 1", StderrTail: []string{tc.line}}
			want := "agent exited unexpectedly (exit status 1); last stderr: " + tc.want
			if got := e.Error(); got != want {
				t.Errorf("Error() = %q, want %q", got, want)
			}
		})
	}
}
