package audit

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

// words is n bytes of prose: words and spaces.
func words(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString([]string{"the", "build", "failed", "on", "line", "twelve", "again"}[i%7])
		b.WriteByte(' ')
	}
	return b.String()[:n]
}

// textContent is an ACP tool call content array with one text block
// whose JSON string literal is lit (quotes included).
func textContent(lit string) ToolOutput {
	return ToolOutput(`[{"type":"content","content":{"type":"text","text":` + lit + `}}]`)
}

// outputOf prepares a tool.call event with out as output and returns the
// output as written, decoded.
func outputOf(t *testing.T, mode ContentMode, out ToolOutput) any {
	t.Helper()
	l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), Options{Content: mode})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ev := Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"}, Output: out}
	p, err := l.prepare(&ev)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(p.output, &v); err != nil {
		t.Fatalf("output %s: %v", p.output, err)
	}
	return v
}

// textOfContent returns the text member of the first content block.
func textOfContent(t *testing.T, v any) any {
	t.Helper()
	items, ok := v.([]any)
	if !ok {
		if m, ok := v.(map[string]any); ok {
			items, _ = m["value"].([]any)
		}
	}
	if len(items) == 0 {
		t.Fatalf("output %v is not a content array", v)
	}
	return items[0].(map[string]any)["content"].(map[string]any)["text"]
}

func TestDigestRecord(t *testing.T) {
	long := words(20000)
	token := "ghp_" + strings.Repeat("A1b2", 9)
	pem := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEA1234567890abcdef\n", 80) + "-----END RSA PRIVATE KEY-----"
	tests := []struct {
		name string
		lit  string // the text's JSON string literal
		// want is the stored value when it is a string; else the digest's
		// preview must satisfy check.
		want       any
		preview    func(string) bool
		redactions int
	}{
		{name: "short", lit: `"all 12 tests passed"`, want: "all 12 tests passed"},
		{name: "short secret redacted, no hash", lit: `"token ` + token + ` printed"`, want: "token [REDACTED:github-token] printed"},
		{name: "exactly the preview", lit: `"` + words(PreviewBytes) + `"`, want: words(PreviewBytes)},
		{name: "escapes make it short", lit: `"` + strings.Repeat(`\n`, 600) + `"`, want: strings.Repeat("\n", 600)},
		{name: "long prose", lit: `"` + long + `"`,
			preview: func(p string) bool {
				return len(p) <= PreviewBytes && len(p) > PreviewBytes-20 && strings.HasPrefix(long, p)
			}},
		{name: "secret straddling the cut", lit: `"` + words(1010) + " " + token + ` and more ` + words(3000) + `"`,
			preview: func(p string) bool {
				return !strings.Contains(p, "ghp") && !strings.Contains(p, "A1b2") && strings.HasPrefix(words(1010), p)
			}},
		{name: "secret inside the preview", lit: `"deploy with ` + token + " " + long + `"`, redactions: 1,
			preview: func(p string) bool { return strings.HasPrefix(p, "deploy with [REDACTED:github-token] the build") }},
		{name: "quoted secret with spaces across the cut", lit: `"` + words(990) + ` password=\"correct horse battery staple\" ` + long + `"`, redactions: 1,
			preview: func(p string) bool { return !strings.Contains(p, "horse") && !strings.Contains(p, "correct") }},
		{name: "private key across the window", lit: `"` + words(500) + " " + strings.ReplaceAll(pem, "\n", `\n`) + `"`, redactions: 1,
			preview: func(p string) bool {
				return strings.HasSuffix(p, "[REDACTED:private-key]") && !strings.Contains(p, "MIIE")
			}},
		{name: "no white space", lit: `"` + strings.Repeat("QUJD", 5000) + `"`,
			preview: func(p string) bool { return p == "" }},
		{name: "invalid UTF-8", lit: "\"" + words(1500) + "\xff\xfe tail " + words(100) + "\"",
			preview: func(p string) bool { return utf8.ValidString(p) && len(p) <= PreviewBytes }},
		{name: "unicode escapes and lone surrogate", lit: `"` + strings.Repeat(`caf\u00e9 \ud83d\ude00 \ud800 `, 200) + `"`,
			preview: func(p string) bool { return strings.HasPrefix(p, "café 😀 \ufffd café") }},
		{name: "huge", lit: `"` + strings.Repeat(words(1<<16), 64) + `"`,
			preview: func(p string) bool { return len(p) > 0 && len(p) <= PreviewBytes }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := textOfContent(t, outputOf(t, ContentDigest, textContent(tt.lit)))
			if tt.want != nil {
				if got != tt.want {
					t.Fatalf("stored %v, want the string %q", got, tt.want)
				}
				return
			}
			d, ok := got.(map[string]any)
			if !ok || d["$digest"] != true {
				t.Fatalf("stored %v, want a digest record", got)
			}
			if d["bytes"] != float64(len(tt.lit)) || d["sha256"] != hashHex([]byte(tt.lit)) {
				t.Errorf("bytes %v sha256 %v, want %d and the hash of the JSON text as received", d["bytes"], d["sha256"], len(tt.lit))
			}
			p, _ := d["preview"].(string)
			if !tt.preview(p) {
				t.Errorf("preview %q", p)
			}
			if d["redactions"] != float64(tt.redactions) {
				t.Errorf("redactions %v, want %d", d["redactions"], tt.redactions)
			}
		})
	}
}

// TestDigestKeepsDiffs: a diff's texts are what a reviewer reads, kept up
// to MaxDiffBytes (redacted); beyond, or when the output would not fit in
// MaxFieldBytes, they are digested.
func TestDigestKeepsDiffs(t *testing.T) {
	diff := func(oldText, newText string) string {
		return `{"type":"diff","path":"/w/a.go","oldText":"` + oldText + `","newText":"` + newText + `"}`
	}
	text := words(10000)
	secret := text[:5000] + " AKIAIOSFODNN7EXAMPLE " + text[5000:]
	tests := []struct {
		name    string
		content string
		kept    []bool // per text: oldText, newText of each diff
	}{
		{"kept", "[" + diff(text, secret) + "]", []bool{true, true}},
		{"over MaxDiffBytes", "[" + diff(text, words(MaxDiffBytes+10)) + "]", []bool{true, false}},
		{"too large together", "[" + diff(words(40000), words(40000)) + "]", []bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := outputOf(t, ContentDigest, ToolOutput(tt.content))
			items, _ := v.([]any)
			if len(items) == 0 {
				items, _ = v.(map[string]any)["value"].([]any)
			}
			it := items[0].(map[string]any)
			for i, k := range []string{"oldText", "newText"} {
				s, isText := it[k].(string)
				if isText != tt.kept[i] {
					t.Fatalf("%s kept %v, want %v (%.80v)", k, isText, tt.kept[i], it[k])
				}
				if isText && strings.Contains(s, "AKIA") {
					t.Errorf("%s holds the AWS key unredacted", k)
				}
			}
		})
	}
}

// TestDigestRedactsByKey: a long value under a secret-named key is
// redacted whole, not previewed; an agent's own "$digest" member cannot
// pass for one.
func TestDigestRedactsByKey(t *testing.T) {
	v := outputOf(t, ContentDigest, ToolOutput(`{"token":"`+words(5000)+`","$digest":true,"stdout":"`+words(3000)+`"}`))
	m := v.(map[string]any)
	if r, _ := m["token"].(map[string]any); r["$redacted"] != true {
		t.Errorf("token stored as %.100v", m["token"])
	}
	if _, ok := m["$digest"]; ok || m["$$digest"] != true {
		t.Errorf("the agent's $digest member stored as %v", m)
	}
	if d, _ := m["stdout"].(map[string]any); d["$digest"] != true {
		t.Errorf("stdout stored as %.100v", m["stdout"])
	}
}

// TestContentFull: --audit-content full stores the output as before
// digests: long strings capped with their head, the same record as a
// json.RawMessage output.
func TestContentFull(t *testing.T) {
	lit := `"` + words(20000) + `"`
	got := textOfContent(t, outputOf(t, ContentFull, textContent(lit)))
	m, _ := got.(map[string]any)
	if m["$truncated"] != true || m["bytes"] != float64(20000) || !strings.HasPrefix(words(20000), m["head"].(string)) {
		t.Fatalf("stored %.200v", got)
	}
	short := textOfContent(t, outputOf(t, ContentFull, textContent(`"`+words(5000)+`"`)))
	if short != words(5000) {
		t.Fatalf("a 5,000-byte text stored as %.100v", short)
	}
}

func TestParseContentMode(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want ContentMode
		ok   bool
	}{{"digest", ContentDigest, true}, {"full", ContentFull, true}, {"", 0, false}, {"Full", 0, false}, {"hash", 0, false}} {
		got, err := ParseContentMode(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseContentMode(%q) = %v, %v", tt.in, got, err)
		}
		if tt.ok && got.String() != tt.in {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

// TestVerifyDigests: a log of tool calls with digest records, shared
// between output and the mirror's result, verifies.
func TestVerifyDigests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var evs []Event
	for i, lit := range []string{`"` + words(20000) + `"`, `"short"`, "\"" + words(3000) + "\xff\""} {
		out := textContent(lit)
		tc := ToolCall{Kind: "tool-call", ToolCallID: "c", Tool: "read", Result: out}
		if i == 2 {
			tc.Result, tc.Error = nil, out
		}
		evs = append(evs, Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c"},
			Output: out, Metadata: map[string]any{"session": "s", "toolCall": tc}})
	}
	writeLog(t, path, Options{}, evs)
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, path)
	var r struct {
		Output   json.RawMessage
		Metadata struct {
			ToolCall struct{ Result json.RawMessage }
		}
	}
	if err := json.Unmarshal(lines[0], &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r.Output), `"$digest":true`) || string(r.Output) != `{"value":`+string(r.Metadata.ToolCall.Result)+"}" {
		t.Errorf("output %s\nresult %s", r.Output, r.Metadata.ToolCall.Result)
	}
	if len(lines[0]) > 3000 {
		t.Errorf("a 20 KB tool output made a %d-byte line", len(lines[0]))
	}
}

// TestTextToolContent: the review views render a tool call's content
// (text blocks, digests, diffs, terminals) as words.
func TestTextToolContent(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`[{"type":"content","content":{"type":"text","text":"ok"}}]`, "ok"},
		{`[{"type":"content","content":{"type":"text","text":{"$digest":true,"bytes":20002,"sha256":"0123456789abcdef0123","preview":"the build failed","redactions":0}}}]`,
			"the build failed … [20002 bytes, sha256 0123456789ab…]"},
		{`{"$digest":true,"bytes":9,"sha256":"ab","preview":""}`, "[9 bytes, sha256 ab…]"},
		{`[{"type":"diff","path":"/w/a.go","oldText":"a","newText":"b"},{"type":"terminal","terminalId":"t1"}]`, "[diff: /w/a.go] [terminal: t1]"},
	} {
		if got := Text(json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("Text(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzDigestOutput: any JSON given as a tool's output makes a record
// (no panic, valid canonical JSON), and a digest's preview is the start
// of the decoded string, as encoding/json decodes it, up to a word's end.
func FuzzDigestOutput(f *testing.F) {
	for _, s := range []string{`"` + words(3000) + `"`, `[{"type":"content","content":{"type":"text","text":"` + words(1500) + `"}}]`,
		`{"type":"diff","path":"a","oldText":"` + words(2000) + `","newText":"x"}`, `"` + strings.Repeat(`\ud800\u00e9\n`, 300) + `"`,
		"\"" + words(1100) + "\xff\"", `{"token":"` + words(2000) + `"}`, `[1,2.5,null,true]`} {
		f.Add(s)
	}
	l, err := Open(filepath.Join(f.TempDir(), "a.jsonl"), Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer l.Close()
	f.Fuzz(func(t *testing.T, raw string) {
		if !json.Valid([]byte(raw)) {
			return
		}
		st, err := l.outputTree(ToolOutput(raw))
		if err != nil {
			return // a number out of range: refused as it is in full mode
		}
		if !json.Valid(st.canon) {
			t.Fatalf("canonical form %q of %q", st.canon, raw)
		}
		var s string
		if json.Unmarshal([]byte(raw), &s) != nil || len(raw) <= PreviewBytes+2 {
			return
		}
		// A limit the text cannot reach: each byte of raw decodes to at
		// most three (a byte that is not UTF-8 becomes U+FFFD).
		got, complete := rawjson.AppendUnquoted(nil, []byte(raw), 3*len(raw))
		if !complete || string(got) != s {
			t.Fatalf("AppendUnquoted(%q) = %q, %v; encoding/json: %q", raw, got, complete, s)
		}
	})
}

// TestToolOutputNull: a tool's output of null is left out of the record,
// in output and in the mirror, as a json.RawMessage null is.
func TestToolOutputNull(t *testing.T) {
	for _, mode := range []ContentMode{ContentDigest, ContentFull} {
		l, err := Open(filepath.Join(t.TempDir(), "a.jsonl"), Options{Content: mode})
		if err != nil {
			t.Fatal(err)
		}
		out := ToolOutput("null")
		ev := Event{Actor: Actor{ID: "agent:a"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1"}, Output: out,
			Metadata: map[string]any{"toolCall": ToolCall{Kind: "tool-call", ToolCallID: "c1", Result: out}}}
		line := string(preparedLine(t, l, ev))
		if strings.Contains(line, `"output"`) || strings.Contains(line, `"result"`) {
			t.Errorf("%v: %s", mode, line)
		}
		l.Close()
	}
}
