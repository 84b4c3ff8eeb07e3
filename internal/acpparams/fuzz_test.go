package acpparams

import (
	"reflect"
	"slices"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// FuzzReadUpdate: reading an update in one pass never panics, and on
// params read strictly (no duplicate names, valid UTF-8: what the wire or
// governance checks first) it finds what a reading of the whole value
// decoded (referenceUpdate) finds: the same session, variant, id and
// status, the same verdict on whether the judged members can be read, and
// the same diff paths, terminal ids and locations.
func FuzzReadUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x","kind":"edit","status":"pending","locations":[{"path":"/w/a"}],"content":[{"type":"diff","path":"/w/a","newText":"b"}],"rawInput":{"file_path":"/w/a"}}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","content":{"type":"diff"}}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":5,"title":[1],"locations":[{"path":7}]}}`,
		`{"update":{"content":[{"terminalId":"t9","type":"terminal"},{"content":{"type":"text","text":"x"},"type":"content"}],"toolCallId":"c","sessionUpdate":"tool_call_update"},"sessionId":"s"}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","content":[{"type":"terminal","terminalId":7},5,null]}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","content":[{"typ\u0065":"diff","p\u0061th":"/etc/x"}]}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a \"b\" \\"}}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","locations":[null,{"path":null},{"line":1}],"toolCallId":"t","toolCallId":"u"}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"t","name":"mcp__evil__wipe","title":"x"}}`,
		`{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","name":["Bash"]}}`,
		`{"update":[]}`, `[]`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		u, err := ReadUpdate([]byte(params))
		_, _ = ReadToolCall([]byte(params))
		if !jsontext.Value(params).IsValid() {
			return // never judged: refused, or not a tool call
		}
		want, wantOK := referenceUpdate([]byte(params))
		if (err == nil) != wantOK {
			t.Fatalf("%s: read error %v, reference reads it: %v", params, err, wantOK)
		}
		if err != nil {
			return
		}
		got := refUpdate{sid: u.SessionID, kind: u.SessionUpdate, id: u.ID, status: u.Status, bad: u.Bad != ""}
		got.locations = u.Locations
		if !got.bad {
			got.diffs, got.terminals = u.DiffPaths(), u.TerminalIDs()
		}
		if !IsToolCall(want.kind) {
			want.bad = want.bad && !want.contentOnly
			got.diffs, got.terminals, want.diffs, want.terminals = nil, nil, nil, nil
		}
		if want.bad {
			want.diffs, want.terminals = nil, nil
		}
		want.contentOnly = false
		if got.bad || want.bad {
			got.locations, want.locations = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\nread      %+v\nreference %+v", params, got, want)
		}
	})
}

// refUpdate is what the bridge reads of an update.
type refUpdate struct {
	sid, kind, id, status string
	bad                   bool
	// contentOnly says only the content made it bad, which counts for a
	// tool call only.
	contentOnly                 bool
	diffs, terminals, locations []string
}

// referenceUpdate reads params by ReadUpdate's rules from the whole value
// decoded strictly into Go values: the slow, obvious reading the one-pass
// reader must agree with.
func referenceUpdate(params []byte) (refUpdate, bool) {
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
	if len(str(upd, "name")) > MaxToolName {
		r.bad = true
	}
	str(upd, "kind")
	r.status = str(upd, "status")
	if !slices.Contains(toolStatuses, r.status) {
		r.status = "" // not a status ACP defines: the IDEs read none
	}
	if locs, has := upd["locations"]; has && locs != nil {
		b, _ := jsonv2.Marshal(locs)
		var l []struct {
			Path string `json:"path"`
		}
		if jsonv2.Unmarshal(b, &l) != nil {
			r.bad = true
		}
		r.locations = []string{}
		for _, p := range l {
			r.locations = append(r.locations, p.Path)
		}
	}
	badBefore := r.bad
	r.readContent(upd["content"])
	r.contentOnly = r.bad && !badBefore
	return r, true
}

// readContent reads a tool call's content by ReadUpdate's rules.
func (r *refUpdate) readContent(content any) {
	if content == nil {
		return
	}
	items, isList := content.([]any)
	if !isList {
		r.bad = true
		return
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
}
