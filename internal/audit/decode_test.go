package audit

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzFastDecode: what fastDecode decodes, it decodes as json.Unmarshal
// does; what json.Unmarshal rejects, fastDecode rejects.
func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,true,false,null,"x\n\"\\\/\b\f\r\t\u00e9\u20ac"]}`, `"é\ud83d\ude00"`, `"\udc00"`,
		"\"\xff\"", `[{"type":"content","content":{"type":"text","text":"the bridge\n"}}]`, `{"a":1,"a":2}`, ` [ ] `, `{}`,
		`1e400`, `-0`, `01`, `[1,]`, `{"a" 1}`, `"` + strings.Repeat(`\u0041`, 3) + `"`, strings.Repeat("[", 1200) + strings.Repeat("]", 1200),
		`"\u00zz"`, `tru`, `nulll`, `0.`, `.5`, `1E+2`, `"a` + "\x01" + `"`, `[1}`, `{"a":1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want any
		werr := json.Unmarshal(data, &want)
		got, ok := fastDecode(data, false)
		if werr != nil {
			if ok {
				t.Fatalf("fastDecode(%q) = %#v, json.Unmarshal: %v", data, got, werr)
			}
			return
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("fastDecode(%q) = %#v, want %#v", data, got, want)
		}
	})
}

// TestFastDecodeTakesSoakContent: the content of the soak's tool calls
// (escaped newlines included) takes the fast path.
func TestFastDecodeTakesSoakContent(t *testing.T) {
	r := newSoakRand()
	for _, runs := range []bool{false, true} {
		raw := `[{"type":"content","content":{"type":"text","text":"` + soakText(r, 5000, runs) + `"}}]`
		if _, ok := fastDecode([]byte(raw), true); !ok {
			t.Fatalf("runs=%v: fastDecode refused the soak's content", runs)
		}
	}
}
