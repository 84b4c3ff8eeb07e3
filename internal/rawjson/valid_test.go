package rawjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, `[]`, `""`, `0`, `-0`, `1.5e+10`, `true`, `null`, ` {"a" : [1, 2, {"b":null}]} `,
		`{"s":"esc \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00"}`, "\"\u2028\"", "\"\xff\xfe\"",
		`01`, `1.`, `.5`, `1e`, `-`, `+1`, `{"a":1,}`, `[1,]`, `{"a"}`, `{a:1}`, `"\x"`, `"\u12"`,
		"\"tab\there\"", `tru`, `nul`, `[`, `{`, `"`, ``, ` `, `1 2`, `{"a":1}x`, `"abcdefghijklmnop\"qrstuvwxyz"`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		`"` + strings.Repeat("x", 100) + "\x01" + `"`,
	}
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

// FuzzValid: Valid agrees with encoding/json.Valid on every input.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1,2.5e3,-0,true,null,"\u00e9"]}}`, `"abc\"def\\"`, `[1,{}]`, "\"\x1f\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

func BenchmarkValid(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 400) + `"}}}}`)
	b.Run("rawjson", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for i := 0; i < b.N; i++ {
			Valid(msg)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for i := 0; i < b.N; i++ {
			json.Valid(msg)
		}
	})
}
