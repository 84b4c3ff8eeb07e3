package audit

import (
	"encoding/json"
	"testing"
)

// FuzzMetadataOver: metadataField, which encodes the caller's metadata
// with the mirror and the policy rule put in and no copy of the map,
// writes what the tree path writes of the merged map.
func FuzzMetadataOver(f *testing.F) {
	for _, s := range []string{`{"session":"s-1","status":"completed","rule":"allow Read (/w/GOVERNANCE.md:75)"}`,
		`{"name":"GITHUB_TOKEN"}`, `{"value":"v"}`, `{"toolCall":{"kind":"x"},"policyRule":"r"}`, `{"$redacted":true}`, `{}`, `null`} {
		f.Add(s, "rules.deny[0]: Bash(rm:*)", `[{"type":"content","content":{"type":"text","text":"ok"}}]`, 0)
		f.Add(s, "GITHUB_TOKEN", `"x"`, 7)
	}
	f.Fuzz(func(t *testing.T, obj, rule, result string, shape int) {
		shape &= 0xffff
		var m map[string]any
		if json.Unmarshal([]byte(obj), &m) != nil {
			return
		}
		tc := ToolCall{Kind: "tool-call", Tool: "read", ToolCallID: "c1"}
		if json.Valid([]byte(result)) {
			tc.Result = ToolOutput(result)
		}
		keys := []string{"toolCall", "policyRule", "name", "value", "$digest", "session"}
		var over []member
		for i := 0; i < shape&3; i++ {
			k := keys[(shape>>(2+3*i))%len(keys)]
			if i%2 == 0 {
				over = append(over, member{k, tc})
			} else {
				over = append(over, member{k, rule})
			}
		}
		seen := map[string]bool{}
		for _, o := range over {
			if seen[o.k] {
				return // the Log puts in each member once
			}
			seen[o.k] = true
		}
		merged := map[string]any{}
		for k, v := range m {
			merged[k] = v
		}
		for _, o := range over {
			merged[o.k] = o.v
		}
		l := fieldLog(Options{MaxFieldBytes: 64 + (shape>>8&0xff)*64})
		got, err := l.metadataField(nil, m, over)
		_, want, werr := l.fieldTree(nil, "metadata", merged, false)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%v; through a tree: %v", err, werr)
		}
		if string(got) != string(want) {
			t.Fatalf("with members put in:\n%s\nthe merged map through a tree:\n%s", got, want)
		}
	})
}
