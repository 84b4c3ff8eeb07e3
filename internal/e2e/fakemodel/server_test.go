package fakemodel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acp-bridge/acp-bridge/internal/golden"
	"github.com/google/go-cmp/cmp"
)

func start(t *testing.T, opts Options) *Server {
	t.Helper()
	s, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// sseData returns the data payloads of an SSE body, with their event names.
func sseData(t *testing.T, body []byte) (events []string, data []map[string]any) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		l := sc.Text()
		if name, ok := strings.CutPrefix(l, "event: "); ok {
			events = append(events, name)
		}
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(d), &m); err != nil {
				t.Fatalf("bad SSE data %q: %v", d, err)
			}
			data = append(data, m)
		}
	}
	return events, data
}

const (
	anthropicMain = `{"model":"claude-x","stream":%s,"tools":[{"name":"Read"}],"messages":[%s]}`
	anthropicSide = `{"model":"claude-haiku","stream":true,"messages":[{"role":"user","content":"title?"}]}`
)

func msgs(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `{"role":"user","content":"m"}`
	}
	return strings.Join(parts, ",")
}

func anthropicReq(stream bool, history int) string {
	s := "false"
	if stream {
		s = "true"
	}
	return strings.Replace(strings.Replace(anthropicMain, "%s", s, 1), "%s", msgs(history), 1)
}

var script3 = Script{Steps: []Step{
	Text("Hello."),
	Tool("Read", map[string]any{"file_path": "/ws/notes.txt"}),
	Text("Done."),
}}

func TestAnthropicStreamingScript(t *testing.T) {
	s := start(t, Options{Script: script3})
	url := s.URL() + "/v1/messages?beta=true"

	// Step 0: text.
	_, body := post(t, url, anthropicReq(true, 1))
	golden.Check(t, filepath.Join("testdata", "anthropic-text.sse.golden"), body)
	events, data := sseData(t, body)
	wantEvents := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if d := cmp.Diff(wantEvents, events); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if got := data[2]["delta"].(map[string]any)["text"]; got != "Hello." {
		t.Errorf("text delta = %v", got)
	}

	// A side request in between consumes no step.
	_, side := post(t, url, anthropicSide)
	if _, d := sseData(t, side); d[2]["delta"].(map[string]any)["text"] != sideText {
		t.Errorf("side request answered %s", side)
	}

	// Step 1: tool use, streamed as input_json_delta fragments.
	_, body = post(t, url, anthropicReq(true, 3))
	golden.Check(t, filepath.Join("testdata", "anthropic-tool.sse.golden"), body)
	_, data = sseData(t, body)
	var partial strings.Builder
	var stop any
	for _, d := range data {
		switch d["type"] {
		case "content_block_start":
			if cb := d["content_block"].(map[string]any); cb["type"] != "tool_use" || cb["name"] != "Read" || cb["id"] != "toolu_fake_step1" {
				t.Errorf("tool block = %v", cb)
			}
		case "content_block_delta":
			partial.WriteString(d["delta"].(map[string]any)["partial_json"].(string))
		case "message_delta":
			stop = d["delta"].(map[string]any)["stop_reason"]
		}
	}
	if partial.String() != `{"file_path":"/ws/notes.txt"}` || stop != "tool_use" {
		t.Errorf("tool input %q, stop %v", partial.String(), stop)
	}

	// A retry (same history length) gets the same step again.
	_, again := post(t, url, anthropicReq(true, 3))
	if !bytes.Equal(again, body) {
		t.Errorf("retry got a different answer:\n%s", again)
	}

	// Step 2, then the script is exhausted.
	post(t, url, anthropicReq(true, 5))
	_, body = post(t, url, anthropicReq(true, 7))
	if _, d := sseData(t, body); d[2]["delta"].(map[string]any)["text"] != "(fake model: script finished)" {
		t.Errorf("after the script: %s", body)
	}
	if got := s.StepsServed(); got != 3 {
		t.Errorf("StepsServed = %d, want 3", got)
	}
	var kinds []string
	for _, r := range s.Requests() {
		kinds = append(kinds, r.Kind)
	}
	if d := cmp.Diff([]string{KindMain, KindSide, KindMain, KindMain, KindMain, KindMain}, kinds); d != "" {
		t.Errorf("request kinds (-want +got):\n%s", d)
	}
}

func TestAnthropicToolInputUTF8(t *testing.T) {
	// The input is streamed in two fragments: the cut must not fall inside
	// a multi-byte character, or the fragments are not valid UTF-8.
	for _, text := range []string{"ééééé", "a€€€€", "日本語のテキスト", "x"} {
		s := start(t, Options{Script: Script{Steps: []Step{Tool("Write", map[string]any{"content": text})}}})
		_, body := post(t, s.URL()+"/v1/messages", anthropicReq(true, 1))
		_, data := sseData(t, body)
		var partial strings.Builder
		for _, d := range data {
			if d["type"] == "content_block_delta" {
				partial.WriteString(d["delta"].(map[string]any)["partial_json"].(string))
			}
		}
		var in map[string]string
		if err := json.Unmarshal([]byte(partial.String()), &in); err != nil || in["content"] != text {
			t.Errorf("%q: reassembled input %q (%v)", text, partial.String(), err)
		}
	}
}

func TestAnthropicNonStreaming(t *testing.T) {
	s := start(t, Options{Script: Script{Steps: []Step{{Text: "Let me look.", Tool: &ToolCall{Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}}}}})
	resp, body := post(t, s.URL()+"/v1/messages", anthropicReq(false, 1))
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var m struct {
		Content []struct {
			Type, Text, Name string
			Input            json.RawMessage
		}
		StopReason string `json:"stop_reason"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Content) != 2 || m.Content[0].Text != "Let me look." || m.Content[1].Name != "Bash" ||
		string(m.Content[1].Input) != `{"command":"ls"}` || m.StopReason != "tool_use" {
		t.Errorf("message = %s", body)
	}
}

func TestGemini(t *testing.T) {
	s := start(t, Options{Script: Script{Steps: []Step{
		Tool("read_file", map[string]any{"file_path": "/ws/a.txt"}),
		Text("It says a."),
	}}})
	base := s.URL() + "/v1beta/models/gemini-x:"
	main := `{"contents":[{"role":"user","parts":[{"text":"read a"}]}],"tools":[{"functionDeclarations":[{"name":"read_file"}]}]}`

	_, body := post(t, base+"streamGenerateContent?alt=sse", main)
	golden.Check(t, filepath.Join("testdata", "gemini-tool.sse.golden"), body)
	_, data := sseData(t, body)
	if len(data) != 1 {
		t.Fatalf("%d chunks", len(data))
	}
	parts := data[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)
	fc := parts[0].(map[string]any)["functionCall"].(map[string]any)
	if fc["name"] != "read_file" || fc["args"].(map[string]any)["file_path"] != "/ws/a.txt" {
		t.Errorf("functionCall = %v", fc)
	}

	tests := []struct {
		name, body, want string
	}{
		{"next speaker", `{"contents":[],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"properties":{"next_speaker":{}}}}}`, `"next_speaker":"user"`},
		{"classifier", `{"contents":[],"generationConfig":{"responseMimeType":"application/json","responseSchema":{"properties":{"complexity_score":{}}}}}`, `"complexity_score":10`},
		{"plain", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, `"text":"OK"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, b := post(t, base+"generateContent", tc.body)
			if !strings.Contains(strings.ReplaceAll(string(b), `\"`, `"`), tc.want) {
				t.Errorf("side answer %s does not contain %s", b, tc.want)
			}
		})
	}
	if got := s.StepsServed(); got != 1 {
		t.Errorf("side requests consumed steps: StepsServed = %d", got)
	}
	_, b := post(t, base+"countTokens", `{"contents":[]}`)
	if !strings.Contains(string(b), `"totalTokens"`) {
		t.Errorf("countTokens = %s", b)
	}
}

func TestRoutes(t *testing.T) {
	s := start(t, Options{})
	tests := []struct {
		name, method, path, body string
		code                     int
		kind                     string
	}{
		{"probe HEAD", http.MethodHead, "/", "", 200, KindProbe},
		{"probe GET", http.MethodGet, "/", "", 200, KindProbe},
		{"count tokens", http.MethodPost, "/v1/messages/count_tokens", `{"model":"m","messages":[]}`, 200, KindCountTokens},
		{"bad JSON", http.MethodPost, "/v1/messages", `{`, 400, KindUnknown},
		{"count tokens of bad JSON", http.MethodPost, "/v1/messages/count_tokens", `{`, 400, KindCountTokens},
		{"unknown", http.MethodGet, "/v1/models", "", 404, KindUnknown},
		{"gemini unknown method", http.MethodPost, "/v1beta/models/g:embedContent", `{}`, 404, KindUnknown},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, s.URL()+tc.path, strings.NewReader(tc.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.code {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.code)
			}
			if r := s.Requests()[i]; r.Kind != tc.kind || r.Seq != i+1 {
				t.Errorf("recorded %+v, want kind %s seq %d", r, tc.kind, i+1)
			}
		})
	}
}

func TestRequestLog(t *testing.T) {
	p := filepath.Join(t.TempDir(), "req.jsonl")
	s := start(t, Options{Script: script3, LogFile: p})
	post(t, s.URL()+"/v1/messages", anthropicReq(false, 1))
	post(t, s.URL()+"/v1/messages", "not json")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines:\n%s", len(lines), b)
	}
	var first struct {
		Seq  int
		Kind string
		Step int
		Body json.RawMessage
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Seq != 1 || first.Kind != KindMain || first.Step != 0 || string(first.Body) != anthropicReq(false, 1) {
		t.Errorf("first line = %s", lines[0])
	}
	if !strings.Contains(lines[1], `"body":"not json"`) {
		t.Errorf("a non-JSON body is kept as a string: %s", lines[1])
	}
}

// TestHangEndsOnClose: a hanging step sends the stream's start and then
// nothing, until Close ends the request. That the step never answered is
// read from the body once the stream has ended (no message_stop in it), not
// from how long nothing arrived.
func TestHangEndsOnClose(t *testing.T) {
	s := start(t, Options{Script: Script{Steps: []Step{{Hang: true}}}})
	type answer struct {
		body string
		err  error
	}
	started := make(chan struct{})
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(anthropicReq(true, 1)))
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		br := bufio.NewReader(resp.Body)
		first, err := br.ReadString('\n') // the step has begun: message_start is out
		if err == nil {
			close(started)
		}
		rest, rerr := io.ReadAll(br)
		if err == nil {
			err = rerr
		}
		answered <- answer{first + string(rest), err}
	}()
	select {
	case <-started:
	case a := <-answered:
		t.Fatalf("the stream ended before Close: %q, %v", a.body, a.err)
	case <-time.After(5 * time.Second):
		t.Fatal("the hanging step's stream never started")
	}
	closed := time.Now()
	s.Close()
	select {
	case a := <-answered:
		if !strings.Contains(a.body, "message_start") || strings.Contains(a.body, "message_stop") {
			t.Errorf("a hanging step sent %q; want its start and no answer", a.body)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Close did not end the hanging request")
	}
	if d := time.Since(closed); d > 2500*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
}

func TestDelay(t *testing.T) {
	s := start(t, Options{Script: Script{Steps: []Step{{Text: "late", Delay: Duration(200 * time.Millisecond)}}}})
	t0 := time.Now()
	_, body := post(t, s.URL()+"/v1/messages", anthropicReq(false, 1))
	if d := time.Since(t0); d < 200*time.Millisecond {
		t.Errorf("answered after %v, want >= 200ms", d)
	}
	if !strings.Contains(string(body), `"late"`) {
		t.Errorf("body %s", body)
	}
}

func TestParseScript(t *testing.T) {
	tests := []struct {
		name, in string
		want     Script
		err      string
	}{
		{"text and tool", `{"steps":[{"text":"hi"},{"tool":{"name":"Read","input":{"file_path":"/a"}}}]}`,
			Script{Steps: []Step{{Text: "hi"}, {Tool: &ToolCall{Name: "Read", Input: json.RawMessage(`{"file_path":"/a"}`)}}}}, ""},
		{"input defaults to {}", `{"steps":[{"tool":{"name":"Bash"}}]}`,
			Script{Steps: []Step{{Tool: &ToolCall{Name: "Bash", Input: json.RawMessage(`{}`)}}}}, ""},
		{"delay and hang", `{"steps":[{"delay":"1.5s"},{"hang":true}],"done":"bye"}`,
			Script{Steps: []Step{{Delay: Duration(1500 * time.Millisecond)}, {Hang: true}}, Done: "bye"}, ""},
		{"tool without name", `{"steps":[{"tool":{"input":{}}}]}`, Script{}, "step 0: tool call without a name"},
		{"input not an object", `{"steps":[{"tool":{"name":"Read","input":[1]}}]}`, Script{}, "step 0: tool input must be a JSON object"},
		{"bad delay", `{"steps":[{"delay":"soon"}]}`, Script{}, "invalid duration"},
		{"not JSON", `steps`, Script{}, "invalid character"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseScript([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestContextText(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"anthropic", `{"system":[{"type":"text","text":"You are X."}],"tools":[{"name":"Read","description":"reads"}],"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"file body"}]}]}`,
			"You are X.\nhi\nfile body"},
		{"gemini", `{"systemInstruction":{"parts":[{"text":"sys"}]},"contents":[{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"data"}}}]}]}`,
			"sys\nread_file\ndata"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Request{Body: []byte(tc.body)}.ContextText()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := (Request{Seq: 3, Body: []byte("nope")}).ContextText(); err == nil {
		t.Error("no error for a non-JSON body")
	}
}

// FuzzParseScript checks that any input either parses into a script whose
// tool inputs are JSON objects, or fails with an error.
func FuzzParseScript(f *testing.F) {
	f.Add([]byte(`{"steps":[{"text":"Hello."},{"tool":{"name":"Read","input":{"file_path":"/w/notes.txt"}}},{"text":"Done."}]}`))
	f.Add([]byte(`{"steps":[{"hang":true},{"delay":"2s","text":"x"}],"done":"end"}`))
	f.Add([]byte(`{"steps":[{"tool":{"name":"run_shell_command","input":null}}]}`))
	f.Add([]byte(`{"steps":[{"tool":{"name":""}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseScript(b)
		if err != nil {
			return
		}
		for i, st := range s.Steps {
			if st.Tool == nil {
				continue
			}
			var m map[string]any
			if json.Unmarshal(st.Tool.Input, &m) != nil || m == nil {
				t.Errorf("step %d: input %q is not an object", i, st.Tool.Input)
			}
		}
	})
}

// FuzzServeHTTP sends arbitrary bodies to every route: the server must answer
// (never panic) and record each request.
func FuzzServeHTTP(f *testing.F) {
	f.Add("/v1/messages", []byte(anthropicReq(true, 2)))
	f.Add("/v1/messages", []byte(`{"stream":false,"tools":[1],"messages":null}`))
	f.Add("/v1/messages/count_tokens", []byte(`{}`))
	f.Add("/v1beta/models/g:streamGenerateContent", []byte(`{"contents":[],"tools":[{"functionDeclarations":[{}]}]}`))
	f.Add("/v1beta/models/g:generateContent", []byte(`{"generationConfig":{"responseMimeType":"application/json","responseSchema":"next_speaker"}}`))
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		s := &Server{script: script3, log: discard(), closed: make(chan struct{}), lastLen: -1, lastStep: -1}
		req := httptest.NewRequestWithContext(context.Background(), http.MethodPost, "http://x/", bytes.NewReader(body))
		req.URL.Path = path
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code == 0 {
			t.Error("no status")
		}
		if len(s.Requests()) != 1 {
			t.Errorf("%d requests recorded", len(s.Requests()))
		}
	})
}

func TestToolFill(t *testing.T) {
	// The request names a file only known once it was sent; the step's
	// input takes it from there, as a model copies a path out of its
	// context.
	for _, tt := range []struct {
		name, fill, want string
	}{
		{"match", `"model":"(claude-[a-z0-9-]+)"`, `{"file_path":"/cache/claude-x.md"}`},
		{"no match", `no such (thing)`, `{"file_path":"/cache/{{fill}}.md"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := Step{Tool: &ToolCall{Name: "Read", Input: json.RawMessage(`{"file_path":"/cache/{{fill}}.md"}`), Fill: tt.fill}}
			s := start(t, Options{Script: Script{Steps: []Step{st}}})
			_, body := post(t, s.URL()+"/v1/messages", anthropicReq(false, 1))
			var m struct {
				Content []struct{ Input json.RawMessage }
			}
			if err := json.Unmarshal(body, &m); err != nil || len(m.Content) != 1 {
				t.Fatalf("message = %s (%v)", body, err)
			}
			if got := string(m.Content[0].Input); got != tt.want {
				t.Errorf("input = %s, want %s", got, tt.want)
			}
		})
	}
}
