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
var volatileKeys = []string{"sessionId", "toolCallId"}

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
		if l.NonJSON == nil {
			n.learn(l.Msg)
		}
	}
	var out []string
	for _, m := range messages(ls, dir) {
		out = append(out, n.apply(m))
	}
	return out
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
