package governance

import (
	"reflect"
	"strings"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/acpparams"
)

// FuzzKeepInput: what the bridge keeps of a large tool input decides like
// the whole input: ToolCallRequest reads only judgedInputKeys, and
// keepInput keeps exactly those.
func FuzzKeepInput(f *testing.F) {
	for _, s := range []string{
		`{"command":"ls -la","cwd":"/w"}`,
		`{"file_path":"/w/a.go","old_string":"x","new_string":"y"}`,
		`{"command":["bash","-lc","rm -rf /tmp/x"],"args":["-v"]}`,
		`{"pattern":"/etc/**/*.conf","path":"/w"}`,
		`{"url":"https://example.com","prompt":"x"}`,
		`{"absolute_path":"/w/.env","directory":"/w/sub","source":"a","destination":"b"}`,
		`{"command":"a","command":"b"}`,
		`{"relative_path":"/w/.env","pathInProject":"x","source_files":["/w/a"],"changes":{"/w/b":{"move_path":"/w/c"}},"input":"*** Begin Patch\n*** Add File: d\n"}`,
		`[1,2]`, `"x"`, `{}`,
	} {
		f.Add(s, "execute", 1)
		f.Add(s, "read", 70000)
	}
	f.Fuzz(func(t *testing.T, input, kind string, pad int) {
		if pad < 0 || pad > 1<<20 {
			return
		}
		raw := []byte(input)
		if t := strings.TrimSpace(input); strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") && t != "{}" {
			// Make it large with a member the policy never reads.
			raw = []byte(t[:len(t)-1] + `,"content":"` + strings.Repeat("x", pad) + `"}`)
		}
		kept, whole := keepInput(raw)
		if kept == nil {
			return // too large to keep: judged again only whole
		}
		if whole && string(kept) != string(raw) {
			t.Fatalf("kept %q as whole, want %q", kept, raw)
		}
		full := ToolCallRequest(ToolCall{Kind: kind, RawInput: raw}, "/w")
		part := ToolCallRequest(ToolCall{Kind: kind, RawInput: kept}, "/w")
		if !whole {
			// Every string of this tool's input is judged (mentioned.go):
			// a call whose input was not kept whole is marked cut
			// (callState.merge), and judged again only whole.
			full.Mentioned, full.MentionedTooMany = nil, false
			part.Mentioned, part.MentionedTooMany = nil, false
		}
		if !reflect.DeepEqual(full, part) {
			t.Fatalf("input %.200q: request from the whole input %+v, from what is kept %+v", raw, full, part)
		}
	})
}

// FuzzToolUpdate: a tool call update, read in one pass (acpparams, whose
// own fuzz target checks the reading against a whole decoding), never
// makes the call state, the request built from it or the fallback reading
// of an unreadable update panic.
func FuzzToolUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","kind":"execute","rawInput":{"command":"rm -rf /","cwd":"/w"},"_meta":{"claudeCode":{"toolName":"Bash"}}}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"","kind":"edit","locations":[{"path":"/w/a"},null],"content":[{"type":"diff","path":"/w/b","oldText":null,"newText":""}]}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","status":"completed","rawOutput":{"exit":1},"content":[]}}`,
		`{"update":{"sessionUpdate":"tool_call","toolCallId":"c","rawInput":"not an object","locations":[]}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","kind":"execute","rawInput":{"command":["ls"],"cwd":"/w","workdir":"/o","Exec-Dir":"x"}}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","status":"pending","title":"read_text (notes MCP Server)","kind":"other","content":[{"type":"content","content":{"type":"text","text":"{\"path\":\"/w/.env\"}"}}]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		mayBeToolCall([]byte(params))
		p, err := acpparams.ReadUpdate([]byte(params))
		if err != nil {
			return
		}
		c := &callState{session: p.SessionID, id: p.ID}
		full, _, _ := c.merge(&p.ToolCall)
		_ = ToolCallRequest(full, "/w")
		_ = c.size()
	})
}
