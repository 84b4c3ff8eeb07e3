package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// briefOf is what ParseEntryBrief should make of a line ParseEntry read
// as e: the same entry without Raw, Output, Metadata and the mirror's
// Result and Error.
func briefOf(e Entry) Entry {
	e.Raw, e.Output, e.Metadata = nil, nil, nil
	if e.ToolCall != nil {
		tc := *e.ToolCall
		tc.Result, tc.Error = nil, nil
		e.ToolCall = &tc
	}
	return e
}

// checkBrief fails t unless ParseEntryBrief reads line as ParseEntry
// (encoding/json) does.
func checkBrief(t *testing.T, line []byte) {
	t.Helper()
	want, wok := ParseEntry(line)
	got, gok := ParseEntryBrief(line)
	if wok != gok {
		t.Fatalf("%s\nok: ParseEntry %v, ParseEntryBrief %v", line, wok, gok)
	}
	if !wok {
		return
	}
	if want = briefOf(want); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s\nParseEntryBrief:\n%+v\nParseEntry:\n%+v", line, got, want)
	}
}

// FuzzParseEntryBrief checks that ParseEntryBrief, whose scanner reads
// only the members an entry holds, agrees with ParseEntry, which reads
// the line with encoding/json, on every line.
func FuzzParseEntryBrief(f *testing.F) {
	ev := func(rest string) []byte { return []byte(`{"doctype":"` + Doctype + `"` + rest + `}`) }
	for _, seed := range [][]byte{
		ev(`,"seq":3,"ts":"2026-01-02T03:04:05.123Z","actor":{"id":"agent:x","role":"operator"},"action":"tool.call","subject":{"kind":"tool-call","ref":"t1"},"input":{"a":1},"output":{"stdout":"ok"},"policy":{"ref":"r","decision":"allow"},"prevHash":"p","hash":"h","metadata":{"session":"s1","toolCall":{"tool":"Bash","approval":"auto","result":{"x":1}},"reason":"why"}`),
		ev(`,"output":[1,2,{"x":null}],"subject":{"kind":"session","ref":"s2"}`),
		ev(`,"OUTPUT":"x","seq":"not a number"`),
		ev(`,"output":null,"metadata":{"session":5}`),
		ev(`,"metadata":{"toolCall":5,"session":"s"}`),
		ev(`,"metadata":{"toolCall":{"tool":7},"reason":"r"},"policy":{"ref":"x"}`),
		ev(`,"metadata":{"toolCall":null,"session":null}`),
		ev(`,"metadata":"text"`),
		ev(`,"metadata":null,"input":null,"policy":null`),
		ev(`,"seq":1.5`),
		ev(`,"seq":1e3`),
		ev(`,"seq":-0`),
		ev(`,"seq":9223372036854775808`),
		ev(`,"Seq":4`),
		ev(`,"seq":4,"seq":5`),
		ev(`,"actor":{"id":"a"},"actor":{"role":"operator"}`),
		ev(`,"actor":{"id":"a","ID":"b"}`),
		ev(`,"actor":{"\u0069d":"escaped name"}`),
		ev(`,"subject":{"\u212aind":"kelvin sign"},"\u017feq":9`),
		ev(`,"subject":{"path":"\ud800 lone surrogate","ref":"tab\tescaped \u2028 \"q\""}`),
		[]byte("{\"doctype\":\"" + Doctype + "\",\"action\":\"bad \xff utf-8\"}"),
		ev(`,"policy":{"decision":"deny","ref":"r"},"metadata":{"policyRule":"Rule One","rule":"x"}`),
		ev(`,"metadata":{"toolCall":{"session":"from-mirror","toolCallId":"c1","arguments":{"path":"/a"},"error":"e"}}`),
		ev(`,"actor":[]`),
		ev(`,"input":{"a":[[[[[[]]]]]]}`),
		[]byte(`{"doctype":"other","output":1}`),
		[]byte(`  {"doctype":"` + Doctype + `"}  `),
		[]byte(`{"doctype":"` + Doctype + `",}`),
		[]byte(`[]`),
		[]byte(`null`),
		[]byte(`not json`),
		[]byte(``),
	} {
		f.Add(seed)
	}
	for _, line := range writerLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkBrief(t, line) })
}

// writerLines writes events of every shape the bridge records with the
// real writer and returns the log's lines.
func writerLines(tb testing.TB) [][]byte {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "audit.jsonl")
	l, err := Open(path, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	hostile := "tab\t nl\n quote\" bs\\ esc\x1b rlo\u202e <script>é 日本 \U0001F600"
	result := json.RawMessage(`{"content":[{"type":"text","text":"ok ` + strings.Repeat("x", 300) + `"}]}`)
	args := json.RawMessage(`{"command":"npm test","path":"/work/a.go"}`)
	for _, ev := range []Event{
		{Actor: Actor{ID: "acp-bridge", Role: "system"}, Action: "bridge.start", Subject: Subject{Kind: "bridge"},
			Input: map[string]any{"agent": []string{"claude-code-acp", "--x"}}},
		{Actor: Actor{ID: "agent:claude-code", Role: "operator"}, Action: AgentInfoAction, Subject: Subject{Kind: "agent"},
			Input: map[string]any{"name": "claude-code", "title": "Claude Code", "version": "1.0"}},
		{Actor: Actor{ID: "user", Role: "user"}, Action: "session.new", Subject: Subject{Kind: "session", Ref: "s1", Path: "/work"}},
		{Actor: Actor{ID: "user", Role: "user"}, Action: "session.prompt", Subject: Subject{Kind: "session", Ref: hostile},
			Input: map[string]any{"text": hostile}, Metadata: map[string]any{"session": hostile}},
		{Actor: Actor{ID: "agent:claude-code", Role: "operator"}, Action: "tool.call", Subject: Subject{Kind: "tool-call", Ref: "c1", Path: hostile},
			Input: args, Output: result, Policy: &Policy{Ref: "Allow tests: " + hostile, Decision: DecisionAllow},
			Metadata: map[string]any{"session": "s1", "reason": hostile, "toolCall": ToolCall{Kind: "tool-call", Operator: "claude-code",
				Session: "s1", ToolCallID: "c1", Tool: hostile, Arguments: args, Result: result, Approval: "auto"}}},
		{Actor: Actor{ID: "agent:claude-code", Role: "operator"}, Action: "fs.read", Subject: Subject{Kind: "file", Path: "/etc/shadow"},
			Policy: &Policy{Ref: "deny-secrets", Decision: DecisionDeny}, Output: json.RawMessage(`{"error":"denied"}`),
			Metadata: map[string]any{"toolCall": ToolCall{Kind: "tool-call", Session: "s1", ToolCallID: "c2", Error: json.RawMessage(`"denied"`)}}},
		{Actor: Actor{ID: "person:ana", Role: "approver"}, Action: "approval.recorded", Subject: Subject{Kind: "tool-call", Ref: "c3"},
			Policy:   &Policy{Ref: "ask-writes", Decision: DecisionRequireApproval},
			Metadata: map[string]any{"session": "s1", "toolCall": ToolCall{Kind: "tool-call", ToolCallID: "c3", Approval: "person:ana"}}},
		{Actor: Actor{ID: "acp-bridge", Role: "system"}, Action: "bridge.stop", Subject: Subject{Kind: "bridge"}, Output: 0},
	} {
		if err := l.Append(ev); err != nil {
			tb.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		tb.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// TestParseEntryBriefScansWriterLines checks that the lines the writer
// produces are read by the scanner itself, not handed to encoding/json,
// and read as encoding/json reads them.
func TestParseEntryBriefScansWriterLines(t *testing.T) {
	for _, line := range writerLines(t) {
		if _, ok, sure := scanEntry(line); !ok || !sure {
			t.Errorf("scanner gave up on a line of the writer (ok %v, sure %v):\n%s", ok, sure, line)
		}
		checkBrief(t, line)
	}
}

// TestScannerKnowsEveryMember: the scanner's lists of member names are
// those of the types encoding/json decodes into, so a member added to
// Record, the metadata an entry reads or ToolCallRecord is not silently
// left out by ParseEntryBrief.
func TestScannerKnowsEveryMember(t *testing.T) {
	for _, tt := range []struct {
		typ   any
		names []string
	}{
		{Record{}, recordNames},
		{entryMeta{}, metaNames},
		{ToolCallRecord{}, toolCallNames},
		{Actor{}, actorNames},
		{Subject{}, subjectNames},
		{Policy{}, policyNames},
	} {
		rt := reflect.TypeOf(tt.typ)
		var want []string
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			want = append(want, name)
		}
		if got := slices.Sorted(slices.Values(tt.names)); !reflect.DeepEqual(slices.Sorted(slices.Values(want)), got) {
			t.Errorf("%s: the scanner reads %q, encoding/json %q", rt.Name(), tt.names, want)
		}
	}
}
