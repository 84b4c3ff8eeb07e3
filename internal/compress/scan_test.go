package compress

import (
	"encoding/json"
	"testing"

	"github.com/acp-bridge/acp-bridge/internal/rawjson"
)

func FuzzScanMatchesRawjson(f *testing.F) {
	for _, s := range []string{
		`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a \"quoted\" \\ back\\\\"}}}`,
		`{"a":[1,2,{"b":"]}"}],"c":null,"d":-1.5e3,"e":true}`,
		` { "k" : "v" , "n" : [ ] , "o" : { } } `,
		`{"x\"y":1,"z":"\\"}`,
		`[]`, `"s"`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		want, err := rawjson.Members(doc)
		var got []rawjson.Member
		eachMember(doc, func(k, v []byte) bool {
			got = append(got, rawjson.Member{Key: string(k), Value: v})
			return true
		})
		if err != nil {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%d members, rawjson finds %d", len(got), len(want))
		}
		for i := range got {
			// Raw keys differ from rawjson's decoded ones only when escaped.
			if string(got[i].Value) != string(want[i].Value) {
				t.Fatalf("member %d value %q, rawjson %q", i, got[i].Value, want[i].Value)
			}
		}
		if arr, ok := rawjson.Get(doc); ok && len(arr) > 0 && arr[0] == '[' {
			wantE, _ := rawjson.Elements(arr)
			var gotE [][]byte
			eachElement(arr, func(v []byte) bool { gotE = append(gotE, v); return true })
			if len(gotE) != len(wantE) {
				t.Fatalf("%d elements, rawjson finds %d", len(gotE), len(wantE))
			}
		}
	})
}

func TestMember(t *testing.T) {
	doc := []byte(`{"a":"x\"}","b":{"c":[1,{"d":2}]},"e":3}`)
	tests := []struct{ key, want string }{{"a", `"x\"}"`}, {"b", `{"c":[1,{"d":2}]}`}, {"e", "3"}, {"f", ""}}
	for _, tt := range tests {
		got, ok := member(doc, tt.key)
		if string(got) != tt.want || ok != (tt.want != "") {
			t.Errorf("member(%q) = %q, %v; want %q", tt.key, got, ok, tt.want)
		}
	}
}
