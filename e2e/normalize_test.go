package e2e

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// What differs between two runs of one scripted session, and so is
// normalised before comparing them (everything else must be byte-identical):
//
//   - the "ts" field of transcript lines: wall-clock time (dropped: only "dir"
//     and the raw "msg" are compared);
//   - the interleaving of the two directions: when the client answers a
//     request while the agent is still streaming updates, which line comes
//     first is a race, so each direction is compared as its own sequence;
//   - "sessionId" values: both agents generate a random UUID per session;
//   - "toolCallId" values: Gemini CLI derives them from Date.now()
//     ("read_file__read_file_1795291291936_0"); Claude's come from the fake
//     model's tool-use ids and are stable, but are normalised the same way.
//
// Each distinct value is replaced, in order of first appearance, by a
// placeholder such as "<sessionId#1>" wherever it occurs in the raw line, so
// the lines keep their bytes otherwise and a value that is reused where it
// should not be still shows up as a difference.
//
// Where Claude's PostToolUse hook updates fall among the other updates is
// also a race of the agent's: see hookUpdatesLast.
var volatileKeys = []string{"sessionId", "toolCallId"}

// hookUpdatesLast returns msgs with the tool_call_updates that
// claude-agent-acp sends from Claude Code's PostToolUse hook (their _meta
// holds claudeCode.toolResponse) moved after the others, each group in its
// order. The agent sends them from the hook's callback, which races the
// stream of the model's next message: two runs of one session, direct or
// through the bridge, put the hook's update before or after the next
// usage_update as the agent's processes happen to be scheduled
// (TestTransparency/claude failed so under go test -count=3 -cpu 1,2 at a
// load of 60). Every message is still compared byte for byte, in order
// within its group; what the bridge does to the order of one run is
// checked without this, its --record against the client's transcript.
//
// The model stream's usage_update races the agent's own tool_call_update
// (a completed call's output) the same way: within a run of consecutive
// messages that are each one or the other, the usage_updates are moved
// after the tool_call_updates, each kind in its order. A usage_update is
// still compared in its place among the text and the tool calls.
func hookUpdatesLast(msgs []string) []string {
	var rest, hook []string
	for _, m := range msgs {
		if isHookUpdate(m) {
			hook = append(hook, m)
		} else {
			rest = append(rest, m)
		}
	}
	return append(usageAfterToolUpdates(rest), hook...)
}

// usageAfterToolUpdates returns msgs with each run of consecutive
// usage_update and tool_call_update notifications ordered tool updates
// first, then usage updates, each in its order.
func usageAfterToolUpdates(msgs []string) []string {
	out := make([]string, 0, len(msgs))
	for i := 0; i < len(msgs); {
		kind := updateKind(msgs[i])
		if kind != "usage_update" && kind != "tool_call_update" {
			out = append(out, msgs[i])
			i++
			continue
		}
		var usage []string
		for ; i < len(msgs); i++ {
			switch updateKind(msgs[i]) {
			case "usage_update":
				usage = append(usage, msgs[i])
				continue
			case "tool_call_update":
				out = append(out, msgs[i])
				continue
			}
			break
		}
		out = append(out, usage...)
	}
	return out
}

// updateKind is the sessionUpdate of a session/update notification, ""
// for any other message.
func updateKind(msg string) string {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
			} `json:"update"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(msg), &m) != nil || m.Method != "session/update" {
		return ""
	}
	return m.Params.Update.SessionUpdate
}

// isHookUpdate reports whether msg is a session/update notification whose
// update is a tool_call_update with _meta.claudeCode.toolResponse.
func isHookUpdate(msg string) bool {
	if updateKind(msg) != "tool_call_update" {
		return false
	}
	var m struct {
		Params struct {
			Update struct {
				Meta struct {
					ClaudeCode struct {
						ToolResponse json.RawMessage `json:"toolResponse"`
					} `json:"claudeCode"`
				} `json:"_meta"`
			} `json:"update"`
		} `json:"params"`
	}
	return json.Unmarshal([]byte(msg), &m) == nil && len(m.Params.Update.Meta.ClaudeCode.ToolResponse) > 0
}

// One difference is the bridge's on purpose (issue 8): its initialize
// response carries the bridge's identity under result._meta["acp-bridge"]
// ({"name":"acp-bridge","version","manifest","tier"}), added whatever the
// configuration. withoutIdentity removes exactly those bytes, after checking
// the identity names acp-bridge, so the rest of the message is still
// compared byte for byte; a bridge that adds it anywhere else, or changes
// anything besides, still fails the comparison.
const identityKey = "acp-bridge"

// withoutIdentity returns the messages with the bridge's identity removed
// from initialize responses; ok is false when an identity is malformed.
func withoutIdentity(msgs []string) (out []string, ok bool) {
	ok = true
	for _, m := range msgs {
		var probe struct {
			Result struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"result"`
		}
		id, has := json.RawMessage(nil), false
		if json.Unmarshal([]byte(m), &probe) == nil {
			id, has = probe.Result.Meta[identityKey]
		}
		if !has {
			out = append(out, m)
			continue
		}
		var ident struct{ Name string }
		if json.Unmarshal(id, &ident) != nil || ident.Name != "acp-bridge" {
			ok = false
		}
		key := `"` + identityKey + `":` + string(id)
		stripped := m
		meta := `"_meta":{` + key + `}`
		for _, cut := range []string{`,` + meta, meta + `,`, meta, key + `,`, `,` + key} {
			if strings.Contains(m, cut) {
				stripped = strings.Replace(m, cut, "", 1)
				break
			}
		}
		out = append(out, stripped)
	}
	return out, ok
}

// normalizer assigns placeholders to volatile values.
type normalizer struct {
	repl  map[string]string // volatile value -> placeholder
	count map[string]int    // key -> placeholders issued
	extra map[string]string // fixed replacements (e.g. the workspace base dir)
}

func newNormalizer() *normalizer {
	return &normalizer{repl: map[string]string{}, count: map[string]int{}, extra: map[string]string{}}
}

// learn records the volatile values in msg.
func (n *normalizer) learn(msg []byte) {
	var v any
	if json.Unmarshal(msg, &v) != nil {
		return
	}
	n.walk(v)
}

func (n *normalizer) walk(v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := x[k].(string); ok && isVolatile(k) {
				if _, seen := n.repl[s]; !seen && s != "" {
					n.count[k]++
					n.repl[s] = fmt.Sprintf("<%s#%d>", k, n.count[k])
				}
				continue
			}
			n.walk(x[k])
		}
	case []any:
		for _, e := range x {
			n.walk(e)
		}
	}
}

func isVolatile(k string) bool {
	for _, v := range volatileKeys {
		if k == v {
			return true
		}
	}
	return false
}

// apply replaces every learned value in s, longest first so that a value
// that contains another is replaced whole.
func (n *normalizer) apply(s string) string {
	type pair struct{ from, to string }
	var ps []pair
	for k, v := range n.repl {
		ps = append(ps, pair{k, v})
	}
	for k, v := range n.extra {
		ps = append(ps, pair{k, v})
	}
	sort.Slice(ps, func(i, j int) bool {
		if len(ps[i].from) != len(ps[j].from) {
			return len(ps[i].from) > len(ps[j].from)
		}
		return ps[i].from < ps[j].from
	})
	for _, p := range ps {
		s = strings.ReplaceAll(s, p.from, p.to)
	}
	return s
}

// normalized returns the messages of one direction with volatile values
// replaced. The normalizer learns from both directions first, in wire order.
func normalized(ls []line, dir string, extra map[string]string) []string {
	n := newNormalizer()
	for k, v := range extra {
		n.extra[k] = v
	}
	for _, l := range ls {
		if l.NonJSON == nil && l.Bridge == "" {
			n.learn(l.Msg)
		}
	}
	var out []string
	for _, m := range messages(ls, dir) {
		out = append(out, n.apply(m))
	}
	return out
}

func TestWithoutIdentity(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"added _meta", `{"id":0,"result":{"agentInfo":{"name":"a"},"_meta":{"acp-bridge":{"name":"acp-bridge","version":"1"}}}}`,
			`{"id":0,"result":{"agentInfo":{"name":"a"}}}`, true},
		{"into the agent's _meta, last", `{"id":0,"result":{"_meta":{"x":1,"acp-bridge":{"name":"acp-bridge"}}}}`,
			`{"id":0,"result":{"_meta":{"x":1}}}`, true},
		{"into the agent's _meta, first", `{"id":0,"result":{"_meta":{"acp-bridge":{"name":"acp-bridge"},"x":1}}}`,
			`{"id":0,"result":{"_meta":{"x":1}}}`, true},
		{"only key of result", `{"id":0,"result":{"_meta":{"acp-bridge":{"name":"acp-bridge"}},"x":1}}`,
			`{"id":0,"result":{"x":1}}`, true},
		{"no identity", `{"id":0,"result":{"_meta":{"x":1}}}`, `{"id":0,"result":{"_meta":{"x":1}}}`, true},
		{"someone else's identity", `{"id":0,"result":{"_meta":{"acp-bridge":{"name":"other"}}}}`, `{"id":0,"result":{}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := withoutIdentity([]string{tc.in})
			if got[0] != tc.want || ok != tc.ok {
				t.Errorf("got %s, %v; want %s, %v", got[0], ok, tc.want, tc.ok)
			}
		})
	}
}

func TestNormalizer(t *testing.T) {
	// This test runs without the suite: it checks the comparison itself.
	ls := []line{
		{Dir: toAgent, Msg: json.RawMessage(`{"id":1,"method":"session/new","params":{"cwd":"/w"}}`)},
		{Dir: toClient, Msg: json.RawMessage(`{"id":1,"result":{"sessionId":"abc-123"}}`)},
		{Dir: toClient, Msg: json.RawMessage(`{"method":"session/update","params":{"sessionId":"abc-123","update":{"toolCallId":"read_file_17","title":"read_file_17 done"}}}`)},
		{Dir: toClient, Msg: json.RawMessage(`{"method":"session/update","params":{"sessionId":"abc-123","update":{"toolCallId":"read_file_1"}}}`)},
	}
	got := normalized(ls, toClient, map[string]string{"/w": "<ws>"})
	want := []string{
		`{"id":1,"result":{"sessionId":"<sessionId#1>"}}`,
		`{"method":"session/update","params":{"sessionId":"<sessionId#1>","update":{"toolCallId":"<toolCallId#1>","title":"<toolCallId#1> done"}}}`,
		`{"method":"session/update","params":{"sessionId":"<sessionId#1>","update":{"toolCallId":"<toolCallId#2>"}}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("normalized:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a := normalized(ls, toAgent, map[string]string{"/w": "<ws>"}); a[0] != `{"id":1,"method":"session/new","params":{"cwd":"<ws>"}}` {
		t.Errorf("extra replacement not applied: %s", a[0])
	}
}

// TestHookUpdatesLast: the two orders of a hook's update, or of a
// completed tool_call_update, and a usage_update seen in two runs of one
// Claude session compare equal; a change to either message, or to the
// order within a group, still shows.
func TestHookUpdatesLast(t *testing.T) {
	// This test runs without the suite: it checks the comparison itself.
	const (
		hook  = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"claudeCode":{"toolResponse":{"type":"text"},"toolName":"Read"}},"toolCallId":"c1","sessionUpdate":"tool_call_update"}}}`
		hook2 = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"claudeCode":{"toolResponse":{"type":"text"},"toolName":"Read"}},"toolCallId":"c2","sessionUpdate":"tool_call_update"}}}`
		usage = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":1010,"size":1000000}}}`
		text  = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`
		// Not the hook's: no toolResponse, or not a tool_call_update.
		update = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"claudeCode":{"toolName":"Read"}},"toolCallId":"c1","sessionUpdate":"tool_call_update","status":"completed"}}}`
		call   = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"_meta":{"claudeCode":{"toolResponse":{}}},"toolCallId":"c1","sessionUpdate":"tool_call"}}}`
	)
	tests := []struct {
		name  string
		a, b  []string
		equal bool
	}{
		{"hook update before or after usage", []string{update, hook, usage, text}, []string{update, usage, hook, text}, true},
		{"hook update after the text", []string{hook, usage, text}, []string{usage, text, hook}, true},
		{"hook updates swapped", []string{hook, hook2, usage}, []string{hook2, usage, hook}, false},
		{"others swapped", []string{usage, text, hook}, []string{text, usage, hook}, false},
		{"completed update before or after usage", []string{update, usage, text}, []string{usage, update, text}, true},
		{"usage moved across the text", []string{update, usage, text}, []string{update, text, usage}, false},
		{"completed updates swapped", []string{update, strings.Replace(update, "c1", "c2", 1), usage}, []string{strings.Replace(update, "c1", "c2", 1), usage, update}, false},
		{"tool_call moved", []string{call, usage}, []string{usage, call}, false},
		{"hook update changed", []string{hook, usage}, []string{usage, strings.Replace(hook, "Read", "Write", 1)}, false},
		{"hook update missing", []string{hook, usage}, []string{usage}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := hookUpdatesLast(tc.a), hookUpdatesLast(tc.b)
			if equal := strings.Join(a, "\n") == strings.Join(b, "\n"); equal != tc.equal {
				t.Errorf("equal = %v, want %v:\n%s\n--\n%s", equal, tc.equal, strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
		})
	}
}
