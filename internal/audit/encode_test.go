package audit

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// TestToolCallKeys: the members of a mirror are in RFC 8785 order in
// appendToolCall, and none is a key the redactor masks or renames.
func TestToolCallKeys(t *testing.T) {
	tc := ToolCall{Kind: "k", Operator: "o", Session: "s", ToolCallID: "i", Tool: "t", Arguments: "a", Result: "r", Error: "e", Approval: "p"}
	tree, err := tc.tree()
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range tree.(map[string]any) {
		keys = append(keys, k)
		if isSecretKey(k) || len(k) > 16 || escapeMarkerKey(k) != k || k == "name" {
			t.Errorf("mirror key %q is masked, renamed or starts a pair", k)
		}
	}
	slices.SortFunc(keys, compareUTF16)
	var r redactor
	got, err := r.appendToolCall(nil, &tc)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	dec := json.NewDecoder(bytes.NewReader(got))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		order = append(order, k.(string))
		var skip any
		dec.Decode(&skip)
	}
	if !slices.Equal(order, keys) {
		t.Errorf("appendToolCall's members %q, want %q", order, keys)
	}
}

// TestAppendMapErrors: a value that cannot be encoded fails the record
// on both paths.
func TestAppendMapErrors(t *testing.T) {
	for name, m := range map[string]map[string]any{
		"nan":           {"x": math.NaN()},
		"nan in mirror": {"toolCall": ToolCall{Kind: "tool-call", Arguments: math.Inf(1)}},
		"masked mirror": {"token": ToolCall{Kind: "tool-call", Result: math.NaN()}},
		"bad number":    {"n": json.Number("12abc")},
		"bad raw":       {"raw": json.RawMessage(`{"a":`)},
	} {
		l := fieldLog(Options{})
		_, _, err := l.field(nil, "metadata", m, false)
		_, _, want := l.fieldTree(nil, "metadata", m, false)
		if (err == nil) != (want == nil) {
			t.Errorf("%s: %v; through a tree: %v", name, err, want)
		}
	}
}

// fieldLog is a Log for field and fieldTree alone: its options as Open
// completes them, and no file.
func fieldLog(opts Options) *Log {
	if opts.MaxValueBytes <= 0 {
		opts.MaxValueBytes = DefaultMaxValueBytes
	}
	if opts.MaxFieldBytes <= 0 {
		opts.MaxFieldBytes = DefaultMaxFieldBytes
	}
	return &Log{opts: opts, red: redactor{maxValue: opts.MaxValueBytes, headLen: min(1024, opts.MaxValueBytes)}}
}

// fuzzOptions is the options a fuzz target draws: fields capped at
// maxField bytes, and content written in full when full (a digest else).
func fuzzOptions(maxField int, full bool) Options {
	opts := Options{MaxFieldBytes: maxField}
	if full {
		opts.Content = ContentFull
	}
	return opts
}

// FuzzAppendMap: a map encoded without a tree (appendMap) is what the
// tree path makes of it: toTree's copy, redacted, encoded.
func FuzzAppendMap(f *testing.F) {
	for _, s := range []string{`{"session":"s-1","status":"completed","rule":"allow Read (/w/GOVERNANCE.md:75)"}`,
		`{"name":"GITHUB_TOKEN","value":"ghp_x"}`, `{"name":"GITHUB_TOKEN","value":""}`, `{"token":"abc","password":null,"apiKey":{"a":1}}`,
		`{"$redacted":true,"reason":"x"}`, `{"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB":1}`, `{"a":[1,2.5,"password=hunter22"],"b":{"c":"d"}}`,
		`{"name":"x","value":"y"}`, `{"é":1,"\ud83d\ude00":2,"\uffff":3}`, `{}`} {
		f.Add(s, "tool-call", "read", `{"path":"/a","token":"t"}`, `[{"type":"content","content":{"type":"text","text":"ok"}}]`, 0)
		f.Add(s, "", "", "", "", 5)
	}
	f.Fuzz(func(t *testing.T, obj, kind, tool, args, result string, shape int) {
		shape &= 0xffff
		var m map[string]any
		if json.Unmarshal([]byte(obj), &m) != nil || m == nil {
			return
		}
		tc := ToolCall{Kind: kind, Tool: tool, Session: tool + kind, Approval: kind}
		if json.Valid([]byte(args)) {
			tc.Arguments = json.RawMessage(args)
		} else {
			tc.Arguments = args
		}
		if json.Valid([]byte(result)) {
			tc.Result = ToolOutput(result)
			tc.Error = json.RawMessage(result)
		}
		keys := []string{"toolCall", "token", "value", "name", "x"}
		switch shape % 4 {
		case 0:
			m[keys[(shape/4)%len(keys)]] = tc
		case 1:
			m[keys[(shape/4)%len(keys)]] = &tc
		case 2:
			m["toolCall"] = (*ToolCall)(nil)
		}
		l := fieldLog(Options{MaxFieldBytes: 64 + (shape&0xff)*64, MaxValueBytes: 16 + shape>>8})
		got, _, err := l.field(nil, "metadata", m, false)
		want, _, werr := l.fieldTree(nil, "metadata", m, false)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%v; through a tree: %v", err, werr)
		}
		if string(got) != string(want) {
			t.Fatalf("without a tree:\n%s\nthrough one:\n%s", got, want)
		}
	})
}
