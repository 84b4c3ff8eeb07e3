package governance

import (
	"strings"
	"testing"
)

// TestCommandUnderEveryMember: an execute call is judged on the command
// under every member known to hold one, not on its title; a member of a
// shell tool's input the bridge does not read, holding text, needs
// approval; known shapes (Claude Code's Bash, Gemini CLI's
// run_shell_command, Codex's exec) are decided as before.
func TestCommandUnderEveryMember(t *testing.T) {
	e, root := testEngine(t)
	tests := []struct {
		name, kind, tool, input string
		want                    Value
		ref                     string
	}{
		{"codex exec_command cmd", "execute", "", `{"cmd":"curl https://x.example","yield_time_ms":1000}`, Deny, ""},
		{"argv", "execute", "", `{"argv":["curl","https://x.example"]}`, Deny, ""},
		{"commandLine", "execute", "", `{"commandLine":"rm -rf src"}`, Deny, ""},
		{"command_line", "execute", "", `{"command_line":"rm -rf src"}`, Deny, ""},
		{"shell_command", "execute", "", `{"shell_command":"git push"}`, Deny, ""},
		{"script", "execute", "", `{"script":"curl https://x.example"}`, Deny, ""},
		{"code", "execute", "", `{"code":"curl https://x.example"}`, Deny, ""},
		{"cmd beside an allowed command", "execute", "", `{"command":"echo ok","cmd":"curl https://x.example"}`, Deny, ""},
		{"cmd in a call of another kind", "other", "", `{"cmd":"curl https://x.example"}`, Deny, ""},
		{"a member the bridge does not read", "execute", "", `{"run":"curl https://x.example"}`, RequireApproval, "unread-input"},
		{"beside a command", "execute", "", `{"command":"echo ok","exec":["python3","x.py"]}`, RequireApproval, "unread-input"},
		{"nested", "execute", "", `{"command":"echo ok","opts":{"then":"python3 x.py"}}`, RequireApproval, "unread-input"},
		{"a command member holding no line", "execute", "", `{"cmd":{"line":"python3 x.py"}}`, RequireApproval, "unread-input"},
		{"the hook's Bash", "", "Bash", `{"command":"echo ok","shell":"/tmp/evil"}`, RequireApproval, "unread-input"},
		{"a shell tool of another kind", "other", "run_shell_command", `{"script":"curl https://x.example"}`, Deny, ""},
		{"a shell tool's member not read", "think", "exec", `{"run":"python3 x.py"}`, RequireApproval, "unread-input"},
		{"claude BashOutput", "", "BashOutput", `{"bash_id":"b1","filter":"ok"}`, RequireApproval, "default"},
		{"cmd's args joined unquoted", "execute", "", `{"cmd":"echo","args":["ok;","curl","https://x.example"]}`, Deny, ""},
		{"command's args joined unquoted", "execute", "", `{"command":"echo","args":["ok;","curl","https://x.example"]}`, Deny, ""},
		{"args that are no list", "execute", "", `{"command":"echo","args":"ok; python3 x.py"}`, RequireApproval, "unread-input"},
		{"args beside no command", "execute", "", `{"args":["python3","x.py"]}`, RequireApproval, "unread-input"},
		{"args an allowed command takes", "execute", "", `{"cmd":"echo","args":["ok"]}`, Allow, ""},
		{"an input that is its command line", "execute", "", `"curl https://x.example"`, Deny, ""},
		{"an input that is a list", "execute", "", `["python3","x.py"]`, RequireApproval, "unread-input"},
		{"an input that is its allowed command line", "execute", "", `"echo ok"`, Allow, ""},
		{"a member read as a patch", "execute", "", `{"input":"python3 x.py"}`, RequireApproval, "unread-input"},
		{"a member read as a glob", "execute", "", `{"command":"echo ok","pattern":"python3 x.py"}`, RequireApproval, "unread-input"},
		{"claude Bash", "execute", "Bash", `{"command":"echo ok","description":"say ok","timeout":5000,"run_in_background":false}`, Allow, ""},
		{"gemini run_shell_command", "execute", "", `{"command":"echo ok","description":"say ok","dir_path":"$ROOT","is_background":false}`, Allow, ""},
		{"codex exec", "execute", "", `{"call_id":"c1","turn_id":"t1","command":["echo","ok"],"cwd":"$ROOT","reason":"say ok","parsed_cmd":[{"type":"unknown","cmd":"echo ok"}],"proposed_execpolicy_amendment":["echo"]}`, Allow, ""},
		// The approval request as codex's protocol (approvals.rs) writes it.
		{"codex exec approval", "execute", "", `{"call_id":"c1","approval_id":"a1","turn_id":"t1","started_at_ms":1795757221463,"command":["echo","ok"],"cwd":"$ROOT","reason":"say ok","parsed_cmd":[{"type":"unknown","cmd":"echo ok"}],"available_decisions":["approved","approved_for_session","denied","abort"]}`, Allow, ""},
		{"codex exec approval with more permissions", "execute", "", `{"call_id":"c1","turn_id":"t1","command":["echo","ok"],"cwd":"$ROOT","additional_permissions":{"file_system":{"write":["/etc"]}}}`, RequireApproval, "unread-input"},
		{"codex exec approval with network", "execute", "", `{"call_id":"c1","turn_id":"t1","command":["echo","ok"],"cwd":"$ROOT","network_approval_context":{"host":"x.example","protocol":"https"}}`, RequireApproval, "unread-input"},
		{"codex exec_command", "execute", "", `{"cmd":"echo ok","workdir":"$ROOT","yield_time_ms":1000,"max_output_tokens":100,"login":true}`, Allow, ""},
		{"cmd and command alike", "execute", "", `{"command":"echo ok","cmd":"echo ok"}`, Allow, ""},
		{"a non-execute call's other members", "other", "", `{"command":"echo ok","note":"say ok"}`, Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := []byte(strings.ReplaceAll(tt.input, "$ROOT", root))
			var req Request
			if tt.kind == "" {
				var err error
				if req, err = ClaudeToolRequest(tt.tool, input, root); err != nil {
					t.Fatal(err)
				}
			} else {
				req = ToolCallRequest(ToolCall{Kind: tt.kind, Tool: tt.tool, Title: "echo ok", RawInput: input}, root)
			}
			d := e.Decide(req)
			if d.Value != tt.want || tt.ref != "" && d.Ref != tt.ref {
				t.Errorf("Decide(%s) = %s (%s: %s); want %s (%s)", input, d.Value, d.Ref, d.Reason, tt.want, tt.ref)
			}
		})
	}
}

// TestTitleShowsEveryCommandMember: the person asked about a call whose
// input names several commands, or holds members the bridge does not
// read, sees each of them.
func TestTitleShowsEveryCommandMember(t *testing.T) {
	const cwd = "/ws"
	checkTitles(t, "shownTitle", shownTitle, cwd, []titleCase{
		{"two commands", Request{Kind: "execute", Title: "ls", Command: "ls", OtherCommands: []string{"python3 x.py"}, Cwd: cwd},
			"`ls` or `python3 x.py`", true},
		{"args joined unquoted", Request{Kind: "execute", Title: "echo ok", Command: "echo 'ok;' python3 x.py", Cwd: cwd,
			Argv: []string{"echo", "ok;", "python3", "x.py"}},
			"`echo 'ok;' python3 x.py` or `echo ok; python3 x.py`", true},
		{"a member not read", Request{Kind: "execute", Title: "ls", Command: "ls", Cwd: cwd,
			UnreadInput: []InputMember{{"run", "python3 x.py"}}},
			"ls; input `run` `python3 x.py`", true},
		{"a member not read, the title rewritten", Request{Kind: "execute", Title: "echo ok", Command: "ls", Cwd: cwd,
			UnreadInput: []InputMember{{"opts", `{"then":"python3 x.py"}`}}},
			"`ls`; input `opts` `{\"then\":\"python3 x.py\"}`", true},
	})
}
