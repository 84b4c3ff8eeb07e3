package acpparams

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// errAny stands for an error that is neither ErrNotUpdate nor ErrRepeated:
// params that are not JSON where the reader looked.
var errAny = errors.New("any other error")

func TestReadUpdate(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	nested := strings.Repeat("[", 500) + strings.Repeat("]", 500)
	tests := []struct {
		name   string
		params string
		want   Update // Raw is not compared
		err    error
	}{
		{name: "tool call", params: `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit","kind":"edit","status":"pending",` +
			`"locations":[{"path":"/w/a","line":3}],"content":[{"type":"diff","path":"/w/a","oldText":null,"newText":"x"},` +
			`{"type":"content","content":{"type":"text","text":"out"}},{"type":"terminal","terminalId":"t1"}],"rawInput":{"a":1},"rawOutput":[2],"_meta":{"m":3}}}`,
			want: Update{SessionID: "s1", SessionUpdate: "tool_call", ToolCall: ToolCall{ID: "c1", Title: "Edit", HasTitle: true, Kind: "edit", HasKind: true, Status: "pending",
				Locations: []string{"/w/a"}, RawInput: []byte(`{"a":1}`), RawOutput: []byte(`[2]`), Meta: []byte(`{"m":3}`),
				Items: []ContentItem{{Type: "diff", Path: "/w/a", OldText: []byte("null"), NewText: []byte(`"x"`)},
					{Type: "content", Text: []byte(`"out"`)}, {Type: "terminal", TerminalID: "t1"}}}}},
		{name: "message chunk", params: `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi \"there\""}}}`,
			want: Update{SessionID: "s1", SessionUpdate: "agent_message_chunk", ToolCall: ToolCall{Text: []byte(`"hi \"there\""`)}}},
		{name: "members in any order", params: `{"update":{"content":[{"terminalId":"t9","type":"terminal"}],"toolCallId":"c","sessionUpdate":"tool_call_update"},"sessionId":"s"}`,
			want: Update{SessionID: "s", SessionUpdate: "tool_call_update", ToolCall: ToolCall{ID: "c", Items: []ContentItem{{Type: "terminal", TerminalID: "t9"}}}}},
		{name: "escaped names are the names they spell", params: `{"update":{"sessionUpdate":"tool_call","toolCallId":"c","content":[{"typ\u0065":"diff","p\u0061th":"/etc/x"}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{ID: "c", Items: []ContentItem{{Type: "diff", Path: "/etc/x"}}}}},
		{name: "null is absent", params: `{"update":{"sessionUpdate":"tool_call","toolCallId":null,"title":null,"kind":null,"status":null,"locations":null,"content":null}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{}}},
		{name: "null location", params: `{"update":{"sessionUpdate":"tool_call","locations":[null,{"path":null},{}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Locations: []string{"", "", ""}}}},

		// Case variants are other members: the IDE does not read them.
		{name: "case variant of toolCallId", params: `{"update":{"sessionUpdate":"tool_call","ToolCallId":"c"}}`,
			want: Update{SessionUpdate: "tool_call"}},
		{name: "case variant of a diff's path", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"diff","Path":"/etc/x"}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{Type: "diff"}}, Bad: "a diff's path is not a string"}}},
		{name: "case variant of terminalId", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"terminal","TerminalId":"t"}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{Type: "terminal"}}}}},
		{name: "case variant of type", params: `{"update":{"sessionUpdate":"tool_call","content":[{"Type":"diff","path":"/etc/x"}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{}}}}},

		// Members of the wrong type are Bad, named.
		{name: "numeric terminalId", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"terminal","terminalId":7}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{Type: "terminal"}}, Bad: "a terminal's terminalId is not a string"}}},
		{name: "null terminalId", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"terminal","terminalId":null}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{Type: "terminal"}}, Bad: "a terminal's terminalId is not a string"}}},
		{name: "numeric diff path", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"diff","path":1}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{Type: "diff"}}, Bad: "a diff's path is not a string"}}},
		{name: "type not a string", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":["diff"],"path":"/etc/x"}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{}}, Bad: "a content item's type is not a string"}}},
		{name: "non-object content items keep their places", params: `{"update":{"sessionUpdate":"tool_call","content":[5,null,"x",{"type":"content","content":{"text":"t"}}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Items: []ContentItem{{}, {}, {}, {Type: "content", Text: []byte(`"t"`)}}, Bad: "a content item is not an object"}}},
		{name: "a tool call's content is not one block", params: `{"update":{"sessionUpdate":"tool_call","content":{"type":"diff","path":"/etc/x"}}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Bad: "content is not an array"}}},
		{name: "a chunk's content may be one block", params: `{"update":{"content":{"type":"text","text":"x"},"sessionUpdate":"agent_thought_chunk"}}`,
			want: Update{SessionUpdate: "agent_thought_chunk", ToolCall: ToolCall{Text: []byte(`"x"`)}}},
		{name: "title not a string", params: `{"update":{"sessionUpdate":"tool_call","toolCallId":5,"title":[1]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Bad: "toolCallId is not a string"}}},
		{name: "location path not a string", params: `{"update":{"sessionUpdate":"tool_call","locations":[{"path":7}]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Locations: []string{""}, Bad: "locations are not a list of paths"}}},
		{name: "location not an object", params: `{"update":{"sessionUpdate":"tool_call","locations":["/etc/x"]}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Locations: []string{""}, Bad: "locations are not a list of paths"}}},
		{name: "locations not a list", params: `{"update":{"sessionUpdate":"tool_call","locations":{"path":"/etc/x"}}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{Bad: "locations are not a list of paths"}}},
		{name: "sessionId not a string", params: `{"sessionId":1,"update":{"sessionUpdate":"plan"}}`,
			want: Update{SessionUpdate: "plan", ToolCall: ToolCall{Bad: "sessionId is not a string"}}},

		// A member the reader uses, named twice, fails the read.
		{name: "toolCallId twice", params: `{"update":{"sessionUpdate":"tool_call","toolCallId":"a","toolCallId":"b"}}`, err: ErrRepeated},
		{name: "toolCallId twice, once escaped", params: `{"update":{"sessionUpdate":"tool_call","toolCallId":"a","toolCall\u0049d":"b"}}`, err: ErrRepeated},
		{name: "sessionUpdate twice", params: `{"update":{"sessionUpdate":"plan","sessionUpdate":"tool_call"}}`, err: ErrRepeated},
		{name: "update twice", params: `{"update":{"sessionUpdate":"plan"},"update":{"sessionUpdate":"tool_call"}}`, err: ErrRepeated},
		{name: "update twice, the first not an object", params: `{"update":"x","update":{"sessionUpdate":"tool_call"}}`, err: ErrRepeated},
		{name: "content twice", params: `{"update":{"sessionUpdate":"tool_call","content":[],"content":[{"type":"diff","path":"/etc/x"}]}}`, err: ErrRepeated},
		{name: "a diff's path twice", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"diff","path":"/w/a","path":"/etc/x"}]}}`, err: ErrRepeated},
		{name: "a terminalId twice", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"terminal","terminalId":"a","terminalId":"b"}]}}`, err: ErrRepeated},
		{name: "a location's path twice", params: `{"update":{"sessionUpdate":"tool_call","locations":[{"path":"/w/a","path":"/etc/x"}]}}`, err: ErrRepeated},
		{name: "a chunk's text twice", params: `{"update":{"sessionUpdate":"agent_message_chunk","content":{"text":"a","text":"b"}}}`, err: ErrRepeated},
		{name: "unread names may repeat", params: `{"update":{"sessionUpdate":"plan","entries":[],"entries":[]}}`,
			want: Update{SessionUpdate: "plan"}},

		// Not an update.
		{name: "array", params: `[]`, err: ErrNotUpdate},
		{name: "no update", params: `{"sessionId":"s"}`, err: ErrNotUpdate},
		{name: "update not an object", params: `{"update":[{"sessionUpdate":"tool_call"}]}`, err: ErrNotUpdate},
		{name: "empty", params: ``, err: ErrNotUpdate},

		// Nesting: stepped over to the limit rawjson sets, refused past it.
		{name: "nested input", params: `{"update":{"sessionUpdate":"tool_call","rawInput":` + nested + `}}`,
			want: Update{SessionUpdate: "tool_call", ToolCall: ToolCall{RawInput: []byte(nested)}}},
		{name: "input nested too deep", params: `{"update":{"sessionUpdate":"tool_call","rawInput":` + deep + `}}`, err: errAny},
		{name: "truncated", params: `{"update":{"sessionUpdate":"tool_call","content":[{"type":"diff","path":"/w`, err: errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadUpdate([]byte(tt.params))
			if tt.err != nil {
				if err == nil {
					t.Fatalf("read %+v, want an error", got)
				}
				if tt.err == errAny {
					if errors.Is(err, ErrNotUpdate) || errors.Is(err, ErrRepeated) {
						t.Fatalf("error %v, want one saying where it is not JSON", err)
					}
				} else if !errors.Is(err, tt.err) {
					t.Fatalf("error %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			got.Raw, got.Content = nil, nilUnlessNull(got.Content)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ReadUpdate (-want +got):\n%s", diff)
			}
		})
	}
}

// nilUnlessNull keeps a content of null, the one the table spells out.
func nilUnlessNull(b []byte) []byte {
	if string(b) == "null" {
		return b
	}
	return nil
}

func TestReadUpdateRawIsTheUpdate(t *testing.T) {
	params := `{"sessionId":"s","update": {"sessionUpdate":"plan","entries":[{"content":"x"}]} ,"x":1}`
	u, err := ReadUpdate([]byte(params))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"sessionUpdate":"plan","entries":[{"content":"x"}]}`; string(u.Raw) != want {
		t.Errorf("Raw %s, want %s", u.Raw, want)
	}
	tc := `{"sessionUpdate":"tool_call","content":[{"type":"diff","path":"/a"}]}`
	u, err = ReadUpdate([]byte(`{"update":` + tc + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(u.Content) != `[{"type":"diff","path":"/a"}]` || string(u.Raw) != tc {
		t.Errorf("Content %s, Raw %s", u.Content, u.Raw)
	}
}

func TestReadToolCall(t *testing.T) {
	tests := []struct {
		name, obj string
		want      ToolCall
		err       error
	}{
		{name: "permission toolCall", obj: `{"toolCallId":"c","title":"Run","kind":"execute","content":[{"type":"terminal","terminalId":"t"}]}`,
			want: ToolCall{ID: "c", Title: "Run", HasTitle: true, Kind: "execute", HasKind: true, Items: []ContentItem{{Type: "terminal", TerminalID: "t"}}}},
		{name: "content one block is bad", obj: `{"toolCallId":"c","content":{"type":"text","text":"x"}}`,
			want: ToolCall{ID: "c", Text: []byte(`"x"`), Bad: "content is not an array"}},
		{name: "sessionUpdate is not read", obj: `{"sessionUpdate":"a","sessionUpdate":"b","toolCallId":"c"}`,
			want: ToolCall{ID: "c"}},
		{name: "repeated", obj: `{"toolCallId":"c","content":[{"type":"diff","path":"/a","path":"/b"}]}`, err: ErrRepeated},
		{name: "null", obj: `null`, err: ErrNotUpdate},
		{name: "empty", obj: ``, err: ErrNotUpdate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadToolCall([]byte(tt.obj))
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			got.Content = nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ReadToolCall (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiffPathsAndTerminalIDs(t *testing.T) {
	tc := ToolCall{Items: []ContentItem{{Type: "diff", Path: "/a"}, {Type: "terminal", TerminalID: "t1"}, {Type: "content"}, {Type: "diff", Path: "/b"}, {Type: "terminal"}}}
	if diff := cmp.Diff([]string{"/a", "/b"}, tc.DiffPaths()); diff != "" {
		t.Errorf("DiffPaths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"t1", ""}, tc.TerminalIDs()); diff != "" {
		t.Errorf("TerminalIDs (-want +got):\n%s", diff)
	}
}
