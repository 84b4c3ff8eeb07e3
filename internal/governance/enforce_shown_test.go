package governance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// permissionLine is a permission request of the agent's about toolCall.
func permissionLine(id int, toolCall string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":%s,"options":[{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}`, id, toolCall)
}

// TestPermissionShowsJudgedCommand: a permission request the bridge
// forwards shows the person the command it judged. Zed shows an execute
// call's title as its command line and never its rawInput, so a title that
// reads as another command than rawInput's is replaced by the judged one
// (the rest byte for byte) and the title shown recorded; a title that
// already reads as the judged command, a command only the title carries
// (Gemini) and a call of another kind pass unchanged.
func TestPermissionShowsJudgedCommand(t *testing.T) {
	tests := []struct {
		name, toolCall string
		oldTitle       string // replaced in the IDE's copy by want (or followed by it); "" for byte-identical
		want           string
	}{
		{"title-hides-command", `{"toolCallId":"c1","title":"touch y","kind":"execute","rawInput":{"command":"touch y; python3 x.py"}}`,
			`"title":"touch y"`, "`touch y; python3 x.py`"},
		{"title-other-words", `{"toolCallId":"c1","title":"Run tests","kind":"execute","rawInput":{"command":"python3 x.py"}}`,
			`"title":"Run tests"`, "`python3 x.py`"},
		{"claude-bash-other-kind", `{"toolCallId":"c1","title":"Terminal","kind":"other","rawInput":{"command":"python3 x.py"},"_meta":{"claudeCode":{"toolName":"Bash"}}}`,
			`"title":"Terminal"`, "`python3 x.py`"},
		{"argv-command", `{"toolCallId":"c1","title":"Run echo ok","kind":"execute","rawInput":{"command":["bash","-lc","echo ok; python3 x.py"]}}`,
			`"title":"Run echo ok"`, "`bash -lc 'echo ok; python3 x.py'`"},
		{"command-with-backtick", "{\"toolCallId\":\"c1\",\"title\":\"ls\",\"kind\":\"execute\",\"rawInput\":{\"command\":\"echo `id`\"}}",
			`"title":"ls"`, "`` echo `id` ``"},
		{"title-is-markdown", `{"toolCallId":"c1","title":"python3 x.py \\; *.log _x_","kind":"execute","rawInput":{"command":"python3 x.py \\; *.log _x_"}}`,
			`"title":"python3 x.py \\; *.log _x_"`, "`python3 x.py \\; *.log _x_`"},
		{"title-only-markdown", `{"toolCallId":"c1","title":"python3 [a](b) <!-- x -->","kind":"execute"}`,
			`"title":"python3 [a](b) <!-- x -->"`, "`python3 [a](b) <!-- x -->`"},
		{"line-break", `{"toolCallId":"c1","title":"ls","kind":"execute","rawInput":{"command":"ls\npython3 x.py"}}`,
			`"title":"ls"`, "`ls\\npython3 x.py`"},
		{"no-title", `{"toolCallId":"c1","kind":"execute","rawInput":{"command":"python3 x.py"}}`,
			`"rawInput":{"command":"python3 x.py"}`, "`python3 x.py`"},
		{"claude-backticked-title", "{\"toolCallId\":\"c1\",\"title\":\"`python3 x.py`\",\"kind\":\"execute\",\"rawInput\":{\"command\":\"python3 x.py\"}}", "", ""},
		{"gemini-title-only", `{"toolCallId":"c1","title":"python3 x.py","kind":"execute"}`, "", ""},
		{"title-with-redirection", `{"toolCallId":"c1","title":"python3 my_x.py > out.txt && ls","kind":"execute","rawInput":{"command":"python3 my_x.py > out.txt && ls"}}`, "", ""},
		{"title-with-entity", `{"toolCallId":"c1","title":"python3 x.py &#59; ls","kind":"execute","rawInput":{"command":"python3 x.py &#59; ls"}}`,
			`"title":"python3 x.py &#59; ls"`, "`python3 x.py &#59; ls`"},
		{"title-spaced", `{"toolCallId":"c1","title":"  python3 x.py ","kind":"execute","rawInput":{"command":"python3 x.py"}}`, "", ""},
		{"not-a-command", `{"toolCallId":"c1","title":"Look up x","kind":"other","rawInput":{"query":"x"}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			line := permissionLine(40, tt.toolCall)
			h.agent("%s", line)
			want := line
			if tt.oldTitle != "" {
				b, _ := json.Marshal(tt.want)
				repl := `"title":` + string(b)
				if !strings.HasPrefix(tt.oldTitle, `"title"`) {
					repl = tt.oldTitle + "," + repl // a title the call lacked comes last
				}
				want = strings.Replace(line, tt.oldTitle, repl, 1)
			}
			if got := h.ClientGets(); got != want {
				t.Errorf("the IDE got\n%s\nwant\n%s", got, want)
			}
			var shown []any
			for _, r := range h.rec.find("tool.call", "") {
				if s, ok := r.ev.Metadata["shownTitle"]; ok {
					shown = append(shown, s)
				}
			}
			if tt.oldTitle != "" && (len(shown) != 1 || shown[0] != tt.want) {
				t.Errorf("recorded shown titles %v, want [%s]", shown, tt.want)
			}
			if tt.oldTitle == "" && len(shown) != 0 {
				t.Errorf("recorded shown titles %v for a title left as it came", shown)
			}
		})
	}
}

// TestPermissionTitleChangedWhileAsked: the person's answer covers the
// title they saw; the agent retitling the call while they decide makes an
// allow a refusal, as a changed input does, and so does an update sending
// again the title the bridge replaced with the judged command: the IDE
// shows it on the card the person answers.
func TestPermissionTitleChangedWhileAsked(t *testing.T) {
	for _, tt := range []struct {
		name          string
		title, update string
		want          string // the option the agent gets
	}{
		{"retitled", "`python3 x.py`", `"title":"touch y"`, "no"},
		{"status-only", "`python3 x.py`", `"status":"pending"`, "yes"},
		// The bridge showed the judged command in place of "touch y":
		// an update re-sending "touch y" puts it back on the card.
		{"replaced-title-sent-again", "touch y", `"title":"touch y"`, "no"},
		{"replaced-title-status-only", "touch y", `"status":"pending"`, "yes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			h.agent("%s", permissionLine(40, fmt.Sprintf(`{"toolCallId":"c1","title":%q,"kind":"execute","rawInput":{"command":"python3 x.py"}}`, tt.title)))
			if m := h.nextAtIDE(); m["method"] != "session/request_permission" {
				t.Fatalf("the IDE got %v, want the permission request", m)
			}
			h.agent(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1",%s}}}`, tt.update)
			if m := h.nextAtIDE(); get(m, "params", "update", "sessionUpdate") != "tool_call_update" {
				t.Fatalf("the IDE got %v, want the update", m)
			}
			h.ide(`{"jsonrpc":"2.0","id":40,"result":{"outcome":{"outcome":"selected","optionId":"yes"}}}`)
			if m := h.nextAtAgent(); get(m, "result", "outcome", "optionId") != tt.want {
				t.Errorf("the agent got %v, want option %s", m, tt.want)
			}
		})
	}
}

// TestPermissionTitleAuditOnly: with no policy the bridge only records; a
// permission request reaches the IDE as it came.
func TestPermissionTitleAuditOnly(t *testing.T) {
	h := newHarnessWith(t, EnforceOptions{}, false)
	h.openSession()
	line := permissionLine(40, `{"toolCallId":"c1","title":"touch y","kind":"execute","rawInput":{"command":"touch y; python3 x.py"}}`)
	h.agent("%s", line)
	if got := h.ClientGets(); got != line {
		t.Errorf("the IDE got\n%s\nwant it as it came\n%s", got, line)
	}
}

// TestCommandTitle: the title shown for a command is a code span that
// holds every backtick of the command, and the characters that display
// otherwise than they read are written as escapes.
// Its rows are in testdata/cases/command_titles.txt.
func TestCommandTitle(t *testing.T) {
	checkFuncCases(t, "commandTitle", commandTitle, "command_titles.txt")
}

// TestPathsTitle: a permission request for a call judged on paths keeps
// the agent's title when it shows every path (relative to the cwd, or
// whole) as it reads, and is otherwise titled with the call's kind and each
// path in a code span.
func TestPathsTitle(t *testing.T) {
	const cwd = "/ws"
	checkTitles(t, "pathsTitle", pathsTitle, cwd, []titleCase{
		{"Claude's title", Request{Kind: "edit", Title: "Edit src/a.go", Paths: []string{"/ws/src/a.go"}}, "", false},
		{"a whole path", Request{Kind: "read", Title: "Read /elsewhere/b.txt", Paths: []string{"/elsewhere/b.txt"}}, "", false},
		{"a title naming another file", Request{Kind: "edit", Title: "Write notes/readme.md", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
		{"a title naming one of two", Request{Kind: "move", Title: "Move a.txt", Paths: []string{"/ws/a.txt", "/ws/GOV.md"}}, "Move `a.txt`, `GOV.md`", true},
		{"no title", Request{Kind: "delete", Paths: []string{"/ws/old"}}, "Delete `old`", true},
		{"markup in the title", Request{Kind: "edit", Title: "Edit __init__.py", Paths: []string{"/ws/__init__.py"}}, "Edit `__init__.py`", true},
		{"a path with a backtick", Request{Kind: "edit", Title: "Edit", Paths: []string{"/ws/a`b"}}, "Edit `` a`b ``", true},
		{"an unknown kind", Request{Kind: "other", Title: "Do it", Paths: []string{"/ws/x"}}, "Use `x`", true},
		{"no paths", Request{Kind: "fetch", Title: "Fetch https://example.com"}, "", false},
		{"a path then the lines read", Request{Kind: "read", Title: "Read /ws/a.go (1 - 50)", Paths: []string{"/ws/a.go"}}, "", false},
		{"Gemini's edit title", Request{Kind: "edit", Title: "src/a.go: foo => bar", Paths: []string{"/ws/src/a.go"}}, "", false},
		{"a path in parentheses", Request{Kind: "edit", Title: "Write (src/a.go)", Paths: []string{"/ws/src/a.go"}}, "", false},
		{"a path at a sentence's end", Request{Kind: "edit", Title: "Write src/a.go.", Paths: []string{"/ws/src/a.go"}}, "", false},
		{"a path as the end of a longer name", Request{Kind: "edit", Title: "Write notes/drafts/plan.md", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
		{"a path as the start of a longer name", Request{Kind: "edit", Title: "Write drafts/plan.md.bak", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
		{"a dotfile inside another name", Request{Kind: "read", Title: "Read my.env", Paths: []string{"/ws/.env"}}, "Read `.env`", true},
		{"a path before punctuation inside a name", Request{Kind: "read", Title: "Read a.go.orig", Paths: []string{"/ws/a.go"}}, "Read `a.go`", true},
		{"a whole path inside a longer one", Request{Kind: "read", Title: "Read /x/ws/a.go", Paths: []string{"/ws/a.go"}}, "Read `a.go`", true},
		{"a longer name first, then the path", Request{Kind: "edit", Title: "Edit a.go.bak a.go", Paths: []string{"/ws/a.go"}}, "Edit `a.go`", true},
		{"a path in a directory named with a space", Request{Kind: "edit", Title: "Write old drafts/plan.md", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
		{"a path before a space and more name", Request{Kind: "edit", Title: "Write drafts/plan.md copy.md", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
		{"a path before other words in parentheses", Request{Kind: "edit", Title: "Write drafts/plan.md (copy).md", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
		{"Claude's read from a line", Request{Kind: "read", Title: "Read a.go (from line 9)", Paths: []string{"/ws/a.go"}}, "", false},
		{"a note after the path", Request{Kind: "edit", Title: "Write a.go (formatting)", Paths: []string{"/ws/a.go"}}, "", false},
		{"a path with a space of its own", Request{Kind: "edit", Title: "Write my notes.md", Paths: []string{"/ws/my notes.md"}}, "", false},
		{"a quoted path", Request{Kind: "edit", Title: "Write \"a.go\"", Paths: []string{"/ws/a.go"}}, "", false},
		{"a path ending in a period", Request{Kind: "edit", Title: "Write plan.", Paths: []string{"/ws/plan."}}, "Edit `plan.`", true},
	})
}

// TestShownTitle: the title of a permission request shows everything the
// call was judged on, since Zed never puts its rawInput in view: a command
// judged on a call of any kind, the directory it runs in when it is not the
// session's, the paths beside it and the URL.
func TestShownTitle(t *testing.T) {
	const cwd = "/ws"
	checkTitles(t, "shownTitle", shownTitle, cwd, []titleCase{
		{"a command titled as itself", Request{Kind: "execute", Title: "touch y", Command: "touch y", Cwd: cwd}, "", false},
		{"Claude's backticked command", Request{Kind: "execute", Title: "`touch y`", Command: "touch y", Cwd: cwd}, "", false},
		{"a command run in the session's directory", Request{Kind: "execute", Title: "touch y", Command: "touch y", Cwd: "/ws/", Paths: []string{"/ws/"}}, "", false},
		{"Gemini's dir_path at the cwd", Request{Kind: "execute", Title: "ls", Command: "ls", Cwd: cwd, Paths: []string{"/ws"}}, "", false},
		{"a command run elsewhere", Request{Kind: "execute", Title: "printf pwned > y", Command: "printf pwned > y", Cwd: "/ws/drafts", Paths: []string{"/ws/drafts"}}, "`printf pwned > y` in `drafts`", true},
		{"a command beside a path", Request{Kind: "execute", Title: "touch y", Command: "touch y", Cwd: cwd, Paths: []string{"/ws/drafts/plan.md"}}, "`touch y`; Use `drafts/plan.md`", true},
		{"a command in an edit call", Request{Kind: "edit", Title: "Edit notes.md", Command: "printf pwned > z.txt", Cwd: cwd, Paths: []string{"/ws/notes.md"}}, "Run `printf pwned > z.txt`; Edit `notes.md`", true},
		{"a command in a read call", Request{Kind: "read", Title: "printf pwned > z.txt", Command: "printf pwned > z.txt", Cwd: cwd}, "Run `printf pwned > z.txt`", true},
		{"a command under a two-line title", Request{Kind: "think", Title: "Look\nprintf x", Command: "printf x", Cwd: cwd}, "Run `printf x`", true},
		{"a URL the title shows", Request{Kind: "fetch", Title: "Fetch https://example.com/a", URL: "https://example.com/a", Cwd: cwd}, "", false},
		{"a URL the title hides", Request{Kind: "fetch", Title: "Fetch the docs", URL: "https://evil.example/?k=1", Cwd: cwd}, "Fetch `https://evil.example/?k=1`", true},
		{"a URL inside a longer one", Request{Kind: "fetch", Title: "Fetch https://example.com/abc", URL: "https://example.com/a", Cwd: cwd}, "Fetch `https://example.com/a`", true},
		{"a URL and a path", Request{Kind: "fetch", Title: "Fetch https://example.com to out.html", URL: "https://example.com", Cwd: cwd, Paths: []string{"/ws/out.html"}}, "Use `out.html`; Fetch `https://example.com`", true},
		{"paths only", Request{Kind: "edit", Title: "Write notes/readme.md", Paths: []string{"/ws/drafts/plan.md"}}, "Edit `drafts/plan.md`", true},
	})
}

// TestPermissionShowsEverythingJudged: a permission request the bridge
// forwards is titled with everything the call was judged on that its
// title leaves out, whatever its kind: Zed never puts the rawInput in view
// (an execute or edit call, or one with diffs, hides it; other kinds keep
// it behind a closed "View Raw Input").
func TestPermissionShowsEverythingJudged(t *testing.T) {
	tests := []struct{ name, toolCall, want string }{
		{"execute-beside-a-path", `{"toolCallId":"c1","title":"python3 x.py","kind":"execute","rawInput":{"command":"python3 x.py","file_path":"$ROOT/src/a.go"}}`,
			"`python3 x.py`; Use `src/a.go`"},
		{"execute-elsewhere", `{"toolCallId":"c1","title":"python3 x.py","kind":"execute","rawInput":{"command":"python3 x.py","cwd":"$ROOT/src"}}`,
			"`python3 x.py` in `src`"},
		{"execute-here", `{"toolCallId":"c1","title":"python3 x.py","kind":"execute","rawInput":{"command":"python3 x.py","cwd":"$ROOT"}}`,
			"python3 x.py"},
		{"other-with-diff", `{"toolCallId":"c1","title":"Edit src/a.go","kind":"other","content":[{"type":"diff","path":"$ROOT/src/a.go","oldText":"a","newText":"b"}],"rawInput":{"command":"python3 x.py"}}`,
			"Run `python3 x.py`; Use `src/a.go`"},
		{"edit-with-command", `{"toolCallId":"c1","title":"Edit src/a.go","kind":"edit","rawInput":{"path":"$ROOT/src/a.go","command":"python3 x.py"}}`,
			"Run `python3 x.py`; Edit `src/a.go`"},
		{"read-with-command", `{"toolCallId":"c1","title":"Read the docs","kind":"read","rawInput":{"command":"python3 x.py"}}`,
			"Run `python3 x.py`"},
		// lnk is a link to src, alias.go one to src/a.go.
		{"execute-through-a-link", `{"toolCallId":"c1","title":"python3 x.py","kind":"execute","rawInput":{"command":"python3 x.py","cwd":"$ROOT/lnk"}}`,
			"`python3 x.py` in `lnk` (leads to `src`)"},
		{"edit-of-a-link", `{"toolCallId":"c1","title":"Write alias.go","kind":"edit","rawInput":{"file_path":"$ROOT/alias.go","content":"x"}}`,
			"Edit `alias.go` (leads to `src/a.go`)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sessionHarness(t, EnforceOptions{})
			for name, target := range map[string]string{"lnk": "src", "alias.go": "src/a.go"} {
				if err := os.Symlink(target, filepath.Join(h.root, name)); err != nil {
					t.Fatal(err)
				}
			}
			h.agent("%s", permissionLine(41, strings.ReplaceAll(tt.toolCall, "$ROOT", h.root)))
			m := h.nextAtIDE()
			if got := get(m, "params", "toolCall", "title"); got != tt.want {
				t.Errorf("the IDE shows the title %q, want %q (got %v)", got, tt.want, m)
			}
		})
	}
}

// TestTitlesSayAFileHasOtherNames: a file with other hard links is another
// file's content under this name; the bridge asks about it for that
// reason (rule hard-link), and both the agent's permission request and the
// bridge's own question about a write to it say so in their title.
func TestTitlesSayAFileHasOtherNames(t *testing.T) {
	h := sessionHarness(t, EnforceOptions{})
	if err := os.Link(filepath.Join(h.root, "src", "a.go"), filepath.Join(h.root, "twin.go")); err != nil {
		t.Fatal(err)
	}
	twin := filepath.Join(h.root, "twin.go")
	h.agent("%s", permissionLine(42, fmt.Sprintf(`{"toolCallId":"c1","title":"Write twin.go","kind":"edit","rawInput":{"file_path":%q,"content":"x"}}`, twin)))
	if got, want := get(h.nextAtIDE(), "params", "toolCall", "title"), "Edit `twin.go` (a file with other names too)"; got != want {
		t.Errorf("the permission request shows %q, want %q", got, want)
	}
	h.agent(`{"jsonrpc":"2.0","id":43,"method":"fs/write_text_file","params":{"sessionId":"s1","path":%q,"content":"x"}}`, twin)
	if got, _ := get(h.nextAtIDE(), "params", "toolCall", "title").(string); !strings.Contains(got, "`twin.go` (a file with other names too)") {
		t.Errorf("the bridge's question shows %q, want it to say twin.go has other names", got)
	}
}

// titleCase is a request, the title the bridge gives it ("" keeps the
// agent's) and whether the title was replaced.
type titleCase struct {
	name  string
	req   Request
	want  string
	reset bool
}

// checkTitles runs title (pathsTitle or shownTitle, named fn) over tests
// with the session's cwd and no other roots.
func checkTitles(t *testing.T, fn string, title func(Request, string, []string) (string, bool), cwd string, tests []titleCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reset := title(tt.req, cwd, nil)
			if got != tt.want || reset != tt.reset {
				t.Errorf("%s(%+v) = %q, %v; want %q, %v", fn, tt.req, got, reset, tt.want, tt.reset)
			}
		})
	}
}
