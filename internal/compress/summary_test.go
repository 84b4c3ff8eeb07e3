package compress

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
)

func scriptedRecorder() *Recorder {
	at := time.Date(2026, 1, 29, 14, 0, 0, 0, time.UTC)
	r := NewRecorder("s1", "/repo")
	r.UserMessage(at, "Add rate limiting to the API gateway")
	r.UserMessage(at, "Use a token bucket, 100 requests per minute")
	r.ToolCall(at, []byte(`{"sessionUpdate":"tool_call","toolCallId":"e1","title":"Edit limiter.go","kind":"edit","status":"completed","content":[{"type":"diff","path":"/repo/gw/limiter.go","oldText":null,"newText":"package gw"}]}`))
	r.ToolCall(at, []byte(`{"sessionUpdate":"tool_call","toolCallId":"x1","title":"go test ./gw","kind":"execute","status":"failed","content":[{"type":"content","content":{"type":"text","text":"FAIL: listen tcp :8080: bind: EADDRINUSE"}}]}`))
	r.Plan([]byte(`{"sessionUpdate":"plan","entries":[{"content":"Write the limiter","status":"completed","priority":"high"},{"content":"Wire it into the router","status":"pending","priority":"high"}]}`))
	r.Decision(at, "User chose allow_once (Allow) for: Edit limiter.go")
	return r
}

func TestBuildSummary(t *testing.T) {
	r := scriptedRecorder()
	s := BuildSummary(r, time.Date(2026, 1, 29, 15, 0, 0, 0, time.UTC), "/c/conversations/s1_full.md", "/c/offloaded", 50000)
	golden.Check(t, "testdata/summary.golden", []byte(s.Markdown()))
	if s.ContextSaved <= 0 || s.ContextSaved >= 50000 {
		t.Errorf("ContextSaved = %d", s.ContextSaved)
	}
}

func TestVerify(t *testing.T) {
	r := scriptedRecorder()
	md := BuildSummary(r, time.Now(), "/c/a.md", "/c/offloaded", 50000).Markdown()
	intent := r.Intent()
	paths := []string{"/repo/gw/limiter.go"}
	tests := []struct {
		name     string
		md       string
		replaced int
		intent   string
		paths    []string
		want     error
	}{
		{"good", md, 50000, intent, paths, nil},
		{"empty", "  \n", 50000, intent, paths, ErrSummaryEmpty},
		{"larger than what it replaces", md, CountTokens(md), intent, paths, ErrSummaryTooLarge},
		{"intent missing", strings.Replace(md, intent, "something else", 1), 50000, intent, paths, ErrSummaryMissingIntent},
		{"edited path missing", md, 50000, intent, append(paths, "/repo/gw/router.go"), ErrSummaryMissingPath},
		{"multi-line intent quoted", "> line one\n> line two\n", 50000, "line one\nline two", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify(tt.md, tt.replaced, tt.intent, tt.paths)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestKeepInstructionsBudget(t *testing.T) {
	msgs := []string{"intent", strings.Repeat("old ", 300), "middle", "latest"}
	got := keepInstructions(msgs, 50)
	if len(got) != 3 || !strings.HasPrefix(got[0], "[message 2:") || got[1] != "middle" || got[2] != "latest" {
		t.Errorf("keepInstructions = %q", got)
	}
	if got := keepInstructions(msgs[:1], 50); got != nil {
		t.Errorf("intent only: %q", got)
	}
}

func TestDriftCheck(t *testing.T) {
	arts := []Artifact{{Path: "/repo/gw/limiter.go"}}
	user := "Add rate limiting to the API gateway in gw/"
	tests := []struct {
		name string
		obs  TurnObservation
		arts []Artifact
		want []string
	}{
		{"on track", TurnObservation{AgentText: "Wiring the limiter.", ToolCalls: 1, Touched: []string{"/repo/gw/router.go"}, Edits: 1}, arts, nil},
		{"clarification at once", TurnObservation{AgentText: "Could you clarify what you want me to do?"}, arts, []string{DriftClarification}},
		{"question after work is fine", TurnObservation{AgentText: "Could you clarify the limit?", ToolCalls: 2, Touched: []string{"/repo/gw/limiter.go"}}, arts, nil},
		{"done without deliverable", TurnObservation{AgentText: "All done! The task is complete."}, nil, []string{DriftNoDeliverable}},
		{"done with artifacts", TurnObservation{AgentText: "The task is complete."}, arts, nil},
		{"unrelated files", TurnObservation{AgentText: "Updating the docs site.", ToolCalls: 1, Touched: []string{"/repo/website/index.html"}}, arts, []string{DriftUnrelated}},
		{"file named by the user", TurnObservation{ToolCalls: 1, Touched: []string{"/repo/gw/new.go"}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DriftCheck(tt.obs, user, tt.arts, "/repo")
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("DriftCheck = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRecorderFacts(t *testing.T) {
	r := NewRecorder("s", "/")
	r.ToolOutput("src/a.ts(3,1): error TS2304: Cannot find name 'x'. Also ERR_MODULE_NOT_FOUND and ENOENT; exit code 2")
	r.Error("fs/read_text_file", -32002, "Resource not found")
	r.ExitStatus("make", 2, "")
	r.ExitStatus("make", 0, "")
	r.ToolOutput("TS2304 again")
	want := []string{
		"Error code seen: TS2304", "Error code seen: ERR_MODULE_NOT_FOUND", "Error code seen: ENOENT", "Error code seen: exit code 2",
		"JSON-RPC error -32002 (Resource not found) from fs/read_text_file", "Command make exited with status 2",
	}
	if got := r.Facts(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("facts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in        string
		name, arg string
		ok        bool
	}{
		{"/bridge-context", "bridge-context", "", true},
		{"  /bridge-recover  staging password ", "bridge-recover", "staging password", true},
		{"/bridge-unknown", "", "", false},
		{"/compact", "", "", false},
		{"please /bridge-log", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		name, arg, ok := parseCommand(tt.in)
		if name != tt.name || arg != tt.arg || ok != tt.ok {
			t.Errorf("parseCommand(%q) = %q, %q, %v", tt.in, name, arg, ok)
		}
	}
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"/bridge-context", "/bridge-recover topic", "/compact", "/bridge-", "/bridge-log\n\nx", "\u2028/bridge-intent"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, _, ok := parseCommand(s)
		if ok != (name != "") {
			t.Fatalf("ok=%v name=%q", ok, name)
		}
		if ok && !strings.HasPrefix(name, CommandPrefix) {
			t.Fatalf("name %q lacks the prefix", name)
		}
	})
}

// FuzzRecorderToolCall feeds arbitrary update objects to the recorder: it
// must never panic and the summary must stay renderable.
func FuzzRecorderToolCall(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"tool_call","toolCallId":"e1","title":"Edit a.go","kind":"edit","status":"completed","locations":[{"path":"/r/a.go"}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"e1","status":"failed","content":[{"type":"content","content":{"type":"text","text":"E0308"}}]}`,
		`{"toolCallId":7,"kind":["x"],"content":{"type":"diff"}}`,
		`{"content":[{"type":"diff","path":"/r/b.go","oldText":"x","newText":"y"}],"kind":"delete"}`,
		`[]`, `null`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, update []byte) {
		r := NewRecorder("s", "/r")
		r.UserMessage(time.Time{}, "intent")
		r.ToolCall(time.Time{}, update)
		r.Plan(update)
		md := BuildSummary(r, time.Time{}, "/a", "/o", 1<<30).Markdown()
		if !strings.Contains(md, "> intent") {
			t.Fatal("intent lost")
		}
		_ = r.Archive(time.Time{})
	})
}
