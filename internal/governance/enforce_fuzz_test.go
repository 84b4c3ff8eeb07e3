package governance

import (
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
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
		if !reflect.DeepEqual(full, part) {
			t.Fatalf("input %.200q: request from the whole input %+v, from what is kept %+v", raw, full, part)
		}
	})
}

// FuzzToolUpdate: reading a tool call update in one pass never panics,
// and on params the strict reading accepts it finds what a reading of the
// whole value decoded (referenceToolUpdate) finds: the same session, kind,
// id and status, the same verdict on whether the judged members can be
// read, and the same diff paths and terminal ids.
func FuzzToolUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x","kind":"edit","status":"pending","locations":[{"path":"/w/a"}],"content":[{"type":"diff","path":"/w/a","newText":"b"}],"rawInput":{"file_path":"/w/a"}}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","content":{"type":"diff"}}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":5,"title":[1],"locations":[{"path":7}]}}`,
		`{"update":{"content":[{"terminalId":"t9","type":"terminal"},{"content":{"type":"text","text":"x"},"type":"content"}],"toolCallId":"c","sessionUpdate":"tool_call_update"},"sessionId":"s"}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","content":[{"type":"terminal","terminalId":7},5,null]}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","content":[{"typ\u0065":"diff","p\u0061th":"/etc/x"}]}}`,
		`{"update":[]}`, `[]`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		p, ok := parseToolUpdate([]byte(params))
		mayBeToolCall([]byte(params))
		if ok {
			c := &callState{session: p.SessionID, id: p.Update.ToolCallID}
			full, _, _ := c.merge(&p.Update.toolCallFields)
			_ = ToolCallRequest(full, "/w")
			_ = c.size()
		}
		if checkStrict([]byte(params)) != nil {
			return // never read in one pass: refused, or not a tool call
		}
		want, wantOK := referenceToolUpdate([]byte(params))
		if ok != wantOK {
			t.Fatalf("%s: read %v, reference %v", params, ok, wantOK)
		}
		if !ok {
			return
		}
		got := refUpdate{sid: p.SessionID, kind: p.Update.SessionUpdate, id: p.Update.ToolCallID, status: p.Update.Status}
		if isToolCall(got.kind) {
			got.bad = p.bad != ""
			if !got.bad {
				got.diffs, got.terminals = p.Update.content.diffs, p.Update.content.terminals
			}
		}
		if !isToolCall(want.kind) {
			want.bad, want.diffs, want.terminals = false, nil, nil
		}
		if want.bad {
			want.diffs, want.terminals = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\nread      %+v\nreference %+v", params, got, want)
		}
	})
}

// refUpdate is what the bridge reads of a tool call update.
type refUpdate struct {
	sid, kind, id, status string
	bad                   bool
	diffs, terminals      []string
}

// referenceToolUpdate reads params by parseToolUpdate's rules from the
// whole value decoded strictly into Go values: the slow, obvious reading
// the one-pass reader must agree with.
func referenceToolUpdate(params []byte) (refUpdate, bool) {
	var r refUpdate
	var top any
	if jsonv2.Unmarshal(params, &top) != nil {
		return r, false
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return r, false
	}
	upd, ok := obj["update"].(map[string]any)
	if !ok {
		return r, false
	}
	str := func(m map[string]any, k string) string {
		v, has := m[k]
		s, isStr := v.(string)
		if has && v != nil && !isStr {
			r.bad = true
		}
		return s
	}
	r.sid = str(obj, "sessionId")
	r.kind, _ = upd["sessionUpdate"].(string)
	r.id = str(upd, "toolCallId")
	str(upd, "title")
	str(upd, "kind")
	r.status = str(upd, "status")
	if locs, has := upd["locations"]; has {
		b, _ := jsonv2.Marshal(locs)
		var l []struct {
			Path string `json:"path"`
		}
		if jsonv2.Unmarshal(b, &l) != nil {
			r.bad = true
		}
	}
	content, has := upd["content"]
	if !has || content == nil {
		return r, true
	}
	items, isList := content.([]any)
	if !isList {
		r.bad = true
		return r, true
	}
	for _, it := range items {
		item, isObj := it.(map[string]any)
		if !isObj {
			r.bad = true
			continue
		}
		typ, has := item["type"]
		kind, isStr := typ.(string)
		if has && !isStr {
			r.bad = true
			continue
		}
		switch kind {
		case "diff":
			p, isStr := item["path"].(string)
			r.bad = r.bad || !isStr
			r.diffs = append(r.diffs, p)
		case "terminal":
			tid, has := item["terminalId"]
			id, isStr := tid.(string)
			r.bad = r.bad || has && !isStr
			r.terminals = append(r.terminals, id)
		}
	}
	return r, true
}
