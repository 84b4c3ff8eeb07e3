package governance

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlaceCommand: a command runs in the directory its input names,
// under any agent's spelling of the member; a member that only looks like
// one is a directory it may run in beside the session's; two different
// directories, or one the bridge cannot place, need approval.
func TestPlaceCommand(t *testing.T) {
	const unclear = "the tool's input says where the command runs in a way the bridge cannot follow: "
	tests := []struct {
		name, input string
		kind        string
		want        Request
	}{
		{"codex workdir", `{"command":["bash","-lc","ls"],"workdir":"/o"}`, "execute",
			Request{Command: "bash -lc ls", Cwd: "/o", Paths: []string{"/o"}, Mentioned: []string{"/o"}}},
		{"gemini dir_path", `{"command":"ls","dir_path":"/w/sub"}`, "execute",
			Request{Command: "ls", Cwd: "/w/sub", Paths: []string{"/w/sub"}}},
		{"a relative dir_path stays relative", `{"command":"ls","dir_path":"sub"}`, "execute",
			Request{Command: "ls", Cwd: "sub", Paths: []string{"sub"}}},
		{"working_directory", `{"command":"ls","working_directory":"/o"}`, "execute",
			Request{Command: "ls", Cwd: "/o", Paths: []string{"/o"}}},
		{"workingDir", `{"command":"ls","workingDir":"/o"}`, "execute",
			Request{Command: "ls", Cwd: "/o", Paths: []string{"/o"}, Mentioned: []string{"/o"}}},
		{"cwd and workdir alike", `{"command":"ls","cwd":"/w/sub","workdir":"/w/sub/"}`, "execute",
			Request{Command: "ls", Cwd: "/w/sub", Paths: []string{"/w/sub"}, Mentioned: []string{"/w/sub/"}}},
		{"cwd and workdir differ", `{"command":"ls","cwd":"/w","workdir":"/o"}`, "execute",
			Request{Command: "ls", Cwd: "/w", Paths: []string{"/w"}, OtherCwds: []string{"/o"}, Mentioned: []string{"/o"},
				RunDirUnclear: unclear + "it names cwd /w and workdir /o, and the agent runs the command in one of them"}},
		{"a name that looks like a directory's", `{"command":"ls","exec_dir":"/o"}`, "execute",
			Request{Command: "ls", Cwd: "/w", OtherCwds: []string{"/o"}, Mentioned: []string{"/o"}}},
		{"in any case and separator", `{"command":"ls","Exec-CWD":"/o"}`, "execute",
			Request{Command: "ls", Cwd: "/w", OtherCwds: []string{"/o"}, Mentioned: []string{"/o"}}},
		{"a relative one of its own spelling", `{"command":"ls","output_dir":"build"}`, "execute",
			Request{Command: "ls", Cwd: "/w", Mentioned: []string{"build"},
				RunDirUnclear: unclear + `its output_dir "build" is relative, and the bridge cannot tell to what`}},
		{"a directory that is no string", `{"command":"ls","workdir":["/o"]}`, "execute",
			Request{Command: "ls", Cwd: "/w", Mentioned: []string{"/o"}, RunDirUnclear: unclear + "its workdir is not a string"}},
		{"a command in a call of another kind", `{"command":"ls","workdir":"/o"}`, "other",
			Request{Command: "ls", Cwd: "/o", Paths: []string{"/o"}, Mentioned: []string{"/o"}}},
		{"no command: not placed", `{"file_path":"/w/a","workdir":"/o"}`, "edit",
			Request{Cwd: "/w", Paths: []string{"/w/a"}, Mentioned: []string{"/o"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ToolCallRequest(ToolCall{Kind: tt.kind, Title: "t", RawInput: []byte(tt.input)}, "/w")
			want := tt.want
			want.Action, want.Kind, want.Title = ActionToolCall, tt.kind, "t"
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ToolCallRequest(%s) (-want +got):\n%s", tt.input, diff)
			}
		})
	}
}

// TestCommandDecidedWhereItRuns: a command is decided in the directory its
// input names, so "echo x > src/a.txt", allowed in the workspace, is
// refused where the agent runs it outside; in each directory it may run
// in; and the person is asked when the input names two.
func TestCommandDecidedWhereItRuns(t *testing.T) {
	e, root := testEngine(t)
	out := filepath.Join(filepath.Dir(root), "outside")
	tests := []struct {
		name, input string
		want        Value
		ref         string
	}{
		{"in the workspace", `{"command":"echo x > src/a.txt"}`, Allow, ""},
		{"codex workdir outside", `{"command":["bash","-lc","echo x > src/a.txt"],"workdir":"$OUT"}`, Deny, "workspace-roots"},
		{"gemini dir_path outside", `{"command":"echo x > src/a.txt","dir_path":"$OUT"}`, Deny, "workspace-roots"},
		{"workingDir outside", `{"command":"echo x > src/a.txt","workingDir":"$OUT"}`, Deny, "workspace-roots"},
		{"a name that looks like a directory's", `{"command":"echo x > src/a.txt","exec_dir":"$OUT"}`, Deny, "workspace-roots"},
		{"cwd and workdir alike", `{"command":"echo x > a.txt","cwd":"$ROOT/src","workdir":"$ROOT/src"}`, Allow, ""},
		{"cwd and workdir differ", `{"command":"echo x > a.txt","cwd":"$ROOT/src","working_dir":"$ROOT/src/sub"}`, RequireApproval, "run-directory"},
		{"a relative one of its own spelling", `{"command":"echo x > a.txt","cwd":"$ROOT/src","output_dir":"build"}`, RequireApproval, "run-directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := strings.NewReplacer("$ROOT", root, "$OUT", out).Replace(tt.input)
			d := e.Decide(ToolCallRequest(ToolCall{Kind: "execute", Title: "t", RawInput: []byte(input)}, root))
			if d.Value != tt.want || tt.ref != "" && d.Ref != tt.ref {
				t.Errorf("Decide(%s) = %s (%s: %s); want %s (%s)", input, d.Value, d.Ref, d.Reason, tt.want, tt.ref)
			}
		})
	}
	// Claude Code's hook: a Bash input naming a directory is decided there.
	req, err := ClaudeToolRequest("Bash", []byte(`{"command":"echo x > src/a.txt","workdir":"`+out+`"}`), root)
	if err != nil {
		t.Fatal(err)
	}
	if d := e.Decide(req); d.Value != Deny {
		t.Errorf("the hook's Bash with a workdir outside: %s (%s); want deny", d.Value, d.Reason)
	}
}

// TestTitleShowsEveryDirectory: the person asked about a command that may
// run in several directories sees each of them.
func TestTitleShowsEveryDirectory(t *testing.T) {
	const cwd = "/ws"
	checkTitles(t, "shownTitle", shownTitle, cwd, []titleCase{
		{"two directories", Request{Kind: "execute", Title: "ls", Command: "ls", Cwd: cwd, Paths: []string{cwd}, OtherCwds: []string{"/ws/sub"}},
			"`ls` in `/ws` or `sub`", true},
		{"elsewhere and here", Request{Kind: "execute", Title: "ls", Command: "ls", Cwd: "/ws/a", Paths: []string{"/ws/a"}, OtherCwds: []string{"/o"}},
			"`ls` in `a` or `/o`", true},
	})
}
